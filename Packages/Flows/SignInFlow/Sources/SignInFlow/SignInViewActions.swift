import FlowKit

/// What the user can do on the sign-in screen.
enum SignInAction: Sendable, Equatable {
    case emailChanged(String)
    case passwordChanged(String)
    case submit
    /// Start the child flow behind this action.
    case open(ElementID)
    case cancel
}

/// Carries sign-in states to the screen and the user's events back as ``SignInAction``s.
struct SignInViewActions: ViewActions {
    let connection: ScreenConnection<SignInView>

    static func action(for event: UserEvent) -> SignInAction? {
        switch event {
        case .fill(SignInView.email, let value): .emailChanged(value)
        case .fill(SignInView.password, let value): .passwordChanged(value)
        case .tap(SignInView.submit): .submit
        case .tap(SignInView.cancel), .back, .cancel: .cancel
        case .tap(let child): .open(child)
        case .fill, .edit, .choose: nil
        }
    }
}
