import Primitives

/// How a user appears beside their name: a picture, their initials on a colour, or nothing.
public enum Avatar: Equatable, Sendable, Codable {
    case none
    case initials(AvatarColour)
    case image(AvatarImage)
}

extension Avatar {
    /// The avatar in words: `none`, `initials on teal`, `a 64 x 48 JPEG picture`.
    public var summary: String {
        switch self {
        case .none: "none"
        case .initials(let colour): "initials on \(colour.rawValue)"
        case .image(let image): "a \(image.width) x \(image.height) \(image.format == .png ? "PNG" : "JPEG") picture"
        }
    }
}

/// The palette initials are drawn on.
public enum AvatarColour: String, Sendable, Codable, CaseIterable, SavedAsText {
    case red, orange, yellow, green, teal, blue, purple, pink

    /// The colour under a user's initials where their picture cannot be drawn: the same for the
    /// same user in every run and on every machine (FNV-1a of the id, not Swift's seeded hash).
    public static func standIn(for user: UserID) -> AvatarColour {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in user.rawValue.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return allCases[Int(hash % UInt64(allCases.count))]
    }
}

extension DisplayName {
    /// Up to two letters for an avatar: the first letters of the first and last words, in upper
    /// case (`Ada Lovelace` is `AL`, `Ada` is `A`).
    public var initials: String {
        let words = value.split(whereSeparator: \.isWhitespace)
        let letters = [words.first, words.count > 1 ? words.last : nil].compactMap { $0?.first }
        return String(letters).uppercased()
    }
}
