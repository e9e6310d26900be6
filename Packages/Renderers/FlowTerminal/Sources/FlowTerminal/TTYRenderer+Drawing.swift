import FlowKit

/// How a piece of a drawn row looks.
enum Look: Sendable, Equatable {
    case plain, bold, dim, error, accent, selected, figure
    /// Money that comes to the user, or goes from them (``Tone``).
    case positive, negative
    /// An avatar's initials on the SGR background of their colour.
    case badge(String)
    /// Where a picture of the layout's `pictures` is drawn, the row's first cell: blank text,
    /// with the picture over it and over the blank rows below.
    case picture(Int)
}

/// A piece of a drawn row in one look. Its text is made safe for the terminal when the span is
/// made, so nothing from a screen or from typing reaches the terminal any other way.
struct Span: Sendable {
    let text: String
    let look: Look

    init(_ text: String, _ look: Look = .plain) {
        // A row is one line: a line break inside a value or a label would break the count.
        self.text = String(TerminalText.sanitized(text).map { $0.isNewline ? " " : $0 })
        self.look = look
    }

    var width: Int { DisplayWidth.of(text) }
}

typealias Row = [Span]

extension Array where Element == Span {
    var width: Int { reduce(0) { $0 + $1.width } }
    var text: String { map(\.text).joined() }
}

/// The screen laid out for one width, before it is fitted to the terminal's height.
struct Layout {
    var rows: [Row] = []
    /// Where the cursor goes (row, column), if anywhere.
    var cursor: (row: Int, column: Int)?
    /// The rows of the focused element, and the one of them that must be seen (the highlighted
    /// option of a choice, or its first row).
    var focus: Range<Int>?
    var mustSee: Int?
    /// The rows of the status, which stay in view when the screen is taller than the terminal.
    var status: Range<Int>?
    /// The pictures to draw, and the cells each takes.
    var pictures: [(picture: Picture, columns: Int, rows: Int)] = []
}

/// Laying the screen out as rows that fit the width, and painting them in place.
///
/// Every row is at most one column narrower than the terminal, so the terminal never wraps a row
/// by itself and a repaint can count its rows. Prose (the title and breadcrumbs, text, errors,
/// notices, the help line) wraps at spaces; labels and values sit side by side when there is room
/// and are stacked otherwise; values wrap by characters; the action and tab bars wrap onto as many
/// rows as they need. A screen taller than the terminal shows a window that follows the focus.
extension TTYRenderer {
    /// The fewest columns a value gets beside its label before labels and values are stacked.
    static let narrowestValue = 16

