/// A QR code encoder (ISO/IEC 18004, Model 2, versions 1 to 40) for text in alphanumeric or
/// byte mode.
///
/// `QRCode.encode` picks the smallest version that holds the text at the asked error-correction
/// level, and, unless one is forced, the mask the standard's penalty rules prefer. The result is
/// a ``QRMatrix``; ``QRMatrix/halfBlockLines(quietZone:)`` draws it for a terminal.
public enum QRCode {
    /// The versions the encoder makes: 1 (21×21 modules) to 40 (177×177).
    public static let versions: ClosedRange<Int> = 1...40

    /// The numbers of the eight mask patterns.
    public static let masks: ClosedRange<Int> = 0...7

    /// Encodes `text` as a QR code.
    ///
    /// - Parameters:
    ///   - correction: the error-correction level.
    ///   - mode: alphanumeric or byte (UTF-8); nil picks ``Mode/smallest(for:)``.
    ///   - minimumVersion: the smallest version to use, 1 by default; the text may need a
    ///     larger one.
    ///   - maximumVersion: the largest version allowed, 40 by default. Pass the same number as
    ///     `minimumVersion` for exactly that version.
    ///   - mask: a mask pattern 0...7 to use; nil chooses the one with the lowest penalty.
    /// - Throws: ``EncodingError/tooLong(bytes:mode:correction:maximumVersion:)`` when the text
    ///   does not fit, and the other cases of ``EncodingError`` for arguments out of range.
    public static func encode(
        _ text: String,
        correction: ErrorCorrection = .medium,
        mode: Mode? = nil,
        minimumVersion: Int = 1,
        maximumVersion: Int = 40,
        mask: Int? = nil
    ) throws(EncodingError) -> QRMatrix {
        guard let smallest = SymbolVersion(minimumVersion), let largest = SymbolVersion(maximumVersion),
              smallest.number <= largest.number else {
            throw .invalidVersionRange(minimum: minimumVersion, maximum: maximumVersion)
        }
        var forcedMask: MaskPattern?
        if let mask {
            guard let pattern = MaskPattern(mask) else { throw .invalidMask(mask) }
            forcedMask = pattern
        }

        let chosenMode = mode ?? .smallest(for: text)
        // A text longer than the largest symbol holds is refused before its bits are made.
        if let capacity = capacity(chosenMode, version: largest.number, correction: correction), text.utf8.count > capacity {
            throw .tooLong(bytes: text.utf8.count, mode: chosenMode, correction: correction, maximumVersion: largest.number)
        }
        let segment = try DataSegment(text: text, mode: chosenMode)
        guard let version = smallestVersion(holding: segment, from: smallest, to: largest, correction: correction) else {
            throw .tooLong(
                bytes: text.utf8.count, mode: segment.mode, correction: correction, maximumVersion: largest.number
            )
        }

        var grid = ModuleGrid(version: version)
        grid.placeData(CodewordSequence.codewords(for: segment, in: version, correction: correction))
        let chosen = forcedMask.map { (mask: $0, modules: grid.masked($0, correction: correction)) }
            ?? lowestPenaltyMasking(of: grid, correction: correction)
        return QRMatrix(
            version: version.number, correction: correction, mode: segment.mode,
            mask: chosen.mask.number, size: grid.size, modules: chosen.modules
        )
    }

    /// The most characters (alphanumeric mode) or UTF-8 bytes (byte mode) a symbol of
    /// `version` holds at `correction`, or nil for a version outside 1...40.
    public static func capacity(_ mode: Mode, version: Int, correction: ErrorCorrection) -> Int? {
        guard let symbol = SymbolVersion(version) else { return nil }
        let countBits = mode.characterCountBits(version: version)
        let bits = symbol.blocks(correction).dataCodewords * 8 - 4 - countBits
        let characters = switch mode {
        case .alphanumeric: 2 * (bits / 11) + (bits % 11 >= 6 ? 1 : 0)
        case .byte: bits / 8
        }
        return min(characters, (1 << countBits) - 1)
    }

    /// The grid under each of the eight masks, and the one whose symbol has the lowest penalty
    /// (``MaskPenalty``); on a tie the lowest-numbered mask.
    private static func lowestPenaltyMasking(
        of grid: ModuleGrid,
        correction: ErrorCorrection
    ) -> (mask: MaskPattern, modules: [Bool]) {
        var best = (mask: MaskPattern.all[0], modules: grid.masked(MaskPattern.all[0], correction: correction))
        var lowest = MaskPenalty(modules: best.modules, size: grid.size).total
        for pattern in MaskPattern.all.dropFirst() {
            let modules = grid.masked(pattern, correction: correction)
            let penalty = MaskPenalty(modules: modules, size: grid.size).total
            if penalty < lowest {
                lowest = penalty
                best = (pattern, modules)
            }
        }
        return best
    }

    /// The first version from `smallest` to `largest` whose data capacity at `correction` holds
    /// the segment and its header, or nil when none does.
    private static func smallestVersion(
        holding segment: DataSegment,
        from smallest: SymbolVersion,
        to largest: SymbolVersion,
        correction: ErrorCorrection
    ) -> SymbolVersion? {
        for number in smallest.number...largest.number {
            guard let version = SymbolVersion(number), let length = segment.encodedLength(in: version) else { continue }
            if length <= version.blocks(correction).dataCodewords * 8 { return version }
        }
        return nil
    }
}
