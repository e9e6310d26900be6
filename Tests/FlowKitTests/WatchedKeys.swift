import FlowTerminal
import Synchronization

/// Keys from a list that note what the terminal shows each time the renderer asks for the next
/// one (so after each paint), and can resize the terminal first, as SIGWINCH would.
final class WatchedKeys: KeySource {
    struct Sight: Sendable {
        var lines: [String]
        var history: [String]
        var cursor: (row: Int, column: Int)
    }

    private let grid: TerminalGrid
    private let steps: Mutex<[(size: (width: Int, height: Int)?, key: Key)]>
    private let seen = Mutex<[Sight]>([])

    init(_ keys: [Key], grid: TerminalGrid) {
        self.grid = grid
        steps = Mutex(keys.map { (nil, $0) })
    }

    /// Each key after a resize to its size, when it has one.
    init(resizing steps: [(size: (width: Int, height: Int)?, key: Key)], grid: TerminalGrid) {
        self.grid = grid
        self.steps = Mutex(steps)
    }

    /// What the terminal showed each time a key was asked for, the first time included.
    var sights: [Sight] { seen.withLock { $0 } }

    func nextKey() async -> Key? {
        seen.withLock { $0.append(Sight(lines: grid.lines, history: grid.history, cursor: grid.cursor)) }
        guard let step = steps.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return nil }
        if let size = step.size { grid.resize(width: size.width, height: size.height) }
        return step.key
    }
}
