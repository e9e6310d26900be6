/// An ISO 4217 currency: its code and how many decimals its minor unit has.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The three-letter code (`EUR`).
    public let code: String
    /// Digits after the decimal point: 2 for EUR, 0 for JPY, 3 for KWD.
    public let decimals: Int

    /// The currency with this code (any case); nil for a code this table does not know.
    public init?(code: String) {
        let upper = code.uppercased()
        guard let decimals = Self.table[upper] else { return nil }
        self.code = upper
        self.decimals = decimals
    }

    public var description: String { code }

    /// 10 to the power of `decimals`: minor units in one major unit.
    public var minorUnitsPerMajor: Int64 {
        var result: Int64 = 1
        for _ in 0..<decimals { result *= 10 }
        return result
    }

    /// Every currency known, by code (worked out once: forms list them at every key).
    public static let all: [Currency] = table.keys.sorted().compactMap { Currency(code: $0) }

    public static let eur = Currency(known: "EUR", decimals: 2)
    public static let usd = Currency(known: "USD", decimals: 2)
    public static let jpy = Currency(known: "JPY", decimals: 0)
    public static let kwd = Currency(known: "KWD", decimals: 3)

    private init(known code: String, decimals: Int) {
        self.code = code
        self.decimals = decimals
    }

    public init(from decoder: any Decoder) throws {
        let code = try decoder.singleValueContainer().decode(String.self)
        guard let currency = Currency(code: code) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown currency \(code)"))
        }
        self = currency
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    /// ISO 4217 minor units of the currencies people commonly use.
    private static let table: [String: Int] = [
        "AED": 2, "ARS": 2, "AUD": 2, "BGN": 2, "BHD": 3, "BRL": 2, "CAD": 2, "CHF": 2, "CLP": 0,
        "CNY": 2, "COP": 2, "CZK": 2, "DKK": 2, "EGP": 2, "EUR": 2, "GBP": 2, "HKD": 2, "HUF": 2,
        "IDR": 2, "ILS": 2, "INR": 2, "IQD": 3, "ISK": 0, "JOD": 3, "JPY": 0, "KES": 2, "KRW": 0,
        "KWD": 3, "LYD": 3, "MAD": 2, "MXN": 2, "MYR": 2, "NGN": 2, "NOK": 2, "NZD": 2, "OMR": 3,
        "PEN": 2, "PHP": 2, "PKR": 2, "PLN": 2, "QAR": 2, "RON": 2, "RSD": 2, "SAR": 2, "SEK": 2,
        "SGD": 2, "THB": 2, "TND": 3, "TRY": 2, "TWD": 2, "UAH": 2, "UGX": 0, "USD": 2, "VND": 0,
        "XAF": 0, "XOF": 0, "ZAR": 2,
    ]
}
