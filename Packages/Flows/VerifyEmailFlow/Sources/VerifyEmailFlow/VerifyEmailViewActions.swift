import FlowKit

/// What the user can do on the code form.
enum VerifyEmailAction: ViewAction {
    typealias ScreenView = VerifyEmailView

    case typed(String)
    case tapped(ScreenView.Tap)
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.code, let text): .typed(text)
        case .tap(.back), .back, .cancel: .back
        default: nil
        }
    }
}
