import FlowKit

/// Draws the friend requests screen. Its identifiers are the contract scripts use.
struct FriendRequestsView: View {
    static let screenID: ScreenID = "friend-requests"
    static let incoming: ElementID = "incoming"
    static let outgoing: ElementID = "outgoing"
    static let blocked: ElementID = "blocked"
    enum Tap: String, ScreenTap { case accept, decline, block, takeBack = "take-back", unblock }

    func screen(for state: FriendRequestsViewState) -> Screen {
        var fields: [Field] = []
        var actions: [Action] = []
        func list(_ id: ElementID, _ label: String, _ entries: [FriendRequestsViewState.Entry], hint: String) {
            guard !entries.isEmpty else { return }
            let choices = entries.map { Choice(id: $0.id, label: $0.label) }
            fields.append(Field(id: id, label: label, input: .choice(choices, selected: state.selected[id.rawValue]), hint: hint))
        }
        list(Self.incoming, "Asking you", state.incoming, hint: "newest first")
        if !state.incoming.isEmpty {
            actions += [
                Action(Tap.accept, label: "Accept", role: .primary),
                Action(Tap.decline, label: "Decline", role: .secondary),
                Action(Tap.block, label: "Block", role: .secondary),
            ]
        }
        list(Self.outgoing, "Sent by you", state.outgoing, hint: "waiting for their answer")
        if !state.outgoing.isEmpty { actions.append(Action(Tap.takeBack, label: "Take back", role: .secondary)) }
        list(Self.blocked, "Blocked", state.blocked, hint: "their requests do not reach you")
        if !state.blocked.isEmpty { actions.append(Action(Tap.unblock, label: "Unblock", role: .secondary)) }
        let empty = state.loaded && state.incoming.isEmpty && state.outgoing.isEmpty && state.blocked.isEmpty
        return Screen(
            id: Self.screenID,
            title: "Friend requests",
            text: empty ? ["No friend requests: nobody is asking you, and you are asking nobody."] : [],
            fields: fields,
            actions: actions + [.back],
            status: state.phase.status(busy: "Answering") ?? state.notice.map(ScreenStatus.notice),
            browses: true
        )
    }
}
