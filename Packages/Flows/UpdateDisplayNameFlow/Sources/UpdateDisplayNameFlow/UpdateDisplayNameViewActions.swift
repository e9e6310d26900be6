import FlowKit

/// What the user can do on the name form.
enum UpdateDisplayNameAction: Sendable, Equatable {
    case nameChanged(String)
    case save
    case cancel
}

/// Carries name-form states to the screen and the user's events back.
struct UpdateDisplayNameViewActions: ViewActions {
    let connection: ScreenConnection<UpdateDisplayNameView>

    static func action(for event: UserEvent) -> UpdateDisplayNameAction? {
        switch event {
        case .fill(UpdateDisplayNameView.name, let value): .nameChanged(value)
        case .tap(UpdateDisplayNameView.save): .save
        case .tap(UpdateDisplayNameView.cancel), .back, .cancel: .cancel
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
