/// The penalty of a finished symbol under the four evaluation rules of ISO/IEC 18004 (section
/// 7.8.3, Table 11); the encoder keeps the mask whose symbol scores lowest, the lowest-numbered
/// one on a tie.
///
/// The standard leaves some points to the reader. This reading follows its words and scores the
/// whole symbol, format and version information included:
/// - N1: each run of 5 + i modules of one colour in a row or a column scores 3 + i.
/// - N2: a block of m × n modules of one colour scores 3 × (m − 1) × (n − 1), which is 3 for
///   each 2 × 2 square of one colour it contains.
/// - N3: each dark-light-dark-light-dark sequence of runs in the ratio 1:1:3:1:1 (n, n, 3n, n, n
///   modules) with a light area 4n modules wide before or after it scores 40, once. The quiet
///   zone around the symbol is light, so a pattern against the edge has its light area.
/// - N4: with the dark share p of all modules, 10 × k where k is the number of whole 5% steps
///   between p and 50%: k = ⌊|p − 50%| / 5%⌋, computed exactly (45.4% dark is k = 0).
struct MaskPenalty: Hashable, Sendable {
    /// N1, N2 and N3 in points.
    private(set) var runs = 0
    private(set) var blocks = 0
    private(set) var finderLikePatterns = 0
    private(set) var darkModules = 0
    private(set) var modules = 0

    /// N4 in points, under the standard's reading above.
    var balance: Int {
        guard modules > 0 else { return 0 }
        return 10 * (abs(20 * darkModules - 10 * modules) / modules)
    }

    var total: Int { runs + blocks + finderLikePatterns + balance }

    /// Scores `grid`, a `size` × `size` square given row by row (true is dark).
    init(modules grid: [Bool], size: Int) {
        guard size > 0, grid.count == size * size else { return }
        modules = grid.count
        var line = LineScanner()
        for row in 0..<size {
            line.start()
            for column in 0..<size {
                let dark = grid[row * size + column]
                if dark { darkModules += 1 }
                line.add(dark)
                if row > 0, column > 0, grid[row * size + column - 1] == dark,
                   grid[(row - 1) * size + column] == dark, grid[(row - 1) * size + column - 1] == dark {
                    blocks += 3
                }
            }
            line.finish()
        }
        for column in 0..<size {
            line.start()
            for row in 0..<size { line.add(grid[row * size + column]) }
            line.finish()
        }
        runs = line.runPenalty
        finderLikePatterns = line.finderPenalty
    }
}

/// N1 and N3 along rows or columns, one module at a time. A line is read as runs alternating
/// light, dark, light, ...: the first run is light (empty when the line starts dark), and a
/// line that ends dark is followed by an empty light run, so every dark run lies between two
/// light runs, those at the ends going on into the quiet zone.
private struct LineScanner {
    private(set) var runPenalty = 0
    private(set) var finderPenalty = 0
    private var dark = false
    private var length = 0
    /// The lengths of the last six runs that ended, the latest first (plain values rather than
    /// an array: this runs for every run of every line of eight symbols).
    private var history = (0, 0, 0, 0, 0, 0)
    private var ended = 0

    mutating func start() {
        dark = false
        length = 0
        ended = 0
    }

    mutating func add(_ module: Bool) {
        if module == dark {
            length += 1
        } else {
            endRun(atEdge: false)
            dark = module
            length = 1
        }
    }

    mutating func finish() {
        endRun(atEdge: true)
        if dark {
            dark = false
            length = 0
            endRun(atEdge: true)
        }
    }

    private mutating func endRun(atEdge: Bool) {
        if length >= 5 { runPenalty += 3 + (length - 5) }
        // A light run closing a finder-like pattern: the five runs before it are dark, light,
        // dark, light, dark in the ratio 1:1:3:1:1, and the sixth is the light run before.
        if !dark, ended >= 6 {
            let unit = history.2 / 3
            if unit > 0, history.2 % 3 == 0, history.0 == unit, history.1 == unit,
               history.3 == unit, history.4 == unit {
                let lightBefore = ended == 6 || history.5 >= 4 * unit
                let lightAfter = atEdge || length >= 4 * unit
                if lightBefore || lightAfter { finderPenalty += 40 }
            }
        }
        history = (length, history.0, history.1, history.2, history.3, history.4)
        ended += 1
    }
}
