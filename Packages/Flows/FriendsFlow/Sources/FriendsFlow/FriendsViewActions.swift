import FlowKit

/// What the user can do on the Friends tab.
enum FriendsAction: ViewAction {
    typealias ScreenView = FriendsView

    case filterChanged(String)
    /// Open the friend with this row's identifier.
    case openFriend(ElementID)
    case tapped(ScreenView.Tap)
    /// Open the child flow with this identifier.
    case open(ElementID)
    /// Read again what the screen shows: it may have changed elsewhere.
    case refresh
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.filter, let text): .filterChanged(text)
        case .choose(ScreenView.friend, let ids): ids.first.map(Self.openFriend)
        case .tap(.back), .back, .cancel: .back
        case .refresh: .refresh
        case .tap(let id): .open(id)
        default: nil
        }
    }
}