    func layout(usable: Int) -> Layout {
        guard let screen else { return Layout() }
        var layout = Layout()
        let usable = max(1, usable)

        var title: Row = screen.breadcrumb.flatMap { [Span($0, .dim), Span(" › ", .dim)] }
        title.append(Span(screen.title, .bold))
        layout.rows += Self.wrap(title, width: usable)

        if !screen.tabs.isEmpty {
            let items: [Row] = screen.tabs.enumerated().map { index, tab in
                let label = Span(" \(tab.label) ", tab.isSelected ? .selected : .dim)
                return index == focus ? [Span("›", .accent), label] : [Span(" "), label]
            }
            let (rows, placed) = Self.flow(items, separator: Span(" "), width: usable)
            if focus < screen.tabs.count { layout.focus = placed[focus].offset(by: layout.rows.count) }
            layout.rows += rows
        }
        for paragraph in screen.text.flatMap({ $0.split(separator: "\n", omittingEmptySubsequences: false) }) {
            layout.rows += Self.wrap(Self.toned(String(paragraph), screen.tones), width: usable)
        }
        for figure in screen.figures {
            layout.rows.append([])
            if case .picture(let picture) = figure, let images, images.draws(picture.format) {
                let cells = TerminalImages.cells(for: picture)
                if cells.columns <= usable {
                    layout.pictures.append((picture, cells.columns, cells.rows))
                    layout.rows.append([Span(" ", .picture(layout.pictures.count - 1))])
                    layout.rows += Array(repeating: [], count: cells.rows - 1)
                    continue
                }
            }
            // A figure is never wrapped: a QR code cut at the edge reads as nothing.
            let drawing = drawnFigures[figure] ?? FigureDrawing.lines(of: figure)
            drawnFigures[figure] = drawing
            switch drawing {
            case .drawn(let lines) where (lines.first?.count ?? 0) <= usable:
                layout.rows += lines.map { [Span($0, .figure)] }
            case .drawn(let lines):
                layout.rows += Self.wrap([Span("(Widen the terminal to \((lines.first?.count ?? 0) + 1) columns to see the QR code.)", .dim)], width: usable)
            case .badge(let initials, let background):
                // Without colour the brackets say where the badge begins and ends.
                layout.rows.append([style.colors ? Span(" \(initials) ", .badge(background)) : Span("[\(initials)]")])
            case .failed(let reason):
                layout.rows += Self.wrap([Span("(\(reason))", .dim)], width: usable)
            }
        }
        layout.rows.append([])

        let labelWidth = screen.fields.map { Span($0.label).width }.max() ?? 0
        let sideBySide = 2 + labelWidth + 2 + Self.narrowestValue <= usable
        let valueIndent = sideBySide ? 2 + labelWidth + 2 : 4
        let valueWidth = max(1, usable - valueIndent)
        for (index, field) in screen.fields.enumerated() {
            let focused = tabCount + index == focus
            let first = layout.rows.count
            let marker = focused ? Span("›", .accent) : Span(" ")
            let label = Span(field.label, focused ? .bold : .plain)
            let (values, cursor, highlighted) = valueRows(of: field, focused: focused, width: valueWidth)
            var valueStart = layout.rows.count
            if sideBySide {
                let padding = String(repeating: " ", count: labelWidth - label.width + 2)
                let head: Row = [marker, Span(" "), label, Span(padding)]
                layout.rows.append(head + (values.first ?? []))
                for row in values.dropFirst() { layout.rows.append(Self.indented(row, by: valueIndent)) }
            } else {
                layout.rows += Self.wrap([marker, Span(" "), label], width: usable, hanging: 2)
                valueStart = layout.rows.count
                for row in values { layout.rows.append(Self.indented(row, by: valueIndent)) }
            }
            if focused, let cursor { layout.cursor = (valueStart + cursor.row, valueIndent + cursor.column) }
            if let error = field.error {
                for row in Self.wrap([Span("✗ " + error, .error)], width: valueWidth, hanging: 2) {
                    layout.rows.append(Self.indented(row, by: valueIndent))
                }
            }
            if focused {
                layout.focus = first..<layout.rows.count
                layout.mustSee = highlighted.map { valueStart + $0 } ?? first
            }
        }

        if !screen.footer.isEmpty {
            if !screen.fields.isEmpty { layout.rows.append([]) }
            for paragraph in screen.footer {
                layout.rows += Self.wrap([Span(paragraph)], width: usable)
            }
        }
        if !screen.actions.isEmpty {
            if !screen.fields.isEmpty || !screen.footer.isEmpty { layout.rows.append([]) }
            let firstAction = tabCount + screen.fields.count
            let items: [Row] = screen.actions.enumerated().map { offset, action in
                firstAction + offset == focus
                    ? [Span("[ \(action.label) ]", .selected)]
                    : [Span("  \(action.label)  ")]
            }
            let (rows, placed) = Self.flow(items, separator: Span(" "), width: usable)
            if placed.indices.contains(focus - firstAction) { layout.focus = placed[focus - firstAction].offset(by: layout.rows.count) }
            layout.rows += rows
        }
        if layout.focus != nil, layout.mustSee == nil { layout.mustSee = layout.focus?.lowerBound }

        let statusStart = layout.rows.count
        switch screen.status {
        case .busy(let label):
            layout.rows += Self.wrap([Span(String(animates ? Self.frames[frame] : "⠿") + " ", .accent), Span(label + "…")], width: usable, hanging: 2)
        case .error(let message):
            layout.rows += Self.wrap([Span("✗ " + message, .error)], width: usable, hanging: 2)
        case .notice(let message):
            layout.rows += Self.wrap([Span("• ", .accent), Span(message)], width: usable, hanging: 2)
        case nil:
            break
        }
        if let notice = inputNotice {
            layout.rows += Self.wrap([Span("✗ " + notice, .error)], width: usable, hanging: 2)
        }
        if layout.rows.count > statusStart { layout.status = statusStart..<layout.rows.count }

        let help = ["tab next", "shift-tab back", "enter confirm", "esc back", "ctrl-d cancel"].map { [Span($0, .dim)] }
        layout.rows += Self.flow(help, separator: Span(" · ", .dim), width: usable).rows
        return layout
    }

