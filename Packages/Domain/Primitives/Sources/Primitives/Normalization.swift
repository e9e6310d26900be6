import Foundation

extension StringProtocol {
    /// The text in Unicode Normalization Form C: letters with accents composed, so that two
    /// texts that look the same (`é` typed as one character, or as `e` and a combining accent)
    /// are the same text to every comparison and to the store.
    public var normalizedNFC: String {
        // ASCII is its own normal form: most emails and names need no table look-ups at all.
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(self) }
        return String(self).precomposedStringWithCanonicalMapping
    }

    /// Whether the text holds a character that draws nothing or changes how the text around it
    /// is drawn: zero-width characters, bidirectional controls, soft hyphens and every other
    /// default-ignorable or format character (`Cf`). Two exceptions keep emoji whole: a
    /// zero-width joiner between two emoji, and a variation selector after one.
    public var containsInvisibleCharacters: Bool {
        // No ASCII character is a format character or ignorable by default.
        if utf8.allSatisfy({ $0 < 0x80 }) { return false }
        let scalars = Array(unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar.isInvisible {
            let previous = index > 0 ? scalars[index - 1] : nil
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar.value {
            case 0x200D where previous?.isPictographic == true && next?.isPictographic == true:
                continue
            case 0xFE0E...0xFE0F where previous?.properties.isEmoji == true:
                continue
            default:
                return true
            }
        }
        return false
    }
}

extension Unicode.Scalar {
    /// Default-ignorable or a format character: nothing to see, or a change to its neighbours.
    public var isInvisible: Bool {
        properties.isDefaultIgnorableCodePoint || properties.generalCategory == .format
    }

    /// An emoji drawn as a picture (digits, `#` and `*` are emoji too, but only with a keycap).
    fileprivate var isPictographic: Bool {
        properties.isEmoji && value > 0x7F
    }
}
