import FlowKit

/// A page's form as the browser posted it (`application/x-www-form-urlencoded`), and the
/// ``UserEvent``s it stands for on the screen the page showed.
struct WebForm: Equatable {
    /// The posted names and values, in order.
    let pairs: [(name: String, value: String)]

    /// The most pairs a form is read with: a screen has far fewer fields.
    static let maximumPairs = 2_000

    static func == (left: WebForm, right: WebForm) -> Bool {
        left.pairs.map(\.name) == right.pairs.map(\.name) && left.pairs.map(\.value) == right.pairs.map(\.value)
    }

    /// Reads a urlencoded body; nil for one that is not (bad percent escapes, not UTF-8, too many pairs).
    init?(urlencoded body: [UInt8]) {
        var pairs: [(String, String)] = []
        for part in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard pairs.count < Self.maximumPairs else { return nil }
            let halves = part.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decoded(halves[0]), let value = Self.decoded(halves.count > 1 ? halves[1] : []) else { return nil }
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    init(pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    /// The first value posted under `name`.
    func value(_ name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// Every value posted under `name`, in order.
    func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    private static func decoded(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard bytes.distance(from: index, to: bytes.endIndex) >= 3,
                      let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) else { return nil }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// What the user did on `screen` by this post, in the order a person would have on the
    /// terminal: every typed field that changed, every choice that changed, then the button.
    func events(on screen: Screen) -> [UserEvent] {
        var events: [UserEvent] = []
        let present = Set(values(WebPage.Name.present))
        // Fields the user confirmed as they are (left them, or pressed Enter in them): sent even
        // unchanged, as on the terminal, so that their rules are checked.
        let confirmed = Set(values(WebPage.Name.confirmed))
        // A live post (the page's script, as an amount is typed) sends what is typed as it stands,
        // for the screen to show what it comes to: edits, never a button.
        let live = value(WebPage.Name.live) == "1"
        let typed: (ElementID, String) -> UserEvent = live ? { .edit($0, $1) } : { .fill($0, $1) }
        for field in screen.fields {
            let name = WebPage.Name.field(field.id)
            switch field.input {
            case .money(let current, _, _), .day(let current, _):
                if let posted = value(name), posted != current || confirmed.contains(name) { events.append(typed(field.id, posted)) }
            case .text(let current):
                if let posted = value(name), posted != current || confirmed.contains(name) { events.append(typed(field.id, posted)) }
            case .secret:
                if let posted = value(name), !posted.isEmpty || confirmed.contains(name) { events.append(.fill(field.id, posted)) }
            case .table(let rows, _, _):
                for row in rows {
                    let cell = ElementID.cell(row.id, of: field.id)
                    if let posted = value(WebPage.Name.field(cell)), posted != row.value { events.append(typed(cell, posted)) }
                }
            case .multiChoice(let options, let selected):
                let name = WebPage.Name.multi(field.id)
                guard present.contains(name) else { continue }
                let ticked = Set(values(name))
                let chosen = options.map(\.id).filter { ticked.contains($0.rawValue) }
                if chosen != selected { events.append(.choose(field.id, chosen)) }
            case .choice(let options, let selected):
                guard let posted = value(WebPage.Name.select(field.id)), !posted.isEmpty, posted != selected?.rawValue,
                      options.contains(where: { $0.id.rawValue == posted }) else { continue }
                events.append(.choose(field.id, [ElementID(posted)]))
            case .confirm:
                continue
            }
        }
        if live {
            return events.filter { if case .edit = $0 { true } else { false } }
        }
        if let pressed = pairs.first(where: { $0.name.hasPrefix("choose:") }) {
            events.append(.choose(ElementID(String(pressed.name.dropFirst("choose:".count))), [ElementID(pressed.value)]))
        } else if let action = value(WebPage.Name.action), !action.isEmpty {
            // `:back` and `:cancel` are the browser's Esc (a script may send them), `:refresh`
            // the page's script hearing of a change; any other value is an action or a tab.
            switch action {
            case ":back": events.append(.back)
            case ":cancel": events.append(.cancel)
            case WebPage.Name.refresh: events.append(.refresh)
            default: events.append(.tap(ElementID(action)))
            }
        }
        return events
    }

    /// Whether `event` names something `screen` has: a page's post is never turned into an
    /// event the screen would not offer.
    static func applies(_ event: UserEvent, to screen: Screen) -> Bool {
        switch event {
        case .fill(let id, _), .edit(let id, _):
            if let field = screen.field(id) { return field.input.isTyped }
            return screen.cell(id) != nil
        case .choose(let id, let options):
            guard let field = screen.field(id) else { return false }
            if case .confirm = field.input { return options.count == 1 && (options[0] == .yes || options[0] == .no) }
            let offered = Set(field.input.options.map(\.id))
            return options.allSatisfy(offered.contains)
        case .tap(let id):
            return screen.action(id) != nil || screen.tabs.contains { $0.id == id }
        case .back, .cancel, .refresh:
            return true
        }
    }
}
