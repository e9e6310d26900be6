/// Everything a flow can show: its screens with their actions, and the messages its screens can
/// display (inline field errors and screen errors). Coverage reports compare what scripts
/// reached with this.
///
/// An inventory is drawn, not written: ``init(drawing:for:)`` asks a View for the screen of
/// each example state its ViewModel can produce and collects what those screens offer, so the
/// inventory cannot disagree with `screen(for:)`.
public struct FlowInventory: Sendable, Equatable {
    /// One screen of the flow, the actions it offers and the fields it asks for.
    public struct ScreenEntry: Sendable, Equatable {
        public var id: ScreenID
        public var actions: [ElementID]
        public var fields: [ElementID]
        /// The fields among `fields` that are tables: only their cells (`parts.bob-stone`) are
        /// answered one by one.
        public var tables: [ElementID]
        /// The plain taps the View declares (its ``View/Tap``): each should be among `actions`,
        /// drawn by some example state, or it is a tap no screen offers.
        public var taps: [ElementID]

        public init(_ id: ScreenID, actions: [ElementID], fields: [ElementID] = [], tables: [ElementID] = [], taps: [ElementID] = []) {
            self.id = id
            self.actions = actions
            self.fields = fields
            self.tables = tables
            self.taps = taps
        }
    }

    /// A message a screen can show: exact, or, for a message that carries details (a store's
    /// failure, a name), any made of the same fixed parts in order with details between them.
    public enum Message: Sendable, Equatable, CustomStringConvertible {
        case exact(String)
        /// The fixed parts, in order, with a detail between each two: the first starts the
        /// message and the last ends it (either may be empty: `["Disk full: ", ""]`).
        case pattern([String])

        public func matches(_ shown: String) -> Bool {
            switch self {
            case .exact(let text): return shown == text
            case .pattern(let parts):
                guard let first = parts.first, let last = parts.last, shown.hasPrefix(first) else { return false }
                var rest = shown.dropFirst(first.count)
                for part in parts.dropFirst().dropLast() {
                    guard let found = rest.firstRange(of: part) else { return false }
                    rest = rest[found.upperBound...]
                }
                return parts.count > 1 && rest.hasSuffix(last)
            }
        }

        public var description: String {
            switch self {
            case .exact(let text): "\"\(text)\""
            case .pattern(let parts): "\"" + parts.joined(separator: "...") + "\""
            }
        }
    }

    public var screens: [ScreenEntry]
    public var messages: [Message]

    public init(screens: [ScreenEntry], messages: [Message] = []) {
        self.screens = screens
        self.messages = messages
    }

    /// Stands for the part of a message that varies (`.storeUnavailable(FlowInventory.anyDetail)`);
    /// a message drawn with it matches any message with the same fixed parts around it. It is
    /// written with private-use characters, which no message has and which the domain's rules
    /// for a name or a description take, so that an example can build a name that stands for
    /// any (`DisplayName(FlowInventory.anyDetail)`).
    public static let anyDetail = "\u{E000}detail\u{E000}"

    /// What `view` draws for `states`: its screen, every action offered in any of them, and every
    /// message shown (field errors and the screen's error), each once, in the order drawn.
    public init<V: View>(drawing view: V = V(), for states: [V.ViewState]) {
        var actions: [ElementID] = []
        var fields: [ElementID] = []
        var tables: [ElementID] = []
        var messages: [Message] = []
        for state in states {
            let screen = view.screen(for: state)
            for action in screen.actions.map(\.id) where !actions.contains(action) {
                actions.append(action)
            }
            for field in screen.fields where !fields.contains(field.id) {
                fields.append(field.id)
            }
            for field in screen.fields where !tables.contains(field.id) {
                if case .table = field.input { tables.append(field.id) }
            }
            var shown = screen.fields.compactMap(\.error)
            if case .error(let message) = screen.status { shown.append(message) }
            for text in shown {
                let message = Self.message(text)
                if !messages.contains(message) { messages.append(message) }
            }
        }
        let taps = V.Tap.allCases.map(\.id)
        self.init(screens: [ScreenEntry(V.screenID, actions: actions, fields: fields, tables: tables, taps: taps)], messages: messages)
    }

    private static func message(_ text: String) -> Message {
        let parts = text.split(separator: anyDetail, omittingEmptySubsequences: false).map(String.init)
        return parts.count == 1 ? .exact(text) : .pattern(parts)
    }

    /// The screens and messages of both, as a flow with several screens lists them.
    public static func + (lhs: FlowInventory, rhs: FlowInventory) -> FlowInventory {
        FlowInventory(
            screens: lhs.screens + rhs.screens.filter { entry in !lhs.screens.contains { $0.id == entry.id } },
            messages: lhs.messages + rhs.messages.filter { !lhs.messages.contains($0) }
        )
    }
}

/// A flow that lists what it can show, for coverage.
public protocol InventoriedFlow: Flow {
    static var inventory: FlowInventory { get }
}
