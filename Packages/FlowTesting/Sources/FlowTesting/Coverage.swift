import FlowKit

/// Which screens, actions and messages of each flow a set of script runs reached, and which
/// they never did.
public struct Coverage: Sendable {
    /// One flow's figures.
    public struct Flow: Sendable {
        public var name: String
        public var reachedScreens: [ScreenID]
        public var missedScreens: [ScreenID]
        /// Actions as `screen/action`.
        public var reachedActions: [String]
        public var missedActions: [String]
        public var reachedMessages: [FlowInventory.Message]
        public var missedMessages: [FlowInventory.Message]
    }

    public var flows: [Flow]

    /// Coverage of `runs` against the inventories of the named flows.
    public init(inventories: [(name: String, inventory: FlowInventory)], runs: [ScriptRun]) {
        let screens = runs.flatMap(\.screens)
        let seenIDs = Set(screens.map(\.id))
        let tapped = Set(runs.flatMap(\.taps).map { "\($0.screen)/\($0.action)" })
        flows = inventories.map { name, inventory in
            let ownIDs = Set(inventory.screens.map(\.id))
            let shown = screens.filter { ownIDs.contains($0.id) }.flatMap { screen -> [String] in
                var messages = screen.fields.compactMap(\.error)
                if case .error(let message) = screen.status { messages.append(message) }
                return messages
            }
            let actions = inventory.screens.flatMap { entry in entry.actions.map { "\(entry.id)/\($0)" } }
            let messageReached = { (message: FlowInventory.Message) in shown.contains(where: message.matches) }
            return Flow(
                name: name,
                reachedScreens: inventory.screens.map(\.id).filter(seenIDs.contains),
                missedScreens: inventory.screens.map(\.id).filter { !seenIDs.contains($0) },
                reachedActions: actions.filter(tapped.contains),
                missedActions: actions.filter { !tapped.contains($0) },
                reachedMessages: inventory.messages.filter(messageReached),
                missedMessages: inventory.messages.filter { !messageReached($0) }
            )
        }
    }

    /// The report `flows test --coverage` prints.
    public var report: String {
        var lines = ["Coverage:"]
        for flow in flows {
            lines.append(flow.name)
            lines.append(Self.line("screens", flow.reachedScreens.map(\.rawValue), flow.missedScreens.map(\.rawValue)))
            lines.append(Self.line("actions", flow.reachedActions, flow.missedActions))
            lines.append(Self.line("messages", flow.reachedMessages.map(\.description), flow.missedMessages.map(\.description)))
        }
        return lines.joined(separator: "\n")
    }

    private static func line(_ kind: String, _ reached: [String], _ missed: [String]) -> String {
        let total = reached.count + missed.count
        var text = "  \(kind) \(reached.count)/\(total)"
        if !reached.isEmpty { text += "\n    reached: " + reached.joined(separator: ", ") }
        if !missed.isEmpty { text += "\n    never:   " + missed.joined(separator: ", ") }
        return text
    }
}
