/// Turns a segment into the codewords placed in a symbol: data padded to the version's capacity,
/// split into blocks, each given its error correction, and the blocks interleaved.
enum CodewordSequence {
    /// The pad bytes the standard alternates to fill unused data capacity.
    private static let padBytes: [UInt8] = [0xEC, 0x11]

    /// Every codeword of the symbol in placement order. The segment must fit the version (the
    /// encoder chooses the version so that it does).
    static func codewords(
        for segment: DataSegment,
        in version: SymbolVersion,
        correction: QRCode.ErrorCorrection
    ) -> [UInt8] {
        let blocks = version.blocks(correction)
        let data = dataCodewords(for: segment, in: version, capacity: blocks.dataCodewords)
        return interleave(data, into: blocks)
    }

    /// The segment with its header, a terminator of up to four zero bits, zeros to the end of
    /// the byte, then pad bytes to fill `capacity` codewords.
    static func dataCodewords(for segment: DataSegment, in version: SymbolVersion, capacity: Int) -> [UInt8] {
        var stream = segment.encoded(in: version)
        let capacityBits = capacity * 8
        stream.append(0, width: max(0, min(4, capacityBits - stream.count)))
        stream.append(0, width: (8 - stream.count % 8) % 8)
        var codewords = stream.bytes
        var padIndex = 0
        while codewords.count < capacity {
            codewords.append(padBytes[padIndex % 2])
            padIndex += 1
        }
        return codewords
    }

    /// Splits data into blocks, computes each block's error correction, and interleaves: the
    /// first data codeword of every block, then the second, ... (short blocks run out first),
    /// then the error-correction codewords the same way.
    static func interleave(_ data: [UInt8], into blocks: BlockStructure) -> [UInt8] {
        let generator = ReedSolomon.generator(degree: blocks.errorCorrectionPerBlock)
        var dataBlocks: [ArraySlice<UInt8>] = []
        var start = 0
        for length in blocks.dataLengths {
            let end = min(start + length, data.count)
            dataBlocks.append(data[start..<end])
            start = end
        }
        let correctionBlocks = dataBlocks.map { ReedSolomon.errorCorrection(for: Array($0), generator: generator) }

        var sequence: [UInt8] = []
        sequence.reserveCapacity(blocks.totalCodewords)
        let longest = dataBlocks.map(\.count).max() ?? 0
        for index in 0..<longest {
            for block in dataBlocks where index < block.count {
                sequence.append(block[block.startIndex + index])
            }
        }
        for index in 0..<blocks.errorCorrectionPerBlock {
            for block in correctionBlocks {
                sequence.append(block[index])
            }
        }
        return sequence
    }
}