    /// The rows of a field's value, at `width` columns; where the cursor goes in them (if the
    /// field is focused and edited); the row of the highlighted option (a focused choice).
    func valueRows(of field: Field, focused: Bool, width: Int) -> (rows: [Row], cursor: (row: Int, column: Int)?, highlighted: Int?) {
        switch field.input {
        case .text, .secret, .money, .day:
            let editor = editors[field.id] ?? LineEditor()
            // After the value: a money field's currency, a day's reading.
            let after: Span? = switch field.input {
            case .money(_, let currency, _): Span(" " + currency, .dim)
            case .day(_, let resolved?) where !editor.text.isEmpty: Span("  → " + resolved, .dim)
            default: nil
            }
            if editor.text.isEmpty, !focused, let hint = field.hint {
                return (Self.wrap([Span(hint, .dim)] + (after.map { [$0] } ?? []), width: width), nil, nil)
            }
            let isSecret = if case .secret = field.input { true } else { false }
            let shown = isSecret ? String(repeating: "•", count: editor.characters.count) : editor.text
            let column = isSecret ? editor.cursor : Span(String(editor.characters[..<editor.cursor])).width
            var (rows, cursor) = Self.wrapCharacters(Span(shown), width: width, cursor: column)
            if let after {
                if let last = rows.last, last.width + after.width <= width {
                    rows[rows.count - 1] = last + [after]
                } else {
                    rows += Self.wrap([after], width: width)
                }
            }
            return (rows, focused ? cursor : nil, nil)

        case .table(let rows, let unit, _):
            // One row per person: the label, the value being typed with its unit, what it comes to.
            let labelWidth = min(rows.map { Span($0.label).width }.max() ?? 0, max(1, width / 2))
            let current = highlights[field.id] ?? 0
            var lines: [Row] = []
            var cursor: (row: Int, column: Int)?
            var highlighted: Int?
            for (index, row) in rows.enumerated() {
                let cell = ElementID.cell(row.id, of: field.id)
                let editor = editors[cell] ?? LineEditor(row.value)
                let isCurrent = focused && index == current
                let label = Span(row.label)
                let padding = String(repeating: " ", count: max(0, labelWidth - label.width) + 2)
                var line: Row = [Span(isCurrent ? "› " : "  ", .accent), Span(row.label, isCurrent ? .bold : .plain), Span(padding)]
                let valueColumn = line.width
                line.append(Span(editor.text.isEmpty ? "…" : editor.text, editor.text.isEmpty ? .dim : .plain))
                line.append(Span(" " + unit, .dim))
                if let note = row.note { line.append(Span("  " + note, .dim)) }
                if isCurrent {
                    highlighted = lines.count
                    let column = valueColumn + Span(String(editor.characters[..<editor.cursor])).width
                    if column < width { cursor = (lines.count, column) }
                }
                lines += Self.wrap(line, width: width, hanging: 4)
            }
            if focused { lines.append([Span("↑/↓ to move between rows, enter to confirm", .dim)]) }
            return (lines, cursor, highlighted)

        case .choice(let options, let selected):
            guard focused else {
                if let chosen = options.first(where: { $0.id == selected }) { return (Self.wrap([Span(chosen.label)], width: width), nil, nil) }
                guard !options.isEmpty else { return (Self.wrap([Span("(none)", .dim)], width: width), nil, nil) }
                // Nothing chosen: a list to open one of (friends, expenses) shows its first
                // options as a list, not an empty field.
                var rows: [Row] = []
                let previewed = Array(options.prefix(Self.listPreview))
                let column = Self.labelColumn(previewed)
                for option in previewed {
                    rows += Self.wrap(
                        [Span("  ")] + Self.toned(option.label, screen?.tones ?? []) + Self.detail(option, column: column, tones: screen?.tones ?? []),
                        width: width, hanging: 2
                    )
                }
                if options.count > Self.listPreview {
                    rows += Self.wrap([Span("  and \(options.count - Self.listPreview) more", .dim)], width: width, hanging: 2)
                }
                return (rows, nil, nil)
            }
            let header: Row = filtering == field.id
                ? [Span("/" + (filters[field.id] ?? "")), Span("  type to filter, enter to pick, esc to stop", .dim)]
                : [Span("↑/↓ to move, type to filter, enter to pick", .dim)]
            var rows = Self.wrap(header, width: width)
            let shown = visible(options, for: field.id)
            if shown.isEmpty { rows += Self.wrap([Span("no option matches", .dim)], width: width) }
            var highlighted: Int?
            let column = Self.labelColumn(shown)
            for (index, option) in shown.enumerated() {
                let current = index == highlights[field.id]
                if current { highlighted = rows.count }
                let label = current ? [Span("› \(option.label)", .selected)] : [Span("  ")] + Self.toned(option.label, screen?.tones ?? [])
                rows += Self.wrap(label + Self.detail(option, column: column, tones: screen?.tones ?? []), width: width, hanging: 2)
            }
            return (rows, nil, highlighted)

        case .multiChoice(let options, _):
            let chosen = picks[field.id] ?? []
            guard focused else {
                let labels = options.filter { chosen.contains($0.id) }.map(\.label).joined(separator: ", ")
                return (Self.wrap([labels.isEmpty ? Span("(none)", .dim) : Span(labels)], width: width), nil, nil)
            }
            let header: Row = filtering == field.id
                ? [Span("/" + (filters[field.id] ?? "")), Span("  type to filter, enter to pick or unpick, esc to stop", .dim)]
                : [Span("space to pick, type to filter, enter when done", .dim)]
            var rows = Self.wrap(header, width: width)
            let shown = visible(options, for: field.id)
            if shown.isEmpty { rows += Self.wrap([Span("no one matches", .dim)], width: width) }
            var highlighted: Int?
            for (index, option) in shown.enumerated() {
                let text = (chosen.contains(option.id) ? "[x] " : "[ ] ") + option.label
                let current = index == highlights[field.id]
                if current { highlighted = rows.count }
                rows += Self.wrap([Span(text, current ? .selected : .plain)] + Self.detail(option), width: width, hanging: 4)
            }
            return (rows, nil, highlighted)

        case .confirm(let value):
            return ([[value.map { Span($0 ? "yes" : "no") } ?? Span("y/n", .dim)]], nil, nil)
        }
    }

