import FlowKit

/// What the user can do on the welcome screen.
enum UnauthenticatedAction: Sendable, Equatable {
    /// Start the child flow behind this action.
    case open(ElementID)
    case quit
    case cancel
}

/// Carries the welcome state to the screen and the user's events back.
struct UnauthenticatedViewActions: ViewActions {
    let connection: ScreenConnection<UnauthenticatedView>

    static func action(for event: UserEvent) -> UnauthenticatedAction? {
        switch event {
        case .tap(UnauthenticatedView.quit): .quit
        case .tap(let child): .open(child)
        case .back, .cancel: .cancel
        case .fill, .edit, .choose: nil
        }
    }
}
