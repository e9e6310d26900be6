import FlowKit

/// What the user can do on the sign-up screen.
enum SignUpAction: Sendable, Equatable {
    case emailChanged(String)
    case passwordChanged(String)
    case displayNameChanged(String)
    case submit
    case cancel
}

/// Carries sign-up states to the screen and the user's events back as ``SignUpAction``s.
struct SignUpViewActions: ViewActions {
    let connection: ScreenConnection<SignUpView>

    static func action(for event: UserEvent) -> SignUpAction? {
        switch event {
        case .fill(SignUpView.email, let value): .emailChanged(value)
        case .fill(SignUpView.password, let value): .passwordChanged(value)
        case .fill(SignUpView.displayName, let value): .displayNameChanged(value)
        case .tap(SignUpView.submit): .submit
        case .tap(SignUpView.cancel), .back, .cancel: .cancel
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