    /// `text` in spans: each of `tones`' phrases in its tone, wherever it stands (the first,
    /// longest match at each place), the rest plain.
    static func toned(_ text: String, _ tones: [TonedPhrase]) -> Row {
        let phrases = tones.filter { !$0.phrase.isEmpty }.sorted { $0.phrase.count > $1.phrase.count }
        guard !phrases.isEmpty else { return [Span(text)] }
        var spans: Row = []
        var plain = ""
        var rest = Substring(text)
        while !rest.isEmpty {
            if let match = phrases.first(where: { rest.hasPrefix($0.phrase) }) {
                if !plain.isEmpty { spans.append(Span(plain)) }
                plain = ""
                spans.append(Span(match.phrase, match.tone == .positive ? .positive : .negative))
                rest = rest.dropFirst(match.phrase.count)
            } else {
                plain.append(rest.removeFirst())
            }
        }
        if !plain.isEmpty { spans.append(Span(plain)) }
        return spans
    }

    /// How many options a list with nothing chosen shows while another element has the focus.
    static let listPreview = 8

    /// An option's detail after its label: in its tones where the screen gives them (a balance
    /// owed or owing), else dim (an email); with `column`, in a column of its own, the label
    /// padded to that width, so that a list's balances line up.
    static func detail(_ option: Choice, column: Int? = nil, tones: [TonedPhrase] = []) -> Row {
        guard let detail = option.detail else { return [] }
        let padding = column.map { max(0, $0 - DisplayWidth.of(option.label)) } ?? 0
        let toned = Self.toned(detail, tones)
        let hasTone = toned.contains { $0.look == .positive || $0.look == .negative }
        return [Span(String(repeating: " ", count: 2 + padding))] + (hasTone ? toned : [Span(detail, .dim)])
    }

