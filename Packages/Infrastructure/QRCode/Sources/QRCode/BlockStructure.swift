/// How a symbol's codewords form blocks: each block is some data codewords followed by the same
/// number of error-correction codewords; the first blocks ("short") have one data codeword fewer
/// than the last ones when the data does not divide evenly.
struct BlockStructure: Hashable, Sendable {
    let totalCodewords: Int
    let blockCount: Int
    let errorCorrectionPerBlock: Int

    /// The data codewords of all the blocks together: what the text, with its header and
    /// padding, fills.
    var dataCodewords: Int { totalCodewords - blockCount * errorCorrectionPerBlock }

    /// The data codewords of each block, in order.
    var dataLengths: [Int] {
        let short = totalCodewords / blockCount - errorCorrectionPerBlock
        let longBlocks = totalCodewords % blockCount
        return (0..<blockCount).map { $0 < blockCount - longBlocks ? short : short + 1 }
    }
}
