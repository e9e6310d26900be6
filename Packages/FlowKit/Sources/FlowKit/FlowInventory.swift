/// Everything a flow can show: its screens with their actions, and the messages its screens can
/// display (inline field errors and screen errors). Coverage reports compare what scripts
/// reached with this.
public struct FlowInventory: Sendable, Equatable {
    /// One screen of the flow and the actions it offers.
    public struct ScreenEntry: Sendable, Equatable {
        public var id: ElementID
        public var actions: [ElementID]

        public init(_ id: ElementID, actions: [ElementID]) {
            self.id = id
            self.actions = actions
        }
    }

    /// A message a screen can show: exact, or any message that starts with a fixed part (for
    /// messages that carry a detail, like a store's failure).
    public enum Message: Sendable, Equatable, CustomStringConvertible {
        case exact(String)
        case startingWith(String)

        public func matches(_ shown: String) -> Bool {
            switch self {
            case .exact(let text): shown == text
            case .startingWith(let prefix): shown.hasPrefix(prefix)
            }
        }

        public var description: String {
            switch self {
            case .exact(let text): "\"\(text)\""
            case .startingWith(let prefix): "\"\(prefix)...\""
            }
        }
    }

    public var screens: [ScreenEntry]
    public var messages: [Message]

    public init(screens: [ScreenEntry], messages: [Message] = []) {
        self.screens = screens
        self.messages = messages
    }
}

/// A flow that lists what it can show, for coverage.
public protocol InventoriedFlow: Flow {
    static var inventory: FlowInventory { get }
}
