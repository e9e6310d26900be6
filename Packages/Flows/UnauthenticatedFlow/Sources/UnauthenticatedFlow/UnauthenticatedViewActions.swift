import FlowKit

/// What the user can do on the welcome screen.
enum UnauthenticatedAction: ViewAction {
    typealias ScreenView = UnauthenticatedView

    /// Start the child flow behind this action.
    case open(ElementID)
    case tapped(ScreenView.Tap)
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .tap(let child): .open(child)
        case .back, .cancel: .cancel
        default: nil
        }
    }
}
