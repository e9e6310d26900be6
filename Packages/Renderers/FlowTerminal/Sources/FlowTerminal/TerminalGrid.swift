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

    /// The pictures on the screen and above it (kitty placements, iTerm2 inline images), with
    /// their screen row (negative once scrolled off) and their bytes.
    public var pictures: [GridPicture] { state.withLock { $0.pictures } }

    /// Changes the size, re-wrapping every line at the new width as a reflowing terminal does.
    public func resize(width: Int, height: Int) {
        state.withLock { $0.resize(width: max(1, width), height: max(1, height)) }
    }
}

/// A picture a ``TerminalGrid`` was asked to draw.
public struct GridPicture: Equatable, Sendable {
    public enum Kind: Sendable { case kitty, iTerm2 }
    public var kind: Kind
    public var row: Int
    public var column: Int
    public var columns: Int
    public var rows: Int
    public var bytes: [UInt8]
    /// kitty's image and placement ids.
    public var id: UInt32?
    public var placement: UInt32?
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
    var pictures: [GridPicture] = []
    /// kitty: pictures sent by id, and the one arriving in chunks.
    var kittyImages: [UInt32: [UInt8]] = [:]
    var kittyUpload: (id: UInt32, base64: String)?
    var saved = (row: 0, column: 0)

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

    enum Sequence {
        /// `ESC [ params final`
        case control(parameters: String, final: Character)
        /// `ESC P`, `ESC ]` or `ESC _`, its text, up to `ESC \` (or BEL for `ESC ]`).
        case string(introducer: Character, body: String)
        case saveCursor, restoreCursor
    }

    /// A complete sequence, or nil while it is still arriving (what is not understood is dropped).
    private mutating func completeSequence() -> Sequence? {
        guard pending.count >= 2 else { return nil }
        switch pending[1] {
        case "[":
            guard let last = pending.last, pending.count > 2, let ascii = last.asciiValue, (0x40...0x7E).contains(ascii) else { return nil }
            return .control(parameters: String(pending[2..<(pending.count - 1)]), final: last)
        case "P", "]", "_":
            let count = pending.count
            if count >= 4, pending[count - 2] == "\u{1B}", pending[count - 1] == "\\" {
                // tmux doubles every ESC inside its passthrough: an even run of ESCs before the
                // backslash is an escaped one, not the end.
                let escapes = pending[2..<(count - 1)].reversed().prefix { $0 == "\u{1B}" }.count
                if pending[1] == "P", escapes % 2 == 0 { return nil }
                return .string(introducer: pending[1], body: String(pending[2..<(count - 2)]))
            }
            if pending[1] == "]", pending[count - 1] == "\u{07}" {
                return .string(introducer: "]", body: String(pending[2..<(count - 1)]))
            }
            return nil
        case "7": return .saveCursor
        case "8": return .restoreCursor
        default:
            pending = []
            return nil
        }
    }

    private mutating func apply(_ sequence: Sequence) {
        switch sequence {
        case .control(let parameters, let final): apply(parameters: parameters, final: final)
        case .saveCursor: saved = (row, column)
        case .restoreCursor:
            (row, column) = saved
            ensureRow()
        case .string(let introducer, let body):
            switch introducer {
            case "P" where body.hasPrefix("tmux;"):
                var inner = ""
                var escaped = false
                for character in body.dropFirst(5) {
                    if character == "\u{1B}", !escaped {
                        escaped = true
                        continue
                    }
                    escaped = false
                    inner.append(character)
                }
                for character in inner { consume(character) }
            case "_" where body.hasPrefix("G"): applyKitty(body.dropFirst())
            case "]" where body.hasPrefix("1337;File="): applyITerm2(body.dropFirst(10))
            default: break
            }
        }
    }

    /// The kitty graphics commands the renderer sends: send (`a=t`, in chunks), place (`a=p`)
    /// and take a placement away (`a=d,d=i`).
    private mutating func applyKitty(_ command: Substring) {
        let parts = command.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        var keys: [Substring: Substring] = [:]
        for pair in (parts.first ?? "").split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { keys[kv[0]] = kv[1] }
        }
        let payload = parts.count > 1 ? String(parts[1]) : ""
        let id = keys["i"].flatMap { UInt32($0) }
        let more = keys["m"] == "1"
        switch keys["a"] {
        case "t":
            guard let id else { return }
            kittyUpload = (id, payload)
        case "p":
            guard let id, let bytes = kittyImages[id] else { return }
            let placement = keys["p"].flatMap { UInt32($0) }
            pictures.removeAll { $0.id == id && $0.placement == placement }
            pictures.append(GridPicture(
                kind: .kitty, row: row, column: column, columns: keys["c"].flatMap { Int($0) } ?? 1,
                rows: keys["r"].flatMap { Int($0) } ?? 1, bytes: bytes, id: id, placement: placement
            ))
            if keys["C"] != "1" { row += (keys["r"].flatMap { Int($0) } ?? 1) - 1 }
            ensureRow()
            return
        case "d":
            let placement = keys["p"].flatMap { UInt32($0) }
            pictures.removeAll { $0.id == id && (placement == nil || $0.placement == placement) }
            return
        case nil:
            guard kittyUpload != nil else { return }
            kittyUpload?.base64 += payload
        default:
            return
        }
        if !more, let upload = kittyUpload {
            kittyImages[upload.id] = Base64.decode(upload.base64) ?? []
            kittyUpload = nil
        }
    }

    /// iTerm2's inline image: `File=key=value;...:base64`, drawn at the cursor, which moves to
    /// its last row, past its right edge.
    private mutating func applyITerm2(_ file: Substring) {
        guard let colon = file.firstIndex(of: ":") else { return }
        var keys: [Substring: Substring] = [:]
        for pair in file[..<colon].split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { keys[kv[0]] = kv[1] }
        }
        let columns = keys["width"].flatMap { Int($0) } ?? 1
        let rows = keys["height"].flatMap { Int($0) } ?? 1
        ensureRow()
        pictures.append(GridPicture(
            kind: .iTerm2, row: row, column: column, columns: columns, rows: rows,
            bytes: Base64.decode(file[file.index(after: colon)...]) ?? []
        ))
        for _ in 1..<max(1, rows) { lineFeed(carriageReturn: false) }
        column = min(width - 1, column + columns)
    }

    private mutating func apply(parameters: String, final: Character) {
        let sequence = (parameters: parameters, final: final)
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
            case 2:
                screen = screen.map { _ in GridRow() }
                pictures.removeAll { $0.row >= 0 }
            case 3: scrollback = []
            default:
                if screen[row].cells.count > column { screen[row].cells.removeSubrange(column...) }
                screen[row].wraps = false
                screen.removeSubrange((row + 1)...)
                // iTerm2's pictures are cells and go with them; kitty keeps its placements.
                pictures.removeAll { $0.kind == .iTerm2 && ($0.row > row || ($0.row == row && $0.column >= column)) }
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
            for index in pictures.indices { pictures[index].row -= 1 }
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
