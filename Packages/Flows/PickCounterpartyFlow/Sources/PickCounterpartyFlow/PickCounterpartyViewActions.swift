import FlowKit

/// What the user can do while choosing whom an expense is with.
enum PickCounterpartyAction: ViewAction {
    typealias ScreenView = PickCounterpartyView

    case picked([ElementID])
    case tapped(ScreenView.Tap)
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.with, let ids): .picked(ids)
        case .tap(.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}
