import FlowKit

/// What the user can do on the sign-in screen.
enum SignInAction: ViewAction {
    typealias ScreenView = SignInView

    /// A field as typed: which, and its text.
    case typed(ElementID, String)
    case tapped(ScreenView.Tap)
    /// Start the child flow behind this action.
    case open(ElementID)
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(let field, let text): .typed(field, text)
        case .tap(.cancel), .back, .cancel: .cancel
        case .tap(let child): .open(child)
        default: nil
        }
    }
}
