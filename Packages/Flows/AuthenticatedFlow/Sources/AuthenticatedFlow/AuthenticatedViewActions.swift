import FlowKit

/// What the user can do on the home screen.
enum AuthenticatedAction: Sendable, Equatable {
    case addExpense
    case signOut
    case quit
    /// Open the tab (the child flow) with this identifier.
    case open(ElementID)
    case cancel
}

/// Carries home states to the screen and the user's events back.
struct AuthenticatedViewActions: ViewActions {
    let connection: ScreenConnection<AuthenticatedView>

    static func action(for event: UserEvent) -> AuthenticatedAction? {
        switch event {
        case .tap(AuthenticatedView.addExpense): .addExpense
        case .tap(AuthenticatedView.signOut): .signOut
        case .tap(AuthenticatedView.quit): .quit
        case .tap(let tab): .open(tab)
        case .back, .cancel: .cancel
        case .fill, .edit, .choose: nil
        }
    }
}
