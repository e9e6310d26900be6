import FlowKit

/// A screen as plain text, every element with its identifier: what transcripts record.
///
/// It follows the plain renderer's conventions (`== heading ==`, `Error: ...`) and adds what a
/// script needs: each field's identifier, kind and value, and each action's identifier.
public enum ScreenSnapshot {
    public static func text(of screen: Screen) -> String {
        var lines = ["== \(screen.heading) == [\(screen.id)]"]
        if !screen.tabs.isEmpty {
            lines.append("  Tabs: " + screen.tabs.map { "\($0.label) (\($0.id)\($0.isSelected ? ", selected" : ""))" }.joined(separator: " | "))
        }
        lines += screen.text
        for figure in screen.figures {
            switch figure {
            case .qrCode(let text): lines.append("  QR code of \(text)")
            case .initials(let initials, let colour): lines.append("  Avatar: \(initials) on \(colour)")
            case .picture(let picture):
                lines.append("  Picture: \(picture.width) x \(picture.height) \(picture.format.rawValue.uppercased()), \(picture.bytes.count) bytes; else \(picture.initials) on \(picture.colour)")
            }
        }
        for field in screen.fields {
            var label = "\(field.label) (\(field.id), \(field.input.kindName)"
            if case .table(_, let unit, _) = field.input { label += " in \(unit)" }
            if let hint = field.hint { label += "; \(hint)" }
            if case .table(let rows, _, _) = field.input {
                lines.append("  \(label)):")
                for row in rows {
                    let value = row.value.isEmpty ? "(empty)" : shown(row.value)
                    lines.append("    \(row.label) (\(ElementID.cell(row.id, of: field.id))): \(value)" + (row.note.map { " \($0)" } ?? ""))
                }
            } else {
                lines.append("  \(label)): \(value(of: field.input))")
            }
            if let error = field.error { lines.append("    Error: \(error)") }
        }
        lines += screen.footer
        if !screen.actions.isEmpty {
            let actions = screen.actions.map { action in
                action.role == .secondary ? "\(action.label) (\(action.id))" : "\(action.label) (\(action.id), \(action.role.rawValue))"
            }
            lines.append("  Actions: " + actions.joined(separator: " | "))
        }
        switch screen.status {
        case .busy(let label): lines.append("\(label)...")
        case .error(let message): lines.append("Error: \(message)")
        case .notice(let message): lines.append(message)
        case nil: break
        }
        return lines.map(visible).joined(separator: "\n")
    }

    private static func value(of input: Input) -> String {
        switch input {
        case .text(let value):
            value.isEmpty ? "(empty)" : shown(value)
        case .secret(let isSet):
            isSet ? "********" : "(empty)"
        case .choice([], _), .multiChoice([], _):
            "(nothing to choose from)"
        case .choice(let options, let selected) where options.count > longList:
            // A long list (currencies) is summed up: what is picked, and how many others there are.
            (options.first { $0.id == selected }.map { "[x] \(described($0))" } ?? "(none picked)")
                + " and \(options.count - (selected == nil ? 0 : 1)) other options"
        case .choice(let options, let selected):
            options.map { "[\($0.id == selected ? "x" : " ")] \(described($0))" }.joined(separator: " | ")
        case .multiChoice(let options, let selected):
            options.map { "[\(selected.contains($0.id) ? "x" : " ")] \(described($0))" }.joined(separator: " | ")
        case .confirm(let value):
            value.map { $0 ? "yes" : "no" } ?? "(unanswered)"
        case .money(let value, let currency, _):
            value.isEmpty ? "(empty) \(currency)" : "\(shown(value)) \(currency)"
        case .day(let value, let resolved):
            (value.isEmpty ? "(empty)" : shown(value)) + (resolved.map { " → \($0)" } ?? "")
        case .table:
            ""
        }
    }

    /// The most options a single choice lists in full.
    static let longList = Choice.longList

    private static func described(_ option: Choice) -> String {
        "\(option.label)" + (option.detail.map { ", \($0)" } ?? "") + " (\(option.id))"
    }

    /// A value as a script would write it, shortened when very long.
    static func shown(_ value: String) -> String {
        let limit = 120
        let text = ScriptText.valueText(value)
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "... (\(value.count) characters)"
    }

    /// No control character reaches a transcript: they show as escapes.
    private static func visible(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else { return line }
        let quoted = ScriptText.quoted(line)
        return String(quoted.dropFirst().dropLast())
    }
}
