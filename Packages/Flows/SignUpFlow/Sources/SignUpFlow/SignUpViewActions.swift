import FlowKit

/// What the user can do on the sign-up screen.
enum SignUpAction: ViewAction {
    typealias ScreenView = SignUpView

    /// A field as typed: which, and its text.
    case typed(ElementID, String)
    case submit
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(let field, let text): .typed(field, text)
        case .tap(ScreenView.submit): .submit
        case .tap(.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}