    /// The widest label among `options` that have a detail, at most ``widestLabelColumn``:
    /// where their details start; nil when none has one.
    static func labelColumn(_ options: [Choice]) -> Int? {
        let labels = options.filter { $0.detail != nil }.map { DisplayWidth.of($0.label) }
        return labels.max().map { min($0, widestLabelColumn) }
    }

    /// Labels longer than this push their detail along rather than every detail of the list.
    static let widestLabelColumn = 32

    // MARK: - Wrapping

    /// Wraps prose at spaces to `width` columns; rows after the first start `hanging` columns in.
    /// A word longer than a row is broken by characters.
    static func wrap(_ spans: Row, width: Int, hanging: Int = 0) -> [Row] {
        let hanging = width > hanging + 1 ? hanging : 0
        var rows: [Row] = []
        var current: Row = []
        var used = 0
        var hasWord = false
        var pendingSpaces: Row = []

        func newRow() {
            rows.append(current)
            current = hanging > 0 ? [Span(String(repeating: " ", count: hanging))] : []
            used = hanging
            hasWord = false
            pendingSpaces = []
        }

        for word in words(in: spans) {
            if word.isSpace {
                if hasWord {
                    pendingSpaces += word.spans
                } else if rows.isEmpty, used + word.width < width {
                    // Spaces before the first word indent it (the focus marker's place).
                    current += word.spans
                    used += word.width
                }
                continue
            }
            let spaces = pendingSpaces.width
            if hasWord, used + spaces + word.width > width { newRow() }
            if hasWord {
                current += pendingSpaces
                used += spaces
                pendingSpaces = []
            }
            if used + word.width <= width {
                current += word.spans
                used += word.width
            } else {
                // Longer than a row: by characters, filling the rows it takes.
                var onRow = hasWord
                for span in word.spans {
                    for character in span.text {
                        let cells = DisplayWidth.of(character)
                        if used + cells > width, onRow {
                            newRow()
                            onRow = false
                        }
                        current.append(Span(String(character), span.look))
                        used += cells
                        onRow = true
                    }
                }
            }
            hasWord = true
        }
        rows.append(current)
        return rows.map(merged)
    }

    /// Runs of spaces and of anything else, each with its looks.
    private static func words(in spans: Row) -> [(spans: Row, isSpace: Bool, width: Int)] {
        var result: [(spans: Row, isSpace: Bool, width: Int)] = []
        for span in spans {
            var piece = ""
            var pieceIsSpace: Bool?
            func flush() {
                guard let isSpace = pieceIsSpace, !piece.isEmpty else { return }
                let part = Span(piece, span.look)
                if let last = result.last, last.isSpace == isSpace {
                    result[result.count - 1] = (last.spans + [part], isSpace, last.width + part.width)
                } else {
                    result.append(([part], isSpace, part.width))
                }
                piece = ""
            }
            for character in span.text {
                let isSpace = character == " "
                if pieceIsSpace != isSpace { flush() }
                pieceIsSpace = isSpace
                piece.append(character)
            }
            flush()
        }
        return result
    }

    /// Wraps a value by characters; `cursor` is a column in the unwrapped value.
    static func wrapCharacters(_ span: Span, width: Int, cursor: Int) -> (rows: [Row], cursor: (row: Int, column: Int)) {
        var rows: [String] = []
        var current = ""
        var used = 0
        var offset = 0
        var place: (row: Int, column: Int)?
        for character in span.text {
            let cells = DisplayWidth.of(character)
            if used + cells > width, used > 0 {
                rows.append(current)
                current = ""
                used = 0
            }
            if place == nil, offset >= cursor { place = (rows.count, used) }
            current.append(character)
            used += cells
            offset += cells
        }
        rows.append(current)
        let rowsOut = rows.map { [Span($0, span.look)] }
        return (rowsOut, place ?? (rows.count - 1, used))
    }

