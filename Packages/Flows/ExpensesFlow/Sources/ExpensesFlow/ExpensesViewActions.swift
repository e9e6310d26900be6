import FlowKit

/// What the user can do on the Expenses tab.
enum ExpensesAction: Sendable, Equatable {
    case open(ElementID)
    case payment(ElementID)
    case takeBack
    case deleted(ElementID)
    case restore
    case reports
    case keep
    case older
    case newer
    case addExpense
    case settleUp
    case back
}

/// Carries the tab's states to its screen and the user's events back.
struct ExpensesViewActions: ViewActions {
    let connection: ScreenConnection<ExpensesView>

    static func action(for event: UserEvent) -> ExpensesAction? {
        switch event {
        case .choose(ExpensesView.expense, let ids): ids.first.map(ExpensesAction.open)
        case .choose(ExpensesView.payment, let ids): ids.first.map(ExpensesAction.payment)
        case .tap(ExpensesView.takeBack): .takeBack
        case .choose(ExpensesView.deleted, let ids): ids.first.map(ExpensesAction.deleted)
        case .tap(ExpensesView.restore): .restore
        case .tap(ExpensesView.reports): .reports
        case .tap(ExpensesView.keep): .keep
        case .tap(ExpensesView.older): .older
        case .tap(ExpensesView.newer): .newer
        case .tap(ExpensesView.addExpense): .addExpense
        case .tap(ExpensesView.settleUp): .settleUp
        case .tap(ExpensesView.back), .back, .cancel: .back
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
