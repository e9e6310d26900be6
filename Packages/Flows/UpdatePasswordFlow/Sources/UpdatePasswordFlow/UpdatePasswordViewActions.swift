import FlowKit

/// What the user can do on the password form.
enum UpdatePasswordAction: ViewAction {
    typealias ScreenView = UpdatePasswordView

    /// A field as typed: which, and its text.
    case typed(ElementID, String)
    case save
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(let field, let text): .typed(field, text)
        case .tap(ScreenView.save): .save
        case .tap(.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}
