import Synchronization

/// An in-memory terminal: it reads what a renderer writes (text, line breaks and the cursor
/// and erase sequences the TTY renderer uses) into rows of cells, so tests can assert what a
/// person would see. Styles are read and dropped.
///
/// Like a real terminal it has a height: a line break on the last row scrolls the top row into
/// the scrollback, and the cursor cannot move above the first row of the screen. A resize
/// re-wraps lines the way most terminals do (VTE, kitty, iTerm2, tmux): a line longer than the
/// new width continues on the rows below, and rows that were wrapped join again when it widens.
public final class TerminalGrid: TextOutput {
    private let state: Mutex<GridState>

    /// - Parameters:
    ///   - width: columns (at least 1).
    ///   - height: rows (at least 1); the default is tall enough that nothing scrolls.
    public init(width: Int = 80, height: Int = 1_000) {
        state = Mutex(GridState(width: max(1, width), height: max(1, height)))
    }

    public var width: Int { state.withLock { $0.width } }
    public var height: Int { state.withLock { $0.height } }

    public func write(_ text: String) {
        state.withLock { grid in for character in text { grid.consume(character) } }
    }

    /// The screen, one string per row, trailing spaces trimmed, trailing empty rows dropped.
    public var lines: [String] {
        state.withLock { grid in
            var result = grid.screen.map(\.text)
            while result.count > 1, result.last?.isEmpty == true { result.removeLast() }
            return result
        }
    }

    /// The rows scrolled off the top of the screen, oldest first.
    public var scrollback: [String] { state.withLock { $0.scrollback.map(\.text) } }

    /// The scrollback and then the screen: everything a person can scroll through.
    public var history: [String] {
        state.withLock { grid in
            var result = (grid.scrollback + grid.screen).map(\.text)
            while result.count > 1, result.last?.isEmpty == true { result.removeLast() }
            return result
        }
    }

    /// Where the cursor is on the screen (row, column), counting from zero.
    public var cursor: (row: Int, column: Int) { state.withLock { ($0.row, $0.column) } }

    /// Changes the size, re-wrapping every line at the new width as a reflowing terminal does.
    public func resize(width: Int, height: Int) {
        state.withLock { $0.resize(width: max(1, width), height: max(1, height)) }
    }
}

/// One row of cells. A wide character takes its cell and a `\0` after it.
struct GridRow: Sendable {
    var cells: [Character] = []
    /// The line goes on in the next row: this row was filled and the terminal wrapped.
    var wraps = false

    var text: String { String(cells.filter { $0 != "\u{0}" }).trimmingTrailingSpaces() }
}

