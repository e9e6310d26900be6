/// A symbol being built: the colour of every module, and which modules belong to function
/// patterns (finders, separators, timing, alignment, format and version information), which
/// data and masks leave alone. Modules are stored row by row; `true` is dark.
struct ModuleGrid: Sendable {
    let size: Int
    private(set) var modules: [Bool]
    private(set) var isFunction: [Bool]
    /// Where the format bits go: the 15 of the first copy, then the 15 of the second.
    private let formatPositions: [(row: Int, column: Int)]

    /// The function patterns of `version`, with the version information drawn and the format
    /// information's modules reserved (it depends on the mask, so `masked` draws it).
    init(version: SymbolVersion) {
        size = version.size
        modules = [Bool](repeating: false, count: size * size)
        isFunction = modules
        formatPositions = Self.formatPositions(size: size)
        drawFinderPatterns()
        drawTimingPatterns()
        drawAlignmentPatterns(centres: version.alignmentCentres)
        reserveFormatInformation()
        if version.hasVersionInformation { drawVersionInformation(version.number) }
    }

    // MARK: - Data

    /// Fills the non-function modules with `codewords`, most significant bit first, in the
    /// standard's order: two-module-wide columns from the right edge, going up then down in
    /// turn, stepping over the vertical timing pattern. Modules left over (the remainder bits)
    /// stay light.
    mutating func placeData(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        var upward = true
        while right >= 1 {
            if right == 6 { right = 5 }
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for offset in 0..<2 where !isFunction[row * size + right - offset] {
                    let column = right - offset
                    if bitIndex < bitCount {
                        let byte = codewords[bitIndex / 8]
                        modules[row * size + column] = (byte >> (7 - bitIndex % 8)) & 1 == 1
                    }
                    bitIndex += 1
                }
            }
            upward.toggle()
            right -= 2
        }
    }

    /// The finished symbol with `mask` applied to the data modules and the format information
    /// for `correction` and `mask` drawn.
    func masked(_ mask: MaskPattern, correction: QRCode.ErrorCorrection) -> [Bool] {
        var result = modules
        for row in 0..<size {
            for column in 0..<size where !isFunction[row * size + column] && mask.flips(row: row, column: column) {
                result[row * size + column].toggle()
            }
        }
        let format = FormatInformation.bits(correction: correction, mask: mask.number)
        for (index, position) in formatPositions.enumerated() {
            let bit = (format >> (index % 15)) & 1 == 1
            result[position.row * size + position.column] = bit
        }
        return result
    }

    // MARK: - Function patterns

    private mutating func set(_ row: Int, _ column: Int, dark: Bool) {
        modules[row * size + column] = dark
        isFunction[row * size + column] = true
    }

    /// Three 7×7 finders in the corners but the bottom right, each with its light separator.
    private mutating func drawFinderPatterns() {
        for (top, left) in [(0, 0), (0, size - 7), (size - 7, 0)] {
            for row in (top - 1)...(top + 7) where (0..<size).contains(row) {
                for column in (left - 1)...(left + 7) where (0..<size).contains(column) {
                    // Rings around the centre: 3×3 dark, light, dark, then the light separator.
                    let ring = max(abs(row - top - 3), abs(column - left - 3))
                    set(row, column, dark: ring != 2 && ring != 4)
                }
            }
        }
    }

    /// Row 6 and column 6, alternately dark and light between the finders.
    private mutating func drawTimingPatterns() {
        for index in 8..<(size - 8) {
            set(6, index, dark: index % 2 == 0)
            set(index, 6, dark: index % 2 == 0)
        }
    }

    /// A 5×5 pattern at each pair of centres, but where it would overlap a finder.
    private mutating func drawAlignmentPatterns(centres: [Int]) {
        guard let first = centres.first, let last = centres.last else { return }
        for row in centres {
            for column in centres {
                let onFinder = (row == first && column == first) || (row == first && column == last)
                    || (row == last && column == first)
                if onFinder { continue }
                for dRow in -2...2 {
                    for dColumn in -2...2 {
                        set(row + dRow, column + dColumn, dark: max(abs(dRow), abs(dColumn)) != 1)
                    }
                }
            }
        }
    }

    /// Marks the two copies of the format information as function modules, and draws the
    /// single dark module beside the bottom-left finder.
    private mutating func reserveFormatInformation() {
        for position in formatPositions {
            set(position.row, position.column, dark: false)
        }
        set(size - 8, 8, dark: true)
    }

    /// Where each of the 15 format bits goes (bit 0 the least significant), first copy then
    /// second: around the top-left finder, then split between the other two.
    private static func formatPositions(size: Int) -> [(row: Int, column: Int)] {
        var positions: [(row: Int, column: Int)] = []
        for bit in 0..<15 {
            switch bit {
            case 0...5: positions.append((bit, 8))
            case 6: positions.append((7, 8))
            case 7: positions.append((8, 8))
            case 8: positions.append((8, 7))
            default: positions.append((8, 14 - bit))
            }
        }
        for bit in 0..<15 {
            positions.append(bit < 8 ? (8, size - 1 - bit) : (size - 15 + bit, 8))
        }
        return positions
    }

    /// The version number with its error correction, in a 6×3 block above the bottom-left
    /// finder and its mirror left of the top-right one.
    private mutating func drawVersionInformation(_ version: Int) {
        let bits = FormatInformation.versionBits(version)
        for bit in 0..<18 {
            let dark = (bits >> bit) & 1 == 1
            let near = bit / 3
            let far = size - 11 + bit % 3
            set(far, near, dark: dark)
            set(near, far, dark: dark)
        }
    }
}
