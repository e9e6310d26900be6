import FlowKit

/// Draws the Sync screen. Its identifiers are the contract scripts use.
struct SyncView: View {
    static let screenID: ScreenID = "sync"
    static let change: ElementID = "change"
    static let drop: ElementID = "drop"
    static let keepTheirs: ElementID = "keep-theirs"
    enum Tap: String, ScreenTap { case syncNow = "sync-now", applyMine = "apply-mine" }

    func screen(for state: SyncViewState) -> Screen {
        let changes = state.changes.map { Choice(id: $0.id, label: $0.label) }
        let chosen = state.changes.first { $0.id == state.selected }
        var actions: [Action] = []
        switch chosen?.state {
        case .conflict:
            actions += [Action(id: Self.keepTheirs, label: "Keep theirs"), Action(Tap.applyMine, label: "Make mine again on top")]
        case .refused:
            actions.append(Action(id: Self.drop, label: "Drop it"))
        case .waiting, nil:
            break
        }
        if state.hasReplica { actions.append(Action(Tap.syncNow, label: "Sync now", role: chosen == nil ? .primary : .secondary)) }
        return Screen(
            id: Self.screenID,
            title: "Sync",
            text: state.lines,
            fields: changes.isEmpty ? [] : [
                Field(id: Self.change, label: "Changes not on the server", input: .choice(changes, selected: state.selected), hint: "oldest first")
            ],
            actions: actions + [.back],
            status: state.phase.status(busy: "Syncing") ?? state.notice.map(ScreenStatus.notice),
            footer: chosen?.detail ?? [],
            browses: true
        )
    }
}
