/// An amount of money: a whole number of minor units (cents) in one currency. Never a Double.
///
/// Arithmetic is checked: amounts in different currencies never mix, and an overflow is an
/// error, not a crash.
public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The amount in minor units (1250 is 12.50 EUR).
    public let minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Zero in a currency.
    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    public var isZero: Bool { minorUnits == 0 }
    public var isPositive: Bool { minorUnits > 0 }
    public var isNegative: Bool { minorUnits < 0 }

    // MARK: - Parsing

    /// Reads an amount as people type it: `12.50`, `12,50` or `12`, with at most the currency's
    /// decimals. Anything else is refused with the reason.
    public init(parsing text: String, currency: Currency) throws(Problem) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        if trimmed.hasPrefix("-") { throw .negative }
        let separators = trimmed.filter { $0 == "." || $0 == "," }
        guard separators.count <= 1 else { throw .shape }
        let parts = trimmed.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        let isDigit = { (character: Character) in character.isASCIIDigit }
        guard !whole.isEmpty, whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit) else { throw .shape }
        guard parts.count == 1 || !fraction.isEmpty else { throw .shape }
        guard fraction.count <= currency.decimals else {
            throw currency.decimals == 0 ? .noDecimals(currency) : .tooManyDecimals(currency)
        }
        let padded = fraction + String(repeating: "0", count: currency.decimals - fraction.count)
        guard let major = Int64(whole), let minor = Int64(padded.isEmpty ? "0" : padded) else { throw .tooLarge }
        let (scaled, overflow) = major.multipliedReportingOverflow(by: currency.minorUnitsPerMajor)
        let (total, overflow2) = scaled.addingReportingOverflow(minor)
        guard !overflow, !overflow2 else { throw .tooLarge }
        self.init(minorUnits: total, currency: currency)
    }

    /// Why a text is not an amount.
    public enum Problem: ValidationProblem {
        case empty
        case negative
        case shape
        case tooManyDecimals(Currency)
        case noDecimals(Currency)
        case tooLarge

        public var message: String {
            switch self {
            case .empty: "Enter an amount, like 12.50."
            case .negative: "Enter the amount without a minus sign."
            case .shape: "Enter an amount like 12.50, 12,50 or 12 (no thousands separators)."
            case .tooManyDecimals(let currency): "\(currency.code) has \(currency.decimals) decimals at most."
            case .noDecimals(let currency): "\(currency.code) has no decimals: enter a whole amount."
            case .tooLarge: "That amount is too large."
            }
        }
    }

    // MARK: - Formatting

    /// The amount with its decimals and a point, without the currency: `-12.50`.
    public var amountText: String {
        let unit = currency.minorUnitsPerMajor
        let magnitude = minorUnits.magnitude
        let whole = magnitude / UInt64(unit)
        let sign = minorUnits < 0 ? "-" : ""
        guard currency.decimals > 0 else { return "\(sign)\(whole)" }
        let fraction = String(magnitude % UInt64(unit))
        return "\(sign)\(whole).\(String(repeating: "0", count: currency.decimals - fraction.count))\(fraction)"
    }

    /// `12.50 EUR`.
    public var description: String { "\(amountText) \(currency.code)" }

    // MARK: - Arithmetic

    public func adding(_ other: Money) throws(ArithmeticError) -> Money {
        guard other.currency == currency else { throw .currencyMismatch(currency, other.currency) }
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: sum, currency: currency)
    }

    public func subtracting(_ other: Money) throws(ArithmeticError) -> Money {
        try adding(other.negated())
    }

    public func negated() throws(ArithmeticError) -> Money {
        guard minorUnits != .min else { throw .overflow }
        return Money(minorUnits: -minorUnits, currency: currency)
    }

    public func multiplied(by factor: Int64) throws(ArithmeticError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: factor)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: product, currency: currency)
    }

    /// Why arithmetic on money did not happen.
    public enum ArithmeticError: Error, Equatable, Sendable {
        case currencyMismatch(Currency, Currency)
        case overflow
    }
}
