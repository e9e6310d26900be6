import FlowKit

/// What the user can do on the email form.
enum UpdateEmailAction: Sendable, Equatable {
    case emailChanged(String)
    case passwordChanged(String)
    case save
    case cancel
}

/// Carries email-form states to the screen and the user's events back.
struct UpdateEmailViewActions: ViewActions {
    let connection: ScreenConnection<UpdateEmailView>

    static func action(for event: UserEvent) -> UpdateEmailAction? {
        switch event {
        case .fill(UpdateEmailView.email, let value): .emailChanged(value)
        case .fill(UpdateEmailView.password, let value): .passwordChanged(value)
        case .tap(UpdateEmailView.save): .save
        case .tap(UpdateEmailView.cancel), .back, .cancel: .cancel
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
