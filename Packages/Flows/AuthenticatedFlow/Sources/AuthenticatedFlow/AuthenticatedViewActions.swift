import FlowKit

/// What the user can do on the home screen.
enum AuthenticatedAction: ViewAction {
    typealias ScreenView = AuthenticatedView

    case addExpense
    /// Open Sync: what is not on the server yet.
    case sync
    case signOut
    case quit
    /// Open the tab (the child flow) with this identifier.
    case open(ElementID)
    /// Read again what the home says of the replica (a sync changed it).
    case refresh
    /// Back, where there is nothing to go back to: the home stays (leaving is Quit's).
    case back
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .tap(ScreenView.addExpense): .addExpense
        case .tap(ScreenView.sync): .sync
        case .tap(ScreenView.signOut): .signOut
        case .tap(ScreenView.quit): .quit
        case .tap(let tab): .open(tab)
        case .refresh: .refresh
        case .back: .back
        case .cancel: .cancel
        default: nil
        }
    }
}
