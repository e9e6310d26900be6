extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }

    /// Whether the text holds a control character (C0, DEL or C1), such as an escape sequence.
    public var containsControlCharacters: Bool {
        unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}

extension Sequence<UInt8> {
    /// The bytes as lower-case hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        for byte in self {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension BidirectionalCollection<String> {
    /// The texts as a sentence lists them: `Ann`, `Ann and Bob`, `Ann, Bob and Cy`; empty for none.
    public var listedInWords: String {
        guard let last = last else { return "" }
        return count == 1 ? last : dropLast().joined(separator: ", ") + " and " + last
    }
}

extension Character {
    /// One of 0 to 9, alone: not another script's digit, and not a digit with a combining mark
    /// (`"3\u{301}"` is one Character that sorts between "0" and "9").
    public var isASCIIDigit: Bool {
        unicodeScalars.count == 1 && ("0"..."9").contains(unicodeScalars.first ?? " ")
    }
}
