import FlowKit

/// What the user can do on the home screen.
enum AuthenticatedAction: ViewAction {
    typealias ScreenView = AuthenticatedView

    case tapped(ScreenView.Tap)
    /// Open the tab (the child flow) with this identifier.
    case open(ElementID)
    /// Read again what the home says of the replica (a sync changed it).
    case refresh
    /// Back, where there is nothing to go back to: the home stays (leaving is Quit's).
    case back
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .tap(let tab): .open(tab)
        case .refresh: .refresh
        case .back: .back
        case .cancel: .cancel
        default: nil
        }
    }
}
