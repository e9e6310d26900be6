/// The text as the one segment of a symbol's data: its mode, its character count and the bits
/// of its characters, which the header (mode indicator and count) will precede.
struct DataSegment: Hashable, Sendable {
    let mode: QRCode.Mode
    /// Characters in alphanumeric mode, bytes in byte mode: what the count field holds.
    let characterCount: Int
    let bits: BitBuffer

    /// Encodes `text` in `mode`; alphanumeric mode refuses a character outside its set.
    init(text: String, mode: QRCode.Mode) throws(QRCode.EncodingError) {
        let bytes = Array(text.utf8)
        var bits = BitBuffer()
        switch mode {
        case .byte:
            for byte in bytes { bits.append(Int(byte), width: 8) }
        case .alphanumeric:
            var values: [Int] = []
            values.reserveCapacity(bytes.count)
            for character in text {
                for byte in character.utf8 {
                    guard let value = QRCode.Mode.alphanumericValue(of: byte) else { throw .notAlphanumeric(character) }
                    values.append(value)
                }
            }
            // Two characters make one 11-bit number; a last odd one takes 6 bits.
            for start in stride(from: 0, to: values.count, by: 2) {
                if start + 1 < values.count {
                    bits.append(values[start] * 45 + values[start + 1], width: 11)
                } else {
                    bits.append(values[start], width: 6)
                }
            }
        }
        self.mode = mode
        self.characterCount = bytes.count
        self.bits = bits
    }

    /// The bits the segment takes in a symbol of `version`, header included, or nil when its
    /// count does not fit the count field there.
    func encodedLength(in version: SymbolVersion) -> Int? {
        let countBits = mode.characterCountBits(version: version.number)
        guard characterCount < 1 << countBits else { return nil }
        return 4 + countBits + bits.count
    }

    /// The segment with its header, in a symbol of `version`.
    func encoded(in version: SymbolVersion) -> BitBuffer {
        var stream = BitBuffer()
        stream.append(mode.indicator, width: 4)
        stream.append(characterCount, width: mode.characterCountBits(version: version.number))
        stream.append(contentsOf: bits)
        return stream
    }

}
