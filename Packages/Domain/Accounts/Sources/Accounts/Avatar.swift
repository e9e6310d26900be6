import Primitives

/// How a user appears beside their name: a picture, their initials on a colour, or nothing.
public enum Avatar: Equatable, Sendable, Codable {
    case none
    case initials(AvatarColour)
    case image(AvatarImage)
}

/// The palette initials are drawn on.
public enum AvatarColour: String, Sendable, Codable, CaseIterable, SavedAsText {
    case red, orange, yellow, green, teal, blue, purple, pink
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
