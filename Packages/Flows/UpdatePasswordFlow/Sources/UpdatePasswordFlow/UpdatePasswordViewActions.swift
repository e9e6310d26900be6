import FlowKit

/// What the user can do on the password form.
enum UpdatePasswordAction: Sendable, Equatable {
    case currentChanged(String)
    case newChanged(String)
    case repeatChanged(String)
    case save
    case cancel
}

/// Carries password-form states to the screen and the user's events back.
struct UpdatePasswordViewActions: ViewActions {
    let connection: ScreenConnection<UpdatePasswordView>

    static func action(for event: UserEvent) -> UpdatePasswordAction? {
        switch event {
        case .fill(UpdatePasswordView.current, let value): .currentChanged(value)
        case .fill(UpdatePasswordView.new, let value): .newChanged(value)
        case .fill(UpdatePasswordView.repeated, let value): .repeatChanged(value)
        case .tap(UpdatePasswordView.save): .save
        case .tap(UpdatePasswordView.cancel), .back, .cancel: .cancel
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
