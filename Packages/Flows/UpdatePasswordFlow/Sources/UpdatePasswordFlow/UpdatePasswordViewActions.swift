import FlowKit

/// What the user can do on the password form.
enum UpdatePasswordAction: ViewAction {
    typealias ScreenView = UpdatePasswordView

    case currentChanged(String)
    case newChanged(String)
    case repeatChanged(String)
    case save
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.current, let value): .currentChanged(value)
        case .fill(ScreenView.new, let value): .newChanged(value)
        case .fill(ScreenView.repeated, let value): .repeatChanged(value)
        case .tap(ScreenView.save): .save
        case .tap(.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}
