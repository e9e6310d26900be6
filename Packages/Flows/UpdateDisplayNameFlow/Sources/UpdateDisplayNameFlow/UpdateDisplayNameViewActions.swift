import FlowKit

/// What the user can do on the name form.
enum UpdateDisplayNameAction: ViewAction {
    typealias ScreenView = UpdateDisplayNameView

    case nameChanged(String)
    case save
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.name, let value): .nameChanged(value)
        case .tap(ScreenView.save): .save
        case .tap(.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}
