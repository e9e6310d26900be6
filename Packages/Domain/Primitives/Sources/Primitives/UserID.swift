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
    /// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx` from the first 16 bytes (missing bytes count as 0),
    /// with the version and variant bits set. Written straight into the string's storage: ids are
    /// made on every write, and going through a hex string and slices cost several times more.
    static func version4(from bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { text in
            var at = 0
            for index in 0..<16 {
                var byte = index < bytes.count ? bytes[index] : 0
                if index == 6 { byte = (byte & 0x0F) | 0x40 }
                if index == 8 { byte = (byte & 0x3F) | 0x80 }
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[at] = UInt8(ascii: "-")
                    at += 1
                }
                digits.withUTF8Buffer { hex in
                    text[at] = hex[Int(byte >> 4)]
                    text[at + 1] = hex[Int(byte & 0x0F)]
                }
                at += 2
            }
            return at
        }
    }
}
