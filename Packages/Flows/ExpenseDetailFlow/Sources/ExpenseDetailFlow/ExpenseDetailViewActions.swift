import FlowKit

/// What the user can do on an expense's details.
enum ExpenseDetailAction: ViewAction {
    typealias ScreenView = ExpenseDetailView

    case picked(ElementID)
    case edit
    case delete
    case confirmDelete
    case history
    case versionChosen(ElementID)
    case restoreVersion
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.expense, let ids): ids.first.map(Self.picked)
        case .tap(ScreenView.edit): .edit
        case .tap(ScreenView.delete): .delete
        case .tap(ScreenView.confirmDelete): .confirmDelete
        case .tap(ScreenView.history): .history
        case .choose(ScreenView.version, let ids): ids.first.map(Self.versionChosen)
        case .tap(ScreenView.restoreVersion): .restoreVersion
        case .tap(.back), .back, .cancel: .back
        default: nil
        }
    }
}
