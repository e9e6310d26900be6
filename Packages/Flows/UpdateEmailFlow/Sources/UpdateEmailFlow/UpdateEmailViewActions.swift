import FlowKit

/// What the user can do on the email form.
enum UpdateEmailAction: ViewAction {
    typealias ScreenView = UpdateEmailView

    case emailChanged(String)
    case passwordChanged(String)
    case save
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.email, let value): .emailChanged(value)
        case .fill(ScreenView.password, let value): .passwordChanged(value)
        case .tap(ScreenView.save): .save
        case .tap(.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}