    /// Lays items out along rows, `separator` between two on the same row; an item wider than a
    /// row wraps on rows of its own. Returns the rows and the rows each item took.
    static func flow(_ items: [Row], separator: Span, width: Int) -> (rows: [Row], placed: [Range<Int>]) {
        var rows: [Row] = []
        var placed: [Range<Int>] = []
        var current: Row = []
        for item in items {
            let needed = current.isEmpty ? item.width : current.width + separator.width + item.width
            if needed <= width {
                if !current.isEmpty { current.append(separator) }
                current += item
                placed.append(rows.count..<(rows.count + 1))
                continue
            }
            if !current.isEmpty {
                rows.append(current)
                current = []
            }
            if item.width <= width {
                current = item
                placed.append(rows.count..<(rows.count + 1))
            } else {
                let wrapped = wrap(item, width: width, hanging: 2)
                placed.append(rows.count..<(rows.count + wrapped.count))
                rows += wrapped
            }
        }
        if !current.isEmpty { rows.append(current) }
        return (rows.map(merged), placed)
    }

    static func indented(_ row: Row, by columns: Int) -> Row {
        row.isEmpty || row.width == 0 ? row : [Span(String(repeating: " ", count: columns))] + row
    }

    /// Neighbouring spans of one look joined, and trailing plain spaces dropped (they would only
    /// make the row longer for a terminal that re-wraps it).
    private static func merged(_ row: Row) -> Row {
        var result: Row = []
        for span in row where !span.text.isEmpty {
            if let last = result.last, last.look == span.look {
                result[result.count - 1] = Span(last.text + span.text, span.look)
            } else {
                result.append(span)
            }
        }
        while let last = result.last, last.look != .selected, !last.isPicture, last.text.last == " " {
            let trimmed = last.text.trimmingTrailingSpaces()
            if trimmed.isEmpty { result.removeLast() } else { result[result.count - 1] = Span(trimmed, last.look); break }
        }
        return result
    }

    // MARK: - Fitting the height

    /// The rows to draw in a terminal `height` rows tall: all of them, or a window that shows the
    /// focused element (and the status), with a mark where rows are hidden above or below.
    func fitted(_ layout: Layout, height: Int, usable: Int) -> (rows: [Row], cursor: (row: Int, column: Int)?) {
        guard layout.rows.count > height else {
            windowTop = 0
            return (layout.rows, layout.cursor)
        }
        // The status (after every element, before the help line) stays in view below the window
        // when it leaves room for one.
        var body = layout.rows
        var footer: [Row] = []
        if let status = layout.status, status.count <= height - 3 {
            footer = Array(body[status])
            body.removeSubrange(status)
        }
        let room = max(1, height - footer.count)
        let must = min(body.count - 1, layout.cursor?.row ?? layout.mustSee ?? 0)
        let wanted = layout.focus ?? must..<(must + 1)

        func shown(from top: Int) -> (rows: Range<Int>, above: Bool, below: Bool) {
            guard room >= 3 else { return (top..<min(body.count, top + room), false, false) }
            let above = top > 0
            var capacity = room - (above ? 1 : 0)
            let below = top + capacity < body.count
            if below { capacity -= 1 }
            return (top..<min(body.count, top + capacity), above, below)
        }
        // The window moves as little as it can, except that the first element brings the top of
        // the screen with it (the title) and the last one the bottom (the help line).
        let anchor = focus == 0 ? 0 : (focus == elements.count - 1 ? body.count : windowTop)
        var best: (top: Int, whole: Bool, distance: Int)?
        for top in 0..<body.count {
            let window = shown(from: top)
            guard window.rows.contains(must) else { continue }
            let whole = window.rows.lowerBound <= wanted.lowerBound && wanted.upperBound <= window.rows.upperBound
            let distance = abs(top - anchor)
            if let current = best, (current.whole && !whole) || (current.whole == whole && current.distance <= distance) { continue }
            best = (top, whole, distance)
        }
        let top = best?.top ?? 0
        windowTop = top
        let window = shown(from: top)
        var rows: [Row] = []
        if window.above { rows.append([Span(usable >= 12 ? "↑ more above" : "↑", .dim)]) }
        rows += body[window.rows]
        if window.below { rows.append([Span(usable >= 12 ? "↓ more below" : "↓", .dim)]) }
        rows += footer
        let cursor = layout.cursor.flatMap { cursor in
            window.rows.contains(cursor.row) ? (cursor.row - top + (window.above ? 1 : 0), cursor.column) : nil
        }
        return (rows, cursor)
    }

