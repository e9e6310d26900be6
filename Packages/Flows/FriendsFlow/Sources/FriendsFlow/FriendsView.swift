import FlowKit

/// Draws the Friends tab. Its identifiers are the contract scripts use.
struct FriendsView: View {
    static let screenID: ScreenID = "friends"
    static let filter: ElementID = "filter"
    static let friend: ElementID = "friend"
    static let requests: ElementID = "friend-requests"
    enum Tap: String, ScreenTap { case more }

    func screen(for state: FriendsViewState) -> Screen {
        var text = state.totals
        var fields = [Field(id: Self.filter, label: "Filter", input: .text(state.filter), hint: "part of a name")]
        // The requests' action says how many wait, and a line on top says so too.
        var actions = state.actions.map { action in
            guard action.id == Self.requests, state.requestsWaiting > 0 else { return action }
            return Action(id: action.id, label: "\(action.label) (\(state.requestsWaiting))", role: action.role)
        }
        if state.requestsWaiting > 0 {
            text.insert(state.requestsWaiting == 1 ? "1 friend request waits for your answer." : "\(state.requestsWaiting) friend requests wait for your answer.", at: 0)
        }
        if state.rows.isEmpty {
            text.append(state.filter.isEmpty ? "No friends yet: add someone to share costs with." : "No friend matches \"\(state.filter)\".")
        } else {
            // The balances as each row's detail: a terminal lines them up in a column.
            let rows = state.rows.map { Choice(id: $0.id, label: "\($0.name)\($0.isContact ? " (contact)" : "")", detail: $0.balances) }
            // The list first: it is what the tab is for, and where the focus starts.
            fields.insert(Field(id: Self.friend, label: "Open", input: .choice(rows, selected: nil), hint: "a friend's balances and shared expenses"), at: 0)
            if state.rows.count < state.matching {
                text.append("Showing \(state.rows.count) of \(state.matching): type part of a name to find the others.")
                actions.append(Action(Tap.more, label: "Show more"))
            }
        }
        return Screen(
            id: Self.screenID,
            title: "Friends",
            text: text,
            fields: fields,
            actions: actions + [.back],
            status: state.phase.status(busy: "Loading") ?? state.notice.map(ScreenStatus.notice),
            tones: state.tones,
            browses: true
        )
    }
}
