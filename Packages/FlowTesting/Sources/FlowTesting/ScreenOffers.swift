import FlowKit

/// Checks a step against the screen it is meant for, and says what the screen offers.
package enum ScreenOffers {
    /// Why `event` does not fit `screen`, or nil when it does.
    package static func mismatch(of event: UserEvent, on screen: Screen) -> String? {
        switch event {
        case .fill(let id, _), .edit(let id, _):
            if screen.cell(id) != nil { return nil }
            guard let field = screen.field(id) else { return "the screen \(screen.id) has no field \(id)" }
            if case .table(let rows, _, _) = field.input {
                return "\(id) is a table: fill one of its cells, \(rows.map { ElementID.cell($0.id, of: id).rawValue }.joined(separator: ", "))"
            }
            return field.input.isTyped ? nil : "\(id) is a \(field.input.kindName) field: use choose"
        case .choose(let id, let options):
            guard let field = screen.field(id) else { return "the screen \(screen.id) has no field \(id)" }
            let known: [ElementID]
            switch field.input {
            case .text, .secret, .money, .day, .table: return "\(id) is a \(field.input.kindName) field: use fill"
            case .confirm: known = [.yes, .no]
            case .choice, .multiChoice: known = field.input.options.map(\.id)
            }
            if case .choice = field.input, options.count != 1 { return "\(id) takes exactly one option" }
            if case .confirm = field.input, options.count != 1 { return "\(id) takes yes or no" }
            if let unknown = options.first(where: { !known.contains($0) }) {
                return "\(id) has no option \(unknown)"
            }
            return nil
        case .tap(let id):
            let isTab = screen.tabs.contains { $0.id == id }
            return screen.action(id) == nil && !isTab ? "the screen \(screen.id) has no action \(id)" : nil
        case .back, .cancel, .refresh:
            return nil
        }
    }

    /// Whether a step fills a secret field of the screen.
    package static func isSecret(_ verb: Script.Verb, on screen: Screen) -> Bool {
        guard case .fill(let id, _) = verb, let field = screen.field(id), case .secret = field.input else { return false }
        return true
    }

    /// What a screen offers, as a failure message lists it.
    package static func description(of screen: Screen) -> String {
        let fields = screen.fields.map { field -> String in
            switch field.input {
            case .choice(let options, _), .multiChoice(let options, _):
                "\(field.id) (\(field.input.kindName): \(options.map(\.id.rawValue).joined(separator: ", ")))"
            case .confirm:
                "\(field.id) (confirm: yes, no)"
            case .table(let rows, _, _):
                "\(field.id) (table: \(rows.map { ElementID.cell($0.id, of: field.id).rawValue }.joined(separator: ", ")))"
            default:
                "\(field.id) (\(field.input.kindName))"
            }
        }
        var parts: [String] = []
        if !fields.isEmpty { parts.append("fields " + fields.joined(separator: ", ")) }
        if !screen.tabs.isEmpty { parts.append("tabs " + screen.tabs.map(\.id.rawValue).joined(separator: ", ")) }
        if !screen.actions.isEmpty { parts.append("actions " + screen.actions.map(\.id.rawValue).joined(separator: ", ")) }
        parts.append("back, cancel")
        return "the screen \(screen.id) offers: " + parts.joined(separator: "; ")
    }
}