/// The cells, the scrollback and the cursor of a ``TerminalGrid``.
struct GridState: Sendable {
    var width: Int
    var height: Int
    var screen: [GridRow] = [GridRow()]
    var scrollback: [GridRow] = []
    var row = 0
    var column = 0
    var pending: [Character] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
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
        case "\n", "\r\n": lineFeed(carriageReturn: true)
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
        let numbers = sequence.parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first ?? nil
        let count = max(1, first ?? 1)
        switch sequence.final {
        case "A": row = max(0, row - count)
        case "B": row = min(height - 1, row + count); ensureRow()
        case "C": column = min(width - 1, column + count)
        case "D": column = max(0, column - count)
        case "G": column = max(0, min(width - 1, count - 1))
        case "H":
            row = max(0, min(height - 1, count - 1))
            let second = numbers.count > 1 ? (numbers[1] ?? 1) : 1
            column = max(0, min(width - 1, second - 1))
            ensureRow()
        case "K":
            ensureRow()
            if screen[row].cells.count > column { screen[row].cells.removeSubrange(column...) }
            screen[row].wraps = false
        case "J":
            ensureRow()
            switch first ?? 0 {
            case 2: screen = screen.map { _ in GridRow() }
            case 3: scrollback = []
            default:
                if screen[row].cells.count > column { screen[row].cells.removeSubrange(column...) }
                screen[row].wraps = false
                screen.removeSubrange((row + 1)...)
            }
        default: break  // Styles, cursor visibility, modes.
        }
    }

    private mutating func put(_ character: Character) {
        let cells = DisplayWidth.of(character)
        guard cells > 0 else {
            // A combining mark joins the character before it; what joins nothing shows nothing.
            ensureRow()
            if column > 0, column - 1 < screen[row].cells.count {
                let joined = String(screen[row].cells[column - 1]) + String(character)
                if joined.count == 1, let combined = joined.first { screen[row].cells[column - 1] = combined }
            }
            return
        }
        if column + cells > width, column > 0 {
            ensureRow()
            screen[row].wraps = true
            lineFeed(carriageReturn: true)
        }
        ensureRow()
        while screen[row].cells.count < column + cells { screen[row].cells.append(" ") }
        screen[row].cells[column] = character
        if cells == 2, column + 1 < screen[row].cells.count { screen[row].cells[column + 1] = "\u{0}" }
        column += cells
    }

    /// Down one row, scrolling the top row into the scrollback on the last row.
    private mutating func lineFeed(carriageReturn: Bool) {
        if carriageReturn { column = 0 }
        if row + 1 >= height {
            ensureRow()
            scrollback.append(screen.removeFirst())
            row = height - 1
        } else {
            row += 1
        }
        ensureRow()
    }

    private mutating func ensureRow() {
        while screen.count <= row { screen.append(GridRow()) }
    }

    // MARK: - Resizing

    /// Re-wraps every line at the new width, keeping the cursor on the character it was on,
    /// and shows the rows that fit, from the old screen's top down where possible.
    mutating func resize(width newWidth: Int, height newHeight: Int) {
        ensureRow()
        let rows = scrollback + screen
        let cursorIndex = scrollback.count + row
        let topIndex = scrollback.count

        // Lines: runs of rows joined by wraps. Remember where the cursor and the screen's top are.
        var lines: [(cells: [Character], firstRow: Int)] = []
        var cursorLine = 0
        var cursorOffset = column
        var topLine = 0
        var index = 0
        while index < rows.count {
            var cells: [Character] = []
            let first = index
            while true {
                if index == cursorIndex {
                    cursorLine = lines.count
                    cursorOffset = cells.count + column
                }
                if index == topIndex { topLine = lines.count }
                cells += rows[index].cells
                let wraps = rows[index].wraps
                index += 1
                if !wraps || index >= rows.count { break }
            }
            lines.append((cells.filter { $0 != "\u{0}" }, first))
        }
        // Blank lines after the cursor's line are not content.
        var lastContent = cursorLine
        for (number, line) in lines.enumerated() where number > cursorLine && !line.cells.isEmpty { lastContent = number }
        lines.removeSubrange(min(lines.count, lastContent + 1)...)

        var rewrapped: [GridRow] = []
        var newCursor = (row: 0, column: 0)
        var newTop = 0
        for (number, line) in lines.enumerated() {
            if number == topLine { newTop = rewrapped.count }
            var current = GridRow()
            var used = 0
            var offset = 0
            var cursorPlaced = false
            func placeCursorIfHere() {
                if number == cursorLine, !cursorPlaced, offset >= cursorOffset {
                    newCursor = (rewrapped.count, min(used, newWidth - 1))
                    cursorPlaced = true
                }
            }
            for character in line.cells {
                let cells = max(1, DisplayWidth.of(character))
                if used + cells > newWidth, used > 0 {
                    current.wraps = true
                    rewrapped.append(current)
                    current = GridRow()
                    used = 0
                }
                placeCursorIfHere()
                current.cells.append(character)
                if cells == 2 { current.cells.append("\u{0}") }
                used += cells
                offset += cells
            }
            // The cursor may stand past the end of the line's text.
            while number == cursorLine, !cursorPlaced, offset < cursorOffset {
                if used + 1 > newWidth {
                    current.wraps = true
                    rewrapped.append(current)
                    current = GridRow()
                    used = 0
                }
                used += 1
                offset += 1
            }
            placeCursorIfHere()
            rewrapped.append(current)
        }

        // The old top stays the first row unless the lines no longer fit below it: then rows go
        // into the scrollback, never the cursor's.
        var top = max(newTop, rewrapped.count - newHeight)
        top = min(top, newCursor.row)
        top = max(0, top, newCursor.row - newHeight + 1)
        scrollback = Array(rewrapped[..<top])
        screen = Array(rewrapped[top..<min(rewrapped.count, top + newHeight)])
        if screen.isEmpty { screen = [GridRow()] }
        width = newWidth
        height = newHeight
        row = newCursor.row - top
        column = newCursor.column
        ensureRow()
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
