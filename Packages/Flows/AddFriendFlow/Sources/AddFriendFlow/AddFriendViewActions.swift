import FlowKit

/// What the user can do while adding a friend.
enum AddFriendAction: ViewAction {
    typealias ScreenView = AddFriendView

    case howChosen(AddFriendViewState.How)
    case valueChanged(String)
    case contactEmailChanged(String)
    case tapped(ScreenView.Tap)
    case confirm
    case back
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.how, let ids): ids.first.flatMap { AddFriendViewState.How(rawValue: $0.rawValue) }.map(Self.howChosen)
        case .fill(ScreenView.value, let value): .valueChanged(value)
        case .fill(ScreenView.contactEmail, let value): .contactEmailChanged(value)
        case .tap(ScreenView.add): .confirm
        case .tap(.back), .back: .back
        case .tap(.cancel), .cancel: .cancel
        default: nil
        }
    }
}
