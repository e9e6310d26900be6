/// Keys for encoding a flow's result as `{"result": name, ...}`.
public struct OutcomeCodingKey: CodingKey, ExpressibleByStringLiteral, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
    public init(stringLiteral value: String) { stringValue = value }

    /// The key of the result's name.
    public static let result: OutcomeCodingKey = "result"
}
