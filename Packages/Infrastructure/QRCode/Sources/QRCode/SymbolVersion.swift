/// One of the forty symbol versions: its size, where its alignment patterns go, how many
/// codewords it holds and how they are split into error-correction blocks.
struct SymbolVersion: Hashable, Sendable {
    /// 1 to 40.
    let number: Int

    /// The version numbered `number`, or nil outside 1...40.
    init?(_ number: Int) {
        guard QRCode.versions.contains(number) else { return nil }
        self.number = number
    }

    /// Modules on a side: 21 for version 1, four more for each version after it.
    var size: Int { 17 + 4 * number }

    /// The row (and column) of the centre of every alignment pattern, from the standard's
    /// Annex E; patterns go at each pair of them but where a finder pattern is.
    var alignmentCentres: [Int] { VersionTables.alignmentCentres[number - 1] }

    /// Whether the symbol carries its version number in two 6×3 blocks (version 7 and up).
    var hasVersionInformation: Bool { number >= 7 }

    /// The modules left for codewords once every function pattern and the format and version
    /// information are drawn: the whole square less three finders with their separators (8×8
    /// each), 31 modules of format information and the dark module, the timing patterns, the
    /// alignment patterns (less the 5 modules of each one that lies on a timing pattern), and
    /// two 18-module version blocks.
    var dataModules: Int {
        let centres = alignmentCentres.count
        let alignmentPatterns = centres == 0 ? 0 : centres * centres - 3
        let alignmentOnTiming = centres == 0 ? 0 : 2 * (centres - 2)
        let timing = 2 * (size - 16) - 5 * alignmentOnTiming
        let versionInformation = hasVersionInformation ? 36 : 0
        let functionModules = 3 * 64 + 31 + timing + 25 * alignmentPatterns + versionInformation
        return size * size - functionModules
    }

    /// Every codeword of the symbol, data and error correction (the last few modules that do not
    /// make a whole codeword are remainder bits, left light before masking).
    var totalCodewords: Int { dataModules / 8 }

    /// How the codewords are split into blocks at a level of error correction.
    func blocks(_ correction: QRCode.ErrorCorrection) -> BlockStructure {
        let level = correction.rawValue
        return BlockStructure(
            totalCodewords: totalCodewords,
            blockCount: VersionTables.blockCount[level][number - 1],
            errorCorrectionPerBlock: VersionTables.errorCorrectionPerBlock[level][number - 1]
        )
    }
}
