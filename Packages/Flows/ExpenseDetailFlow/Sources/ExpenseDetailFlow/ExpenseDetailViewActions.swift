import FlowKit

/// What the user can do on an expense's details.
enum ExpenseDetailAction: Sendable, Equatable {
    case picked(ElementID)
    case edit
    case delete
    case confirmDelete
    case back
}

/// Carries the screen's states to it and the user's events back.
struct ExpenseDetailViewActions: ViewActions {
    let connection: ScreenConnection<ExpenseDetailView>

    static func action(for event: UserEvent) -> ExpenseDetailAction? {
        switch event {
        case .choose(ExpenseDetailView.expense, let ids): ids.first.map(ExpenseDetailAction.picked)
        case .tap(ExpenseDetailView.edit): .edit
        case .tap(ExpenseDetailView.delete): .delete
        case .tap(ExpenseDetailView.confirmDelete): .confirmDelete
        case .tap(ExpenseDetailView.back), .back, .cancel: .back
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
