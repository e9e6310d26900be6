import FlowKit

/// Draws the Groups tab. Its identifiers are the contract scripts use.
struct GroupsView: View {
    static let screenID: ScreenID = "groups"
    static let group: ElementID = "group"
    static let archived: ElementID = "archived"

    func screen(for state: GroupsViewState) -> Screen {
        var text = state.archived ? ["Archived groups: settled, kept with their expenses."] : state.totals
        var fields: [Field] = []
        if state.rows.isEmpty {
            text.append(state.archived ? "No archived groups." : "No groups yet: make one for a trip, a home or a team.")
        } else {
            // Where the user stands as each row's detail: a terminal lines them up in a column.
            let rows = state.rows.map { Choice(id: $0.id, label: "\($0.name) (\($0.kind))", detail: $0.standing) }
            fields.append(Field(id: Self.group, label: "Open", input: .choice(rows, selected: nil), hint: "a group's members, balances and expenses"))
        }
        let switchList = Action(id: Self.archived, label: state.archived ? "Open groups" : "Archived groups")
        return Screen(
            id: Self.screenID,
            title: state.archived ? "Archived groups" : "Groups",
            text: text,
            fields: fields,
            actions: (state.archived ? [] : state.actions) + [switchList, .back],
            status: state.phase.status(busy: "Loading") ?? state.notice.map(ScreenStatus.notice),
            tones: state.tones,
            browses: true
        )
    }
}
