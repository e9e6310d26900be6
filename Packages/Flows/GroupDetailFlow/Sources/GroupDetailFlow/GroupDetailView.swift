import FlowKit

/// Draws a group, or the choice of one. Its identifiers are the contract scripts use.
struct GroupDetailView: View {
    static let screenID: ScreenID = "group-detail"
    static let group: ElementID = "group"
    static let line: ElementID = "line"
    enum Tap: String, ScreenTap { case more, addExpense = "add-expense", settleUp = "settle-up", editGroup = "edit-group", totals }

    func screen(for state: GroupDetailViewState) -> Screen {
        guard let shown = state.shown else { return choosing(state) }
        var text = [shown.header, "Members:"] + shown.members + (shown.inAll.map { [$0] } ?? [])
        if let unread = shown.ledgerUnread {
            text.append(unread)
        } else {
            text += shown.suggestions.isEmpty ? ["Everyone is settled up here."] : ["To settle up:"] + shown.suggestions
        }
        var fields: [Field] = []
        // An archived group takes nothing new; one the user is settled in has nothing for them to pay.
        var actions = shown.archived ? [] : [Action(Tap.addExpense, label: "Add an expense", role: .primary)]
        if !shown.archived, shown.userHasBalance { actions.append(Action(Tap.settleUp, label: "Settle up")) }
        text += shown.totals
        if shown.ledgerUnread != nil {
            // Nothing of its ledger to list or to sum.
        } else if shown.lines.isEmpty {
            text.append("No expenses or payments in this group yet.")
        } else {
            fields.append(Field(
                id: Self.line, label: "Expenses and payments", input: .choice(shown.lines.map { Choice(id: $0.id, label: $0.label) }, selected: nil),
                hint: "newest first; open an expense"
            ))
            if shown.hasMore { actions.append(Action(Tap.more, label: "Show more")) }
            // What the expenses came to is read on request: it sums them all.
            if shown.totals.isEmpty { actions.append(Action(Tap.totals, label: "Totals")) }
        }
        return Screen(
            id: Self.screenID,
            title: shown.name,
            text: text,
            fields: fields,
            actions: actions + [Action(Tap.editGroup, label: shown.archived ? "Bring back" : "Edit the group"), .back],
            status: state.phase.status(busy: "Loading") ?? state.notice.map(ScreenStatus.notice),
            tones: state.tones,
            browses: true
        )
    }

    private func choosing(_ state: GroupDetailViewState) -> Screen {
        let options = state.pickable.map { Choice(id: $0.id, label: $0.label) }
        return Screen(
            // One screen, whichever it shows: the flow's view waits on this id.
            id: Self.screenID,
            title: "Choose a group",
            // A list that could not be read says why, not that there is none.
            text: options.isEmpty && state.phase == .idle ? ["You are in no group yet: make one on the Groups tab."] : [],
            fields: options.isEmpty ? [] : [Field(id: Self.group, label: "Group", input: .choice(options, selected: nil))],
            actions: [.back],
            status: state.phase.status(busy: "Loading"),
            browses: true
        )
    }
}
