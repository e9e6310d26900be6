import FlowKit

/// Laying the screen out as lines, and painting them in place.
extension TTYRenderer {
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

    func wrap(_ text: String) -> [String] {
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
    func fit(_ line: String) -> String {
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
    func paint() {
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
    func moveBelowRegion() {
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
