/// Text made safe to write to a terminal.
public enum TerminalText {
    /// Replaces what a terminal would act on or not show with visible stand-ins, so text that
    /// came from a user or a file can never move the cursor, change the terminal, hide itself or
    /// reorder what is around it:
    ///
    /// - control characters (escape sequences included) become U+FFFD `�`; line breaks stay;
    /// - invisible and format characters (default-ignorable code points and the `Cf` category:
    ///   zero-width spaces and joiners, bidirectional controls, soft hyphens, Hangul fillers, tag
    ///   characters, variation selectors, ...) become a marker naming them, like `<U+202E>`.
    ///
    /// Inside an emoji they stay: a zero-width joiner between two emoji, a variation selector after
    /// one, tags after a black flag, so `👩‍👩‍👧`, `❤️` and `🏴󠁧󠁢󠁳󠁣󠁴󠁿` are written as they are.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || isInvisible($0) }) else { return text }
        var result = ""
        for character in text {
            let scalars = Array(character.unicodeScalars)
            guard scalars.contains(where: { isControl($0) || isInvisible($0) }) else {
                result.append(character)
                continue
            }
            for (index, scalar) in scalars.enumerated() {
                if scalar == "\n" {
                    result.unicodeScalars.append(scalar)
                } else if isControl(scalar) {
                    result.unicodeScalars.append("\u{FFFD}")
                } else if isInvisible(scalar), !belongsToEmoji(scalars, at: index) {
                    result += marker(for: scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `<U+200B>`: how an invisible character is shown.
    static func marker(for scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .format
    }

    /// An emoji picture (not the digits, `#` and `*` that can start a keycap).
    private static func isPictograph(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isEmoji && scalar.value > 0x7F
    }

    /// Whether the invisible scalar at `index` of one character is part of an emoji sequence.
    private static func belongsToEmoji(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let scalar = scalars[index]
        switch scalar.value {
        case 0x200D:
            // A joiner between two emoji; skin tones and presentation selectors may come between.
            var before = index - 1
            while before >= 0, scalars[before].properties.isEmojiModifier || scalars[before] == "\u{FE0F}" { before -= 1 }
            guard before >= 0, index + 1 < scalars.count else { return false }
            return isPictograph(scalars[before]) && isPictograph(scalars[index + 1])
        case 0xFE0E, 0xFE0F:
            // A text or emoji presentation selector right after an emoji (keycaps included).
            return index > 0 && scalars[index - 1].properties.isEmoji
        case 0xE0020...0xE007F:
            // The tags of a subdivision flag: a black flag, tags, a cancel tag.
            return scalars.first == "\u{1F3F4}" && index > 0
        default:
            return false
        }
    }
}
