import FlowKit

/// Draws the Friends tab. Its identifiers are the contract scripts use.
struct FriendsView: View {
    static let screenID: ScreenID = "friends"
    static let filter: ElementID = "filter"
    static let back: ElementID = "back"

    func screen(for state: FriendsViewState) -> Screen {
        var text = state.totals
        if state.rows.isEmpty {
            text.append(state.filter.isEmpty ? "No friends yet: add someone to share costs with." : "No friend matches \"\(state.filter)\".")
        } else {
            text += state.rows.map { "\($0.name)\($0.isContact ? " (contact)" : ""): \($0.balances)" }
        }
        return Screen(
            id: Self.screenID,
            title: "Friends",
            text: text,
            fields: [Field(id: Self.filter, label: "Filter", input: .text(state.filter), hint: "part of a name")],
            actions: state.actions + [Action(id: Self.back, label: "Back", role: .cancel)],
            status: state.phase.status(busy: "Loading") ?? state.notice.map(ScreenStatus.notice)
        )
    }
}
