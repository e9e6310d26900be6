import FlowKit

/// The interactive renderer for a terminal: the whole screen at once, a focus that moves with
/// Tab and the arrows, fields edited in place, inline errors under their fields.
///
/// It draws below what is already on the terminal and repaints only its own region, so the
/// scrollback keeps what happened. Keys: Tab / Shift-Tab or Down / Up move between elements;
/// in a text field, typing edits (Left, Right, Home, End, Backspace, Delete, Ctrl-U, Ctrl-W) and
/// Enter confirms (on the last field it also submits); in a choice, Up / Down or j / k move and
/// Enter or Space picks; Space toggles in a multi-choice; y / n answer a confirm; Enter takes the
/// focused action; Esc goes back; Ctrl-D cancels.
public actor TTYRenderer: ScreenHost {
    private let keys: any KeySource
    private let output: any TextOutput
    private let style: TerminalStyle
    private let width: @Sendable () -> Int
    private let animates: Bool

    public private(set) var stop: PlainRenderer.Stop?
    private var screen: Screen?
    private var focus = 0
    private var editors: [ElementID: LineEditor] = [:]
    private var highlights: [ElementID: Int] = [:]
    private var picks: [ElementID: Set<ElementID>] = [:]
    private var submitAfterFill: ElementID?
    private var drawnLines = 0
    private var cursorRow = 0

    private var filters: [ElementID: String] = [:]
    private var filtering: ElementID?
    private var spinner: Task<Void, Never>?
    private var frame = 0
    private static let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    /// - Parameter animates: turn the busy mark into a spinner (on a real terminal).
    public init(keys: any KeySource, output: any TextOutput, style: TerminalStyle, animates: Bool = false, width: @escaping @Sendable () -> Int) {
        self.keys = keys
        self.output = output
        self.style = style
        self.animates = animates
        self.width = width
    }

    // MARK: - ScreenHost

    public func present(_ screen: Screen) async {
        show(screen, fresh: true)
    }

    public func update(_ screen: Screen) async {
        // A screen on top again after a dismissal is drawn when it next asks for something, so
        // a flow that leaves it at once leaves no copy of it behind.
        guard screen.id == self.screen?.id else { return }
        show(screen, fresh: false)
    }

    public func dismiss(_ screenID: ElementID) async {
        guard screen?.id == screenID else { return }
        // Leave the last drawing in the scrollback and start below it.
        moveBelowRegion()
        screen = nil
    }

    public func nextEvent(on screen: Screen) async -> UserEvent {
        guard stop == nil else { return .cancel }
        if screen.id != self.screen?.id { show(screen, fresh: true) } else { show(screen, fresh: false) }

        if let primary = submitAfterFill {
            submitAfterFill = nil
            if screen.fields.allSatisfy({ $0.error == nil }) { return .tap(primary) }
        }
        while true {
            paint()
            guard let key = await keys.nextKey() else {
                moveBelowRegion()
                stop = .endOfInput(question: focusedLabel)
                return .cancel
            }
            if let event = handle(key) { return event }
        }
    }

    // MARK: - State

    private var elements: [ElementID] { screen?.elementIDs ?? [] }

    /// How many tabs come before the fields in the focus order.
    private var tabCount: Int { screen?.tabs.count ?? 0 }

    private var focusedLabel: String {
        guard let screen, (0..<screen.fields.count).contains(focus - tabCount) else { return "the action to take" }
        return screen.fields[focus - tabCount].label
    }

    private func show(_ next: Screen, fresh: Bool) {
        if fresh {
            if screen != nil { moveBelowRegion() }
            editors = [:]
            highlights = [:]
            picks = [:]
            filters = [:]
            filtering = nil
            focus = next.tabs.count + (next.fields.firstIndex { !$0.hasValue || $0.error != nil } ?? next.fields.count)
            if next.fields.isEmpty, let primary = next.actions.firstIndex(where: { $0.role == .primary }) { focus = next.tabs.count + primary }
        }
        for field in next.fields {
            switch field.input {
            case .text(let value) where editors[field.id] == nil || fresh: editors[field.id] = LineEditor(value)
            case .secret(let isSet) where !isSet: editors[field.id] = LineEditor()
            case .choice(let options, let selected) where highlights[field.id] == nil:
                highlights[field.id] = options.firstIndex { $0.id == selected } ?? 0
            case .multiChoice(_, let selected) where picks[field.id] == nil:
                picks[field.id] = Set(selected)
            default: break
            }
        }
        let previousStatus = screen?.status
        screen = next
        animate(busy: { if case .busy = next.status { true } else { false } }())
        // After a change, the first field with an error takes the focus back; after a failed
        // submit, the first field that needs an answer again (a cleared password) does.
        if !fresh, let broken = next.fields.firstIndex(where: { $0.error != nil }), next.tabs.count + broken < focus {
            focus = next.tabs.count + broken
        } else if !fresh, case .error = next.status, next.status != previousStatus,
                  let empty = next.fields.firstIndex(where: { !$0.hasValue }) {
            focus = next.tabs.count + empty
        }
        focus = min(focus, max(0, elements.count - 1))
        paint()
    }

    // MARK: - Keys

    private func handle(_ key: Key) -> UserEvent? {
        guard let screen else { return .cancel }
        if key == .resize { return nil }
        if let field = filtering, let options = screen.field(field)?.input.options {
            return filter(key, in: field, options: options)
        }
        switch key {
        case .escape: return .back
        case .control("d"): return .cancel
        case .tab: return moveFocus(1, on: screen)
        case .shiftTab: return moveFocus(-1, on: screen)
        default: break
        }
        if focus < tabCount {
            // On the tab bar: Left / Right (or Enter) choose a tab.
            let selected = screen.tabs.firstIndex(where: \.isSelected) ?? focus
            switch key {
            case .left: return selected > 0 ? .tap(screen.tabs[selected - 1].id) : nil
            case .right: return selected + 1 < screen.tabs.count ? .tap(screen.tabs[selected + 1].id) : nil
            case .enter, .character(" "): return .tap(screen.tabs[focus].id)
            case .up: return moveFocus(-1, on: screen)
            case .down: return moveFocus(1, on: screen)
            default: return nil
            }
        }
        if focus - tabCount < screen.fields.count {
            return handle(key, in: screen.fields[focus - tabCount], on: screen)
        }
        guard screen.actions.indices.contains(focus - tabCount - screen.fields.count) else { return nil }
        let action = screen.actions[focus - tabCount - screen.fields.count]
        switch key {
        case .enter, .character(" "): return .tap(action.id)
        case .up, .left: return moveFocus(-1, on: screen)
        case .down, .right: return moveFocus(1, on: screen)
        default: return nil
        }
    }

    private func handle(_ key: Key, in field: Field, on screen: Screen) -> UserEvent? {
        switch field.input {
        case .text, .secret:
            if key == .enter {
                let value = editors[field.id]?.text ?? ""
                if focus - tabCount == screen.fields.count - 1, let primary = screen.primaryAction { submitAfterFill = primary.id }
                focus += 1
                return .fill(field.id, value)
            }
            if key == .up { return moveFocus(-1, on: screen) }
            if key == .down { return moveFocus(1, on: screen) }
            var editor = editors[field.id] ?? LineEditor()
            _ = editor.handle(key)
            editors[field.id] = editor
            return nil

        case .choice(let options, _):
            let shown = visible(options, for: field.id)
            let current = highlights[field.id] ?? 0
            switch key {
            case .up, .character("k"): highlights[field.id] = max(0, current - 1)
            case .down, .character("j"): highlights[field.id] = min(max(0, shown.count - 1), current + 1)
            case .character("/"):
                filtering = field.id
                highlights[field.id] = 0
            case .enter, .character(" "):
                guard shown.indices.contains(current) else { return nil }
                focus += 1
                filters[field.id] = nil
                return .choose(field.id, [shown[current].id])
            default: break
            }
            return nil

        case .multiChoice(let options, _):
            let current = highlights[field.id] ?? 0
            switch key {
            case .up, .character("k"): highlights[field.id] = max(0, current - 1)
            case .down, .character("j"): highlights[field.id] = min(options.count - 1, current + 1)
            case .character(" "):
                guard options.indices.contains(current) else { return nil }
                picks[field.id, default: []].formSymmetricDifference([options[current].id])
            case .enter:
                focus += 1
                let chosen = options.map(\.id).filter { picks[field.id, default: []].contains($0) }
                return .choose(field.id, chosen)
            default: break
            }
            return nil

        case .confirm:
            switch key {
            case .character("y"), .character("Y"): focus += 1; return .choose(field.id, [.yes])
            case .character("n"), .character("N"): focus += 1; return .choose(field.id, [.no])
            case .up: return moveFocus(-1, on: screen)
            case .down: return moveFocus(1, on: screen)
            default: return nil
            }
        }
    }

    /// Keys while a choice list is being filtered: typing narrows it, Enter picks the
    /// highlighted option, Esc leaves the filter.
    private func filter(_ key: Key, in field: ElementID, options: [Choice]) -> UserEvent? {
        var text = filters[field] ?? ""
        switch key {
        case .character(let character): text.append(character)
        case .paste(let pasted): text += pasted.filter { !$0.isNewline }
        case .backspace: if !text.isEmpty { text.removeLast() }
        case .escape:
            filtering = nil
            filters[field] = nil
            highlights[field] = 0
            return nil
        case .up: highlights[field] = max(0, (highlights[field] ?? 0) - 1); return nil
        case .down: highlights[field] = min(max(0, visible(options, for: field).count - 1), (highlights[field] ?? 0) + 1); return nil
        case .enter:
            let shown = visible(options, for: field)
            guard let pick = shown.indices.contains(highlights[field] ?? 0) ? shown[highlights[field] ?? 0] : nil else { return nil }
            filtering = nil
            filters[field] = nil
            focus += 1
            return .choose(field, [pick.id])
        default: return nil
        }
        filters[field] = text
        highlights[field] = 0
        return nil
    }

    /// The options a choice shows under its filter (matching anywhere, without case).
    private func visible(_ options: [Choice], for field: ElementID) -> [Choice] {
        guard let text = filters[field], !text.isEmpty else { return options }
        return options.filter { $0.label.lowercased().contains(text.lowercased()) }
    }

    /// Starts or stops the spinner of a busy screen.
    private func animate(busy: Bool) {
        guard animates else { return }
        if busy, spinner == nil {
            spinner = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(80))
                    await self?.tick()
                }
            }
        } else if !busy {
            spinner?.cancel()
            spinner = nil
        }
    }

    private func tick() {
        guard spinner != nil else { return }
        frame = (frame + 1) % Self.frames.count
        paint()
    }

    /// Moves the focus; leaving a text field whose text changed confirms it.
    private func moveFocus(_ step: Int, on screen: Screen) -> UserEvent? {
        let count = screen.elementIDs.count
        guard count > 0 else { return nil }
        let leaving = focus - tabCount
        focus = (focus + step + count) % count
        if (0..<screen.fields.count).contains(leaving) {
            let field = screen.fields[leaving]
            if let editor = editors[field.id] {
                switch field.input {
                case .text(let value) where editor.text != value: return .fill(field.id, editor.text)
                case .secret where !editor.text.isEmpty: return .fill(field.id, editor.text)
                default: break
                }
            }
        }
        return nil
    }

    // MARK: - Drawing

    /// The lines of the screen and where the cursor goes (row, column), if anywhere.
    func layout() -> (lines: [String], cursor: (row: Int, column: Int)?) {
        guard let screen else { return ([], nil) }
        var lines: [String] = []
        var cursor: (row: Int, column: Int)?
        let crumbs = screen.breadcrumb.map { style.dim($0 + " › ") }.joined()
        lines.append(crumbs + style.bold(TerminalText.sanitized(screen.title)))
        if !screen.tabs.isEmpty {
            let bar = screen.tabs.enumerated().map { index, tab in
                let label = " \(TerminalText.sanitized(tab.label)) "
                let shown = tab.isSelected ? style.selected(label) : style.dim(label)
                return index == focus ? style.accent("›") + shown : " " + shown
            }
            lines.append(bar.joined(separator: " "))
        }
        lines += screen.text.flatMap { wrap(TerminalText.sanitized($0)) }
        lines.append("")

        let labelWidth = screen.fields.map { DisplayWidth.of($0.label) }.max() ?? 0
        for (index, field) in screen.fields.enumerated() {
            let focused = tabCount + index == focus
            let marker = focused ? style.accent("›") : " "
            let label = field.label + String(repeating: " ", count: labelWidth - DisplayWidth.of(field.label))
            let prefix = "\(marker) \(focused ? style.bold(label) : label)  "
            let prefixWidth = 2 + labelWidth + 2
            switch field.input {
            case .text, .secret:
                let editor = editors[field.id] ?? LineEditor()
                let shown = field.input.isSecret
                    ? String(repeating: "•", count: editor.text.count)
                    : TerminalText.sanitized(editor.text)
                let hint = editor.text.isEmpty && !focused ? style.dim(field.hint ?? "") : ""
                lines.append(prefix + shown + hint)
                if focused {
                    let column = field.input.isSecret ? editor.text.prefix(editor.cursor).count : editor.cursorColumn
                    cursor = (lines.count - 1, prefixWidth + column)
                }
            case .choice(let options, let selected):
                let filter = filters[field.id] ?? ""
                let header = filtering == field.id
                    ? "/" + TerminalText.sanitized(filter) + style.dim("  type to filter, enter to pick, esc to stop")
                    : style.dim("↑/↓ to move, / to filter, enter to pick")
                lines.append(prefix + (focused ? header : (options.first { $0.id == selected }?.label ?? style.dim("(none)"))))
                if focused {
                    let shown = visible(options, for: field.id)
                    if shown.isEmpty { lines.append(String(repeating: " ", count: prefixWidth) + style.dim("no option matches")) }
                    for (optionIndex, option) in shown.enumerated() {
                        let current = optionIndex == highlights[field.id]
                        lines.append(String(repeating: " ", count: prefixWidth) + (current ? style.selected("› \(option.label)") : "  \(option.label)"))
                    }
                }
            case .multiChoice(let options, _):
                let chosen = picks[field.id] ?? []
                lines.append(prefix + (focused ? style.dim("space to pick, enter when done") : options.filter { chosen.contains($0.id) }.map(\.label).joined(separator: ", ")))
                if focused {
                    for (optionIndex, option) in options.enumerated() {
                        let box = chosen.contains(option.id) ? "[x]" : "[ ]"
                        let text = "\(box) \(option.label)"
                        lines.append(String(repeating: " ", count: prefixWidth) + (optionIndex == highlights[field.id] ? style.selected(text) : text))
                    }
                }
            case .confirm(let value):
                lines.append(prefix + (value.map { $0 ? "yes" : "no" } ?? style.dim("y/n")))
            }
            if let error = field.error {
                lines.append(String(repeating: " ", count: prefixWidth) + style.error("✗ " + TerminalText.sanitized(error)))
            }
        }

        if !screen.actions.isEmpty {
            if !screen.fields.isEmpty { lines.append("") }
            let bar = screen.actions.enumerated().map { offset, action in
                let text = " \(action.label) "
                return tabCount + screen.fields.count + offset == focus ? style.selected("[\(text)]") : " \(text) "
            }
            lines.append(bar.joined(separator: " "))
        }
        switch screen.status {
        case .busy(let label): lines.append(style.accent(String(animates ? Self.frames[frame] : "⠿") + " ") + label + "…")
        case .error(let message): lines.append(style.error("✗ " + TerminalText.sanitized(message)))
        case .notice(let message): lines.append(style.accent("• ") + TerminalText.sanitized(message))
        case nil: break
        }
        lines.append(style.dim("tab next · shift-tab back · enter confirm · esc back · ctrl-d cancel"))
        return (lines, cursor)
    }

    private func wrap(_ text: String) -> [String] {
        let limit = max(10, width()) - 1
        var lines: [String] = []
        var current = ""
        var used = 0
        for character in text {
            let cells = DisplayWidth.of(character)
            if used + cells > limit {
                lines.append(current)
                current = ""
                used = 0
            }
            current.append(character)
            used += cells
        }
        lines.append(current)
        return lines
    }

    /// Cuts a styled line to the terminal's width, so every line takes exactly one row and the
    /// repaint can count them. Escape sequences take no columns.
    private func fit(_ line: String) -> String {
        let limit = max(10, width())
        var result = ""
        var used = 0
        var inEscape = false
        for character in line {
            if inEscape {
                result.append(character)
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii), character != "[" { inEscape = false }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                result.append(character)
                continue
            }
            let cells = DisplayWidth.of(character)
            if used + cells > limit - 1 { return result + (style.colors ? "\u{1B}[0m" : "") }
            result.append(character)
            used += cells
        }
        return result
    }

    /// Repaints the region: back to its first line, clear below, draw, place the cursor.
    private func paint() {
        guard stop == nil else { return }
        let (laidOut, cursor) = layout()
        let lines = laidOut.map(fit)
        var text = ""
        if drawnLines > 0 {
            if cursorRow > 0 { text += "\u{1B}[\(cursorRow)A" }
            text += "\r\u{1B}[J"
        }
        text += lines.joined(separator: "\r\n")
        if let cursor {
            let up = lines.count - 1 - cursor.row
            if up > 0 { text += "\u{1B}[\(up)A" }
            text += "\r\u{1B}[\(cursor.column + 1)G\u{1B}[?25h"
            cursorRow = cursor.row
        } else {
            text += "\u{1B}[?25l"
            cursorRow = lines.count - 1
        }
        drawnLines = lines.count
        output.write(text)
    }

    /// Leaves the last drawing in place and the cursor on a fresh line below it.
    public func finish() {
        spinner?.cancel()
        spinner = nil
        moveBelowRegion()
    }

    /// Puts the cursor on a fresh line below the region, which stays as it was drawn.
    private func moveBelowRegion() {
        guard drawnLines > 0 else { return }
        let down = drawnLines - 1 - cursorRow
        output.write((down > 0 ? "\u{1B}[\(down)B" : "") + "\r\n\u{1B}[?25h")
        drawnLines = 0
        cursorRow = 0
    }
}

extension Input {
    fileprivate var isSecret: Bool {
        if case .secret = self { true } else { false }
    }
}
