import FlowKit

/// What the user can do on the Expenses tab.
enum ExpensesAction: ViewAction {
    typealias ScreenView = ExpensesView

    case open(ElementID)
    case payment(ElementID)
    case tapped(ScreenView.Tap)
    case deleted(ElementID)
    /// Read again what the screen shows: it may have changed elsewhere.
    case refresh
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.expense, let ids): ids.first.map(Self.open)
        case .choose(ScreenView.payment, let ids): ids.first.map(Self.payment)
        case .choose(ScreenView.deleted, let ids): ids.first.map(Self.deleted)
        case .tap(.back), .back, .cancel: .back
        case .refresh: .refresh
        default: nil
        }
    }
}
