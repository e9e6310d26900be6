/// A user's friend code: what a friend types or scans to find them, shown as `K7QX-M3RD-9`.
///
/// Eight characters drawn at random from an alphabet that cannot be misread (no 0 or O, no 1,
/// I or L), then a check character. Upper case and dashes only, so a QR code holds it in its
/// compact alphanumeric mode. Typed in any case, with or without spaces and dashes.
public struct FriendCode: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 31 characters of friend codes, in the order that gives each its value.
    public static let alphabet: [Character] = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    /// Random characters before the check character.
    public static let randomLength = 8

    /// The nine characters, without dashes: `K7QXM3RD9`.
    public let rawValue: String

    /// Reads a code as a person types it: any case, spaces and dashes anywhere.
    public init(_ text: String) throws(FriendCodeProblem) {
        let characters = text.uppercased().filter { $0 != "-" && !$0.isWhitespace }
        guard characters.count == Self.randomLength + 1 else { throw .length(characters.count) }
        var values: [Int] = []
        for character in characters {
            guard let value = Self.alphabet.firstIndex(of: character) else { throw .character(character) }
            values.append(value)
        }
        guard values[Self.randomLength] == Self.check(values.prefix(Self.randomLength)) else { throw .check }
        rawValue = String(characters)
    }

    /// A new code from `random`'s bytes.
    public static func random(using random: any RandomSource) -> FriendCode {
        // 31 does not divide 256: bytes of 248 and above are drawn again, so every character
        // is equally likely. (A source that gives nothing else after many rounds, which no
        // real one does, gets them folded in rather than a loop that never ends.)
        var values: [Int] = []
        var rounds = 0
        while values.count < randomLength {
            rounds += 1
            for byte in random.bytes(randomLength * 2) where (byte < 248 || rounds > 64) && values.count < randomLength {
                values.append(Int(byte) % alphabet.count)
            }
        }
        return FriendCode(values: values + [check(values[...])])
    }

    private init(values: [Int]) {
        rawValue = String(values.map { Self.alphabet[$0] })
    }

    /// The check character's value: the sum of each character's value times its place (1 to
    /// 8), modulo 31. 31 is prime and the weights differ, so any one character typed wrong, and
    /// any two characters swapped, give another check character.
    private static func check(_ values: ArraySlice<Int>) -> Int {
        var sum = 0
        for (offset, value) in values.enumerated() {
            sum = (sum + (offset + 1) * value) % alphabet.count
        }
        return sum
    }

    /// The code as shown: `K7QX-M3RD-9`.
    public var description: String {
        let characters = Array(rawValue)
        guard characters.count == Self.randomLength + 1 else { return rawValue }
        return String(characters[0..<4]) + "-" + String(characters[4..<8]) + "-" + String(characters[8])
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Why some text is not a friend code.
public enum FriendCodeProblem: Error, Equatable, Sendable {
    /// Not nine characters once spaces and dashes are left out.
    case length(Int)
    /// A character friend codes do not use.
    case character(Character)
    /// The last character does not match the others: a character typed wrong, or two swapped.
    case check

    public var message: String {
        switch self {
        case .length: "A friend code has 9 characters, like K7QX-M3RD-9."
        case .character(let character):
            "\(character.isLetter || character.isNumber ? "\"\(character)\"" : "That character") is not used in friend codes: they use 2 to 9 and the letters A to Z without I, L and O."
        case .check: "That friend code does not check out: a character may be typed wrong or two swapped."
        }
    }
}
