import Synchronization

/// An in-memory terminal: it reads what a renderer writes (text, line breaks and the cursor
/// and erase sequences the TTY renderer uses) into rows of cells, so tests can assert what a
/// person would see. Styles are read and dropped.
public final class TerminalGrid: TextOutput {
    private let state: Mutex<GridState>
    public let width: Int

    public init(width: Int = 80) {
        self.width = max(10, width)
        state = Mutex(GridState(width: max(10, width)))
    }

    public func write(_ text: String) {
        state.withLock { grid in for character in text { grid.consume(character) } }
    }

    /// The visible text, one string per row, trailing spaces trimmed.
    public var lines: [String] {
        state.withLock { grid in
            var result = grid.rows.map { String($0.filter { $0 != "\u{0}" }).trimmingTrailingSpaces() }
            while result.count > 1, result.last?.isEmpty == true { result.removeLast() }
            return result
        }
    }

    /// Where the cursor is (row, column), counting from zero.
    public var cursor: (row: Int, column: Int) { state.withLock { ($0.row, $0.column) } }
}

/// The cells and the cursor of a ``TerminalGrid``.
struct GridState: Sendable {
    let width: Int
    var rows: [[Character]] = [[]]
    var row = 0
    var column = 0
    var pending: [Character] = []

    init(width: Int) {
        self.width = width
    }

    mutating func consume(_ character: Character) {
        if !pending.isEmpty || character == "\u{1B}" {
            pending.append(character)
            if let sequence = completeSequence() {
                pending = []
                apply(sequence)
            }
            return
        }
        switch character {
        case "\r": column = 0
        case "\n", "\r\n": newLine()
        default: put(character)
        }
    }

    /// A complete `ESC [ params final` sequence, or nil while it is still arriving.
    private mutating func completeSequence() -> (parameters: String, final: Character)? {
        guard pending.count >= 2 else { return nil }
        guard pending[1] == "[" else {
            pending = []
            return nil
        }
        guard let last = pending.last, pending.count > 2, let ascii = last.asciiValue, (0x40...0x7E).contains(ascii) else { return nil }
        return (String(pending[2..<(pending.count - 1)]), last)
    }

    private mutating func apply(_ sequence: (parameters: String, final: Character)) {
        let number = Int(sequence.parameters.filter(\.isNumber)) ?? 1
        switch sequence.final {
        case "A": row = max(0, row - number)
        case "B": row += number; ensureRow()
        case "C": column = min(width - 1, column + number)
        case "D": column = max(0, column - number)
        case "G": column = max(0, min(width - 1, number - 1))
        case "K":
            ensureRow()
            if rows[row].count > column { rows[row].removeSubrange(column...) }
        case "J":
            ensureRow()
            if rows[row].count > column { rows[row].removeSubrange(column...) }
            rows.removeSubrange((row + 1)...)
        default: break  // Styles, cursor visibility, modes.
        }
    }

    private mutating func put(_ character: Character) {
        let cells = DisplayWidth.of(character)
        guard cells > 0 else {
            // A combining mark joins the character before it.
            ensureRow()
            if column > 0, column - 1 < rows[row].count {
                rows[row][column - 1] = Character(String(rows[row][column - 1]) + String(character))
            }
            return
        }
        if column + cells > width { newLine() }
        ensureRow()
        while rows[row].count < column + cells { rows[row].append(" ") }
        rows[row][column] = character
        if cells == 2 { rows[row][column + 1] = "\u{0}" }
        column += cells
    }

    private mutating func newLine() {
        row += 1
        column = 0
        ensureRow()
    }

    private mutating func ensureRow() {
        while rows.count <= row { rows.append([]) }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
