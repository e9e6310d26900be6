import FlowKit

/// Draws the Expenses tab: balances, the payments that would settle them, and the activity,
/// a page at a time. Its identifiers are the contract scripts use.
struct ExpensesView: View {
    static let screenID: ScreenID = "expenses"
    static let expense: ElementID = "expense"
    static let payment: ElementID = "payment"
    static let deleted: ElementID = "deleted"
    enum Tap: String, ScreenTap {
        case takeBack = "take-back", restore, reports, keep, older, newer, addExpense = "add-expense", settleUp = "settle-up"
    }

    func screen(for state: ExpensesViewState) -> Screen {
        switch state.question {
        case .takeBack(let question):
            return Screen(
                id: Self.screenID, title: "Expenses", text: [question, "Balances go back to what they were without it; the activity keeps both."],
                actions: [
                    Action(Tap.takeBack, label: "Take it back", role: .primary),
                    Action(Tap.keep, label: "Keep it", role: .cancel),
                ],
                status: state.phase.status(busy: "Taking it back")
            )
        case .restore(let question):
            return Screen(
                id: Self.screenID, title: "Expenses", text: [question, "It comes back as it was when deleted, and balances with it."],
                actions: [
                    Action(Tap.restore, label: "Restore it", role: .primary),
                    Action(Tap.keep, label: "Leave it deleted", role: .cancel),
                ],
                status: state.phase.status(busy: "Restoring")
            )
        case nil: break
        }
        var text: [String] = []
        if state.isLoaded {
            text = ["Balances:"] + (state.balances.isEmpty ? ["You are settled up with everyone."] : state.balances)
            if !state.suggestions.isEmpty { text += ["Payments that would settle you up:"] + state.suggestions }
            if !state.comingUp.isEmpty { text += ["Coming up (repeating expenses):"] + state.comingUp }
            if state.activity.isEmpty {
                text.append(state.page == 0 ? "No activity yet: add an expense." : "No older activity.")
            } else {
                text.append("Activity, newest first (\(state.page * state.pageSize + 1) to \(state.page * state.pageSize + state.activity.count)):")
                text += state.activity
            }
        }
        var actions = [Action(Tap.addExpense, label: "Add an expense", role: .primary)]
        if !state.balances.isEmpty { actions.append(Action(Tap.settleUp, label: "Settle up")) }
        actions.append(Action(Tap.reports, label: "Reports"))
        if state.hasOlder { actions.append(Action(Tap.older, label: "Older")) }
        if state.page > 0 { actions.append(Action(Tap.newer, label: "Newer")) }
        actions.append(.back)
        var fields = state.recent.isEmpty ? [] : [
            Field(id: Self.expense, label: "Open", input: .choice(state.recent, selected: nil), hint: "one of your newest expenses: its parts, edit, delete"),
        ]
        if !state.payments.isEmpty {
            fields.append(Field(id: Self.payment, label: "Take back", input: .choice(state.payments, selected: nil), hint: "one of your newest payments, recorded by mistake"))
        }
        if !state.deleted.isEmpty {
            fields.append(Field(id: Self.deleted, label: "Restore", input: .choice(state.deleted, selected: nil), hint: "one of your most recently deleted expenses"))
        }
        return Screen(
            id: Self.screenID,
            title: "Expenses",
            text: text,
            fields: fields,
            actions: actions,
            status: state.phase.status(busy: "Loading") ?? state.notice.map(ScreenStatus.notice),
            tones: state.tones,
            browses: true
        )
    }
}
