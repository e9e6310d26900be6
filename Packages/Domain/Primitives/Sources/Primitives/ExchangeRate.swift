/// A rate as it is published or typed, exactly: `175.68` is 17568 with two decimals. Never a
/// Double.
public struct PublishedRate: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The digits, as a whole number (above zero).
    public let units: Int64
    /// How many of them are decimals (0 to 9).
    public let decimals: Int

    /// Reads `175.68`, `1.1172`, `136`; nil for anything else, zero, or more than nine decimals
    /// or fifteen digits.
    public init?(_ text: some StringProtocol) {
        self.init(bytes: text.utf8)
    }

    /// Reads the digits of a rate from UTF-8 bytes, as ``init(_:)`` does.
    public init?(bytes: some Collection<UInt8>) {
        var units: Int64 = 0
        var digits = 0
        var decimals: Int?
        for byte in bytes {
            if byte == UInt8(ascii: "."), decimals == nil, digits > 0 {
                decimals = 0
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 15 else { return nil }
            units = units * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
            if let count = decimals { decimals = count + 1 }
        }
        guard units > 0, (decimals ?? 0) <= 9, decimals != 0 else { return nil }
        self.units = units
        self.decimals = decimals ?? 0
    }

    /// As published: `175.68`.
    public var description: String {
        guard decimals > 0 else { return "\(units)" }
        var digits = String(units)
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        return digits
    }

    /// 10 to the power of `decimals`: the rate is `units / scale`.
    public var scale: Int128 { Int128.power(ofTen: decimals) }
}

/// A rate between two currencies as people state it: 1 `base` = `rate` `quote`
/// (`1 EUR = 162.51 JPY`). It converts either way, exactly, rounding once.
public struct ExchangeRate: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let base: Currency
    public let quote: Currency
    public let rate: PublishedRate

    /// Nil when both currencies are the same.
    public init?(base: Currency, quote: Currency, rate: PublishedRate) {
        guard base != quote else { return nil }
        self.base = base
        self.quote = quote
        self.rate = rate
    }

    /// `1 EUR = 162.51 JPY`.
    public var description: String { "1 \(base.code) = \(rate) \(quote.code)" }

    /// Whether it converts between `one` and `other`, either way round.
    public func relates(_ one: Currency, _ other: Currency) -> Bool {
        (base == one && quote == other) || (base == other && quote == one)
    }

    /// `money` in the rate's other currency: multiplied (from `base`) or divided (from `quote`)
    /// by the rate exactly, then rounded once to the other currency's minor units, half away
    /// from zero. Nil when `money` is in neither currency or the result does not fit an amount.
    public func convert(_ money: Money) -> Money? {
        switch money.currency {
        case base: money.converted(times: Int128(rate.units), over: rate.scale, into: quote)
        case quote: money.converted(times: rate.scale, over: Int128(rate.units), into: base)
        default: nil
        }
    }
}

extension Money {
    /// This amount times `numerator / denominator` (the units of `target` one unit of this
    /// currency is worth), in `target`: exact, then rounded once to `target`'s minor units, half
    /// away from zero. Nil for a denominator that is not above zero, or a result that does not
    /// fit an amount.
    public func converted(times numerator: Int128, over denominator: Int128, into target: Currency) -> Money? {
        guard denominator > 0 else { return nil }
        // minor(target) = minor(self) / 10^decimals(self) * rate * 10^decimals(target)
        let (scaled, over) = numerator.multipliedReportingOverflow(by: Int128.power(ofTen: target.decimals))
        let (top, overTop) = Int128(minorUnits).multipliedReportingOverflow(by: scaled)
        let (bottom, overBottom) = denominator.multipliedReportingOverflow(by: Int128.power(ofTen: currency.decimals))
        guard !over, !overTop, !overBottom else { return nil }
        let (quotient, remainder) = top.quotientAndRemainder(dividingBy: bottom)
        var rounded = quotient
        if remainder.magnitude * 2 >= bottom.magnitude { rounded += top < 0 ? -1 : 1 }
        guard let units = Int64(exactly: rounded) else { return nil }
        return Money(minorUnits: units, currency: target)
    }
}

extension Int128 {
    /// 10 to the power of `exponent`: for a count of decimals (at most 38, or it overflows).
    public static func power(ofTen exponent: Int) -> Int128 {
        var result: Int128 = 1
        for _ in 0..<Swift.max(0, exponent) { result *= 10 }
        return result
    }
}
