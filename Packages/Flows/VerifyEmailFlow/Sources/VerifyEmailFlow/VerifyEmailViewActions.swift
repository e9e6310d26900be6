import FlowKit

/// What the user can do on the code form.
enum VerifyEmailAction: ViewAction {
    typealias ScreenView = VerifyEmailView

    case typed(String)
    case verify
    case sendCode
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.code, let text): .typed(text)
        case .tap(ScreenView.verify): .verify
        case .tap(ScreenView.sendCode): .sendCode
        case .tap(.back), .back, .cancel: .back
        default: nil
        }
    }
}
