import FlowKit

/// What the user can do on the Expenses tab.
enum ExpensesAction: ViewAction {
    typealias ScreenView = ExpensesView

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
    /// Read again what the screen shows: it may have changed elsewhere.
    case refresh
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.expense, let ids): ids.first.map(Self.open)
        case .choose(ScreenView.payment, let ids): ids.first.map(Self.payment)
        case .tap(ScreenView.takeBack): .takeBack
        case .choose(ScreenView.deleted, let ids): ids.first.map(Self.deleted)
        case .tap(ScreenView.restore): .restore
        case .tap(ScreenView.reports): .reports
        case .tap(ScreenView.keep): .keep
        case .tap(ScreenView.older): .older
        case .tap(ScreenView.newer): .newer
        case .tap(ScreenView.addExpense): .addExpense
        case .tap(ScreenView.settleUp): .settleUp
        case .tap(.back), .back, .cancel: .back
        case .refresh: .refresh
        default: nil
        }
    }
}