    // MARK: - Painting

    func render(_ row: Row) -> String {
        row.map { span in
            switch span.look {
            case .plain: span.text
            case .bold: style.bold(span.text)
            case .dim: style.dim(span.text)
            case .error: style.error(span.text)
            case .accent: style.accent(span.text)
            case .selected: style.selected(span.text)
            case .positive: style.positive(span.text)
            case .negative: style.negative(span.text)
            case .figure: style.figure(span.text)
            case .badge(let background): style.badge(span.text, background: background)
            case .picture: span.text
            }
        }.joined()
    }

    /// Repaints the region: back to its first row, clear below, draw, place the cursor.
    func paint() {
        guard stop == nil else { return }
        if controlsTerminal {
            // Stopped (Ctrl-Z), or continued in the background: draw nothing over the shell.
            guard !TerminalModes.isSuspended else { return }
            let resumes = TerminalModes.resumes
            if resumes != seenResumes {
                // The last drawing was left above what the shell printed meanwhile: draw anew.
                seenResumes = resumes
                drawnRows = []
                placements = []
                cursorRow = 0
            }
        }
        let width = max(1, self.width())
        let usable = max(1, width - 1)
        let laidOut = layout(usable: usable)
        let (rows, cursor) = fitted(laidOut, height: max(1, height()), usable: usable)
        let texts = rows.map(\.text)
        var text = ""
        if !drawnRows.isEmpty {
            let up = width == drawnWidth ? cursorRow : Self.rowsAbove(cursorRow, column: cursorColumn, of: drawnRows, rewrappedAt: width)
            if up > 0 { text += "\u{1B}[\(up)A" }
            text += "\r\u{1B}[J"
        }
        if let images {
            for shown in placements { text += images.remove(id: shown.id, placement: shown.placement) }
        }
        placements = []
        text += rows.map { render(Self.cut($0, to: usable)) }.joined(separator: "\r\n")
        text += drawPictures(of: laidOut, in: rows)
        let place: (row: Int, column: Int)
        if let cursor {
            let up = rows.count - 1 - cursor.row
            if up > 0 { text += "\u{1B}[\(up)A" }
            text += "\r\u{1B}[\(cursor.column + 1)G\u{1B}[?25h"
            place = cursor
        } else {
            text += "\u{1B}[?25l"
            place = (rows.count - 1, texts.last.map { DisplayWidth.of($0) } ?? 0)
        }
        if controlsTerminal {
            // A suspend may have come while the frame was made: written now, it would move up
            // over the shell's lines. Look again just before writing (the window left is the write).
            guard !TerminalModes.isSuspended else { return }
            if TerminalModes.resumes != seenResumes {
                // Nothing of this frame was written: its pictures are sent again with the next.
                sentPictures = [:]
                return paint()
            }
        }
        drawnRows = texts
        drawnWidth = width
        (cursorRow, cursorColumn) = place
        if controlsTerminal { TerminalModes.drawingBelowCursor(rows.count - 1 - cursorRow) }
        output.write(text)
    }

