extension QRCode {
    /// How text becomes data bits.
    public enum Mode: Hashable, Sendable, CaseIterable {
        /// The 45 characters `0`–`9`, upper-case `A`–`Z`, space and `$ % * + - . / :`, two
        /// characters in 11 bits. Upper-case codes with dashes fit it.
        case alphanumeric
        /// Any text, as its UTF-8 bytes, 8 bits each.
        ///
        /// No ECI header names the character set (as with most encoders), so a reader guesses
        /// it: ASCII and most UTF-8 texts read back as written, but some readers take a short
        /// non-ASCII text for Shift JIS or Latin-1. Alphanumeric texts are not affected.
        case byte

        /// The mode that encodes `text` in fewer bits: alphanumeric when every character of the
        /// text is in its set, byte otherwise.
        public static func smallest(for text: String) -> Mode {
            text.utf8.allSatisfy { alphanumericValue(of: $0) != nil } ? .alphanumeric : .byte
        }

        /// The four-bit mode indicator that starts a segment.
        var indicator: Int {
            switch self {
            case .alphanumeric: 0b0010
            case .byte: 0b0100
            }
        }

        /// How many bits the character count takes in a symbol of `version`: it grows with the
        /// symbol, in three steps.
        func characterCountBits(version: Int) -> Int {
            let step = version <= 9 ? 0 : (version <= 26 ? 1 : 2)
            switch self {
            case .alphanumeric: return [9, 11, 13][step]
            case .byte: return [8, 16, 16][step]
            }
        }

        /// The value of an ASCII byte in the alphanumeric set, or nil when it is not in it.
        static func alphanumericValue(of byte: UInt8) -> Int? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 10
            case UInt8(ascii: " "): 36
            case UInt8(ascii: "$"): 37
            case UInt8(ascii: "%"): 38
            case UInt8(ascii: "*"): 39
            case UInt8(ascii: "+"): 40
            case UInt8(ascii: "-"): 41
            case UInt8(ascii: "."): 42
            case UInt8(ascii: "/"): 43
            case UInt8(ascii: ":"): 44
            default: nil
            }
        }
    }
}
