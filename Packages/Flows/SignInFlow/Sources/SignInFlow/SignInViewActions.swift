import FlowKit

/// What the user can do on the sign-in screen.
enum SignInAction: ViewAction {
    typealias ScreenView = SignInView

    case emailChanged(String)
    case passwordChanged(String)
    case submit
    /// Start the child flow behind this action.
    case open(ElementID)
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.email, let value): .emailChanged(value)
        case .fill(ScreenView.password, let value): .passwordChanged(value)
        case .tap(ScreenView.submit): .submit
        case .tap(.cancel), .back, .cancel: .cancel
        case .tap(let child): .open(child)
        default: nil
        }
    }
}
