import FlowKit

/// What the user can do on the sign-up screen.
enum SignUpAction: ViewAction {
    typealias ScreenView = SignUpView

    case emailChanged(String)
    case passwordChanged(String)
    case displayNameChanged(String)
    case submit
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.email, let value): .emailChanged(value)
        case .fill(ScreenView.password, let value): .passwordChanged(value)
        case .fill(ScreenView.displayName, let value): .displayNameChanged(value)
        case .tap(ScreenView.submit): .submit
        case .tap(.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}
