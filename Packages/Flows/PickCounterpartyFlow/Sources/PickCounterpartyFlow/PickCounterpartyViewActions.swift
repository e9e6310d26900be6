import FlowKit

/// What the user can do while choosing whom an expense is with.
enum PickCounterpartyAction: ViewAction {
    typealias ScreenView = PickCounterpartyView

    case picked([ElementID])
    case done
    case newContact
    case nameChanged(String)
    case emailChanged(String)
    case add
    case back
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.with, let ids): .picked(ids)
        case .tap(ScreenView.done): .done
        case .tap(ScreenView.newContact): .newContact
        case .fill(ScreenView.name, let value): .nameChanged(value)
        case .fill(ScreenView.email, let value): .emailChanged(value)
        case .tap(ScreenView.add): .add
        case .tap(.back), .back: .back
        case .tap(.cancel), .cancel: .cancel
        default: nil
        }
    }
}
