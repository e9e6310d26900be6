import FlowKit

/// What each key does on the focused element.
extension TTYRenderer {
    func handle(_ key: Key) -> UserEvent? {
        guard let screen else { return .cancel }
        if key == .resize { return nil }
        // A password being typed is not there to be drawn again: the screen reads anew later.
        if key == .changedElsewhere { return typesSecret ? nil : .refresh }
        // A notice about the last key lasts until the next one.
        inputNotice = nil
        if key == .invalidUTF8 {
            inputNotice = "input that is not valid UTF-8 was ignored"
            return nil
        }
        if let field = filtering, let options = screen.field(field)?.input.options {
            return filter(key, in: field, options: options)
        }
        switch key {
        case .escape: return .back
        case .control("d"): return .cancel
        // Reads the screen again: what others changed meanwhile (on a server) shows.
        case .control("r"): return .refresh
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

    func handle(_ key: Key, in field: Field, on screen: Screen) -> UserEvent? {
        switch field.input {
        case .text, .secret, .money, .day:
            if key == .enter {
                let value = editors[field.id]?.text ?? ""
                if focus - tabCount == screen.fields.count - 1, let primary = screen.primaryAction { submitAfterFill = primary.id }
                focus += 1
                return confirm(field.id, value)
            }
            if key == .up { return moveFocus(-1, on: screen) }
            if key == .down { return moveFocus(1, on: screen) }
            return edit(key, cell: field.id, of: field.input)

        case .table(let rows, _, _):
            guard !rows.isEmpty else { return moveFocus(key == .up ? -1 : 1, on: screen) }
            let current = min(highlights[field.id] ?? 0, rows.count - 1)
            let cell = ElementID.cell(rows[current].id, of: field.id)
            let changed = unconfirmed.contains(cell) || (editors[cell].map { $0.text != rows[current].value } ?? false)
            switch key {
            case .up, .down, .enter:
                let step = key == .up ? -1 : 1
                let value = editors[cell]?.text ?? rows[current].value
                if rows.indices.contains(current + step) {
                    highlights[field.id] = current + step
                    return changed || key == .enter ? confirm(cell, value) : nil
                }
                // Past the first or last row: on to the element before or after.
                if key == .enter, focus - tabCount == screen.fields.count - 1, let primary = screen.primaryAction { submitAfterFill = primary.id }
                let event = moveFocus(step, on: screen)
                return key == .enter ? confirm(cell, value) : event
            default:
                return edit(key, cell: cell, of: field.input)
            }

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
            case .character(let character) where !character.isWhitespace:
                // Typing starts the filter (j and k move, / starts it empty).
                filtering = field.id
                filters[field.id] = String(character)
                highlights[field.id] = 0
            default: break
            }
            return nil

        case .multiChoice(let options, _):
            let shown = visible(options, for: field.id)
            let current = highlights[field.id] ?? 0
            switch key {
            case .up, .character("k"): highlights[field.id] = max(0, current - 1)
            case .down, .character("j"): highlights[field.id] = min(max(0, shown.count - 1), current + 1)
            case .character(" "):
                guard shown.indices.contains(current) else { return nil }
                picks[field.id, default: []].formSymmetricDifference([shown[current].id])
            case .character("/"):
                filtering = field.id
                highlights[field.id] = 0
            case .enter:
                focus += 1
                filters[field.id] = nil
                let chosen = options.map(\.id).filter { picks[field.id, default: []].contains($0) }
                return .choose(field.id, chosen)
            case .character(let character) where !character.isWhitespace:
                filtering = field.id
                filters[field.id] = String(character)
                highlights[field.id] = 0
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

    /// An editing key in a typed field or a table's cell. A money field or a table keeps only
    /// text that an amount with its decimals could become, and says why a key was refused; a
    /// money field, a day or a cell reports the text as it changes (``UserEvent/edit(_:_:)``),
    /// and is confirmed (filled) when the focus leaves it.
    func edit(_ key: Key, cell: ElementID, of input: Input) -> UserEvent? {
        let before = editors[cell] ?? LineEditor()
        var editor = before
        _ = editor.handle(key)
        editors[cell] = editor
        guard editor.text != before.text else { return nil }
        switch input {
        case .money(_, let unit, let decimals), .table(_, let unit, let decimals):
            // (Text that was already wrong, after a change of currency, can still be edited.)
            if let refusal = Self.amountRefusal(editor.text, decimals: decimals, unit: unit),
               Self.amountRefusal(before.text, decimals: decimals, unit: unit) == nil {
                inputNotice = refusal
                editors[cell] = before
                return nil
            }
        case .day: break
        default: return nil
        }
        unconfirmed.insert(cell)
        return .edit(cell, editor.text)
    }

    /// The fill that confirms a typed value.
    func confirm(_ cell: ElementID, _ value: String) -> UserEvent {
        unconfirmed.remove(cell)
        return .fill(cell, value)
    }

    /// Why text typed for an amount with `decimals` decimals cannot become one, or nil when it
    /// can: digits, then at most one decimal point (or comma) and that many digits.
    static func amountRefusal(_ text: String, decimals: Int, unit: String) -> String? {
        let whole = decimals == 0 ? "whole numbers only" : "digits and one decimal point, \(decimals) decimal\(decimals == 1 ? "" : "s") at most"
        let refusal = "\(unit): \(whole)"
        var separators = 0
        var afterSeparator = 0
        for character in text {
            if character == "." || character == "," {
                separators += 1
                guard separators == 1, decimals > 0 else { return refusal }
            } else if character.unicodeScalars.count == 1, character.isASCII, character.isWholeNumber {
                if separators == 1 { afterSeparator += 1 }
                guard afterSeparator <= decimals else { return refusal }
            } else {
                return refusal
            }
        }
        return nil
    }

    /// Keys while a choice list is being filtered: typing narrows it, Enter picks the
    /// highlighted option, Esc leaves the filter.
    func filter(_ key: Key, in field: ElementID, options: [Choice]) -> UserEvent? {
        var text = filters[field] ?? ""
        let isMulti = if case .multiChoice? = screen?.field(field)?.input { true } else { false }
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
            if isMulti {
                // Picked (or unpicked) in place: type again for the next one, Enter when done.
                picks[field, default: []].formSymmetricDifference([pick.id])
                highlights[field] = options.firstIndex { $0.id == pick.id } ?? 0
                return nil
            }
            focus += 1
            return .choose(field, [pick.id])
        default: return nil
        }
        filters[field] = text
        highlights[field] = 0
        return nil
    }

    /// The options a choice shows under its filter (matching anywhere, without case).
    func visible(_ options: [Choice], for field: ElementID) -> [Choice] {
        guard let text = filters[field], !text.isEmpty else { return options }
        return options.filter { $0.matches(text) }
    }

    /// Starts or stops the spinner of a busy screen.
    func animate(busy: Bool) {
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

    func tick() {
        guard spinner != nil else { return }
        frame = (frame + 1) % Self.frames.count
        paint()
    }

    /// Moves the focus; leaving a text field whose text changed confirms it.
    func moveFocus(_ step: Int, on screen: Screen) -> UserEvent? {
        let count = screen.elementIDs.count
        guard count > 0 else { return nil }
        let leaving = focus - tabCount
        focus = (focus + step + count) % count
        if (0..<screen.fields.count).contains(leaving) {
            let field = screen.fields[leaving]
            switch field.input {
            case .text(let value), .money(let value, _, _), .day(let value, _):
                if let editor = editors[field.id], editor.text != value || unconfirmed.contains(field.id) { return confirm(field.id, editor.text) }
            case .secret:
                if let editor = editors[field.id], !editor.text.isEmpty { return .fill(field.id, editor.text) }
            case .table(let rows, _, _):
                guard let row = rows.indices.contains(highlights[field.id] ?? 0) ? rows[highlights[field.id] ?? 0] : nil else { break }
                let cell = ElementID.cell(row.id, of: field.id)
                if let editor = editors[cell], editor.text != row.value || unconfirmed.contains(cell) { return confirm(cell, editor.text) }
            default: break
            }
        }
        return nil
    }
}
