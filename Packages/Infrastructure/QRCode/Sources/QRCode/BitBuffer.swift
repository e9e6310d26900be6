/// A sequence of bits written most significant first, as the data stream of a symbol is.
struct BitBuffer: Hashable, Sendable {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    /// Appends the low `width` bits of `value`, the highest of them first.
    mutating func append(_ value: Int, width: Int) {
        for shift in stride(from: width - 1, through: 0, by: -1) {
            bits.append((value >> shift) & 1 == 1)
        }
    }

    mutating func append(contentsOf other: BitBuffer) {
        bits.append(contentsOf: other.bits)
    }

    /// The bits in bytes, eight to a byte; a last partial byte is padded with zeros.
    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            var byte: UInt8 = 0
            for offset in 0..<8 {
                let index = start + offset
                byte = byte << 1 | (index < bits.count && bits[index] ? 1 : 0)
            }
            return byte
        }
    }
}
