import FlowKit

/// What the user can do while adding a friend.
enum AddFriendAction: Sendable, Equatable {
    case howChosen(AddFriendViewState.How)
    case valueChanged(String)
    case contactEmailChanged(String)
    case find
    case confirm
    case back
    case cancel
}

/// Carries the screen's states to it and the user's events back.
struct AddFriendViewActions: ViewActions {
    let connection: ScreenConnection<AddFriendView>

    static func action(for event: UserEvent) -> AddFriendAction? {
        switch event {
        case .choose(AddFriendView.how, let ids): ids.first.flatMap { AddFriendViewState.How(rawValue: $0.rawValue) }.map(AddFriendAction.howChosen)
        case .fill(AddFriendView.value, let value): .valueChanged(value)
        case .fill(AddFriendView.contactEmail, let value): .contactEmailChanged(value)
        case .tap(AddFriendView.find): .find
        case .tap(AddFriendView.add): .confirm
        case .tap(AddFriendView.back), .back: .back
        case .tap(AddFriendView.cancel), .cancel: .cancel
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
