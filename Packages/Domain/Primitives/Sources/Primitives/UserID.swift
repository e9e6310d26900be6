/// The identifier of a user: a random UUID in its lower-case text form.
public struct UserID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// A new identifier made from 16 bytes of `random` (a version 4 UUID).
    public static func random(using random: any RandomSource) -> UserID {
        UserID(rawValue: UUIDText.version4(from: random.bytes(16)))
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Formats bytes as a version 4 UUID, without Foundation.
enum UUIDText {
    static func version4(from bytes: [UInt8]) -> String {
        var bytes = Array(bytes.prefix(16)) + Array(repeating: 0, count: max(0, 16 - bytes.count))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.hexString
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            let start = hex.index(hex.startIndex, offsetBy: range.lowerBound)
            let end = hex.index(hex.startIndex, offsetBy: range.upperBound)
            return String(hex[start..<end])
        }
        return groups.joined(separator: "-")
    }
}