    /// The pictures of the rows just written, each over its blank cells, with the cursor back
    /// at the end of the last row. A picture is drawn only when all its rows are in view.
    private func drawPictures(of layout: Layout, in rows: [Row]) -> String {
        guard let images, !layout.pictures.isEmpty else { return "" }
        var text = ""
        for (index, row) in rows.enumerated() {
            guard case .picture(let number)? = row.first?.look, layout.pictures.indices.contains(number) else { continue }
            let (picture, columns, height) = layout.pictures[number]
            let below = rows.dropFirst(index + 1).prefix(height - 1)
            guard below.count == height - 1, below.allSatisfy(\.isEmpty) else { continue }
            var id = sentPictures[picture]
            if id == nil, images.kind == .kitty {
                id = newImageID()
                sentPictures[picture] = id
                text += images.transmit(picture, id: id ?? 0)
            }
            let placement = newImageID()
            let up = rows.count - 1 - index
            text += (up > 0 ? "\u{1B}[\(up)A" : "") + "\r"
            text += images.place(picture, id: id ?? 0, placement: placement, columns: columns, rows: height)
            text += up > 0 ? "\u{1B}[\(up)B" : ""
            if let id { placements.append((id, placement)) }
        }
        guard !text.isEmpty else { return "" }
        return text + "\r" + (rows.last.map { $0.width > 0 ? "\u{1B}[\($0.width)C" : "" } ?? "")
    }

    private func newImageID() -> UInt32 {
        defer { nextImageID = nextImageID >= 0xFFFF_FFF0 ? 1 : nextImageID + 1 }
        return nextImageID
    }

    /// How many rows up the first row of the last drawing is, once a terminal that re-wraps long
    /// lines (most do) has re-wrapped it at `width`: each row takes as many rows as it now needs.
    /// A terminal that cuts lines instead (xterm) keeps one row each, so this goes further up.
    static func rowsAbove(_ row: Int, column: Int, of rows: [String], rewrappedAt width: Int) -> Int {
        var total = 0
        for text in rows.prefix(row) { total += rowsTaken(by: text, width: width) }
        if rows.indices.contains(row) { total += wrappedRow(ofColumn: column, in: rows[row], width: width) }
        return total
    }

    /// The rows text takes when a terminal wraps it at `width` columns.
    static func rowsTaken(by text: String, width: Int) -> Int {
        let cells = DisplayWidth.of(text)
        return cells == 0 ? 1 : wrappedRow(ofColumn: cells - 1, in: text, width: width) + 1
    }

    /// The row (from zero) a column of text lands on when a terminal wraps it at `width` columns.
    static func wrappedRow(ofColumn column: Int, in text: String, width: Int) -> Int {
        let width = max(1, width)
        var row = 0
        var used = 0
        var offset = 0
        for character in text {
            let cells = DisplayWidth.of(character)
            guard cells > 0 else { continue }
            if used + cells > width, used > 0 {
                row += 1
                used = 0
            }
            if offset + cells > column { return row }
            used += cells
            offset += cells
        }
        while offset < column {
            if used + 1 > width {
                row += 1
                used = 0
            }
            used += 1
            offset += 1
        }
        return row
    }

    /// A last resort for a terminal narrower than a single character: never wider than the row.
    static func cut(_ row: Row, to width: Int) -> Row {
        guard row.width > width else { return row }
        var result: Row = []
        var used = 0
        for span in row {
            var kept = ""
            for character in span.text {
                let cells = DisplayWidth.of(character)
                guard used + cells <= width else { break }
                kept.append(character)
                used += cells
            }
            if !kept.isEmpty { result.append(Span(kept, span.look)) }
        }
        return result
    }

    /// Leaves the last drawing in place and the cursor on a fresh line below it.
    public func finish() {
        spinner?.cancel()
        spinner = nil
        moveBelowRegion()
    }

    /// Puts the cursor on a fresh line below the region, which stays as it was drawn.
    func moveBelowRegion() {
        guard !drawnRows.isEmpty else { return }
        let down = drawnRows.count - 1 - cursorRow
        output.write((down > 0 ? "\u{1B}[\(down)B" : "") + "\r\n\u{1B}[?25h")
        drawnRows = []
        // Its pictures stay with the drawing in the scrollback.
        placements = []
        cursorRow = 0
        if controlsTerminal { TerminalModes.drawingBelowCursor(nil) }
    }
}

extension Span {
    var isPicture: Bool { if case .picture = look { true } else { false } }
}

extension Range where Bound == Int {
    fileprivate func offset(by amount: Int) -> Range<Int> { (lowerBound + amount)..<(upperBound + amount) }
}
