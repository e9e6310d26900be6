import FlowKit

/// What the user can do on the Friends tab.
enum FriendsAction: Sendable, Equatable {
    case filterChanged(String)
    /// Open the friend with this row's identifier.
    case openFriend(ElementID)
    case more
    /// Open the child flow with this identifier.
    case open(ElementID)
    case back
}

/// Carries the tab's states to the screen and the user's events back.
struct FriendsViewActions: ViewActions {
    let connection: ScreenConnection<FriendsView>

    static func action(for event: UserEvent) -> FriendsAction? {
        switch event {
        case .fill(FriendsView.filter, let text): .filterChanged(text)
        case .choose(FriendsView.friend, let ids): ids.first.map(FriendsAction.openFriend)
        case .tap(FriendsView.more): .more
        case .tap(FriendsView.back), .back, .cancel: .back
        case .tap(let id): .open(id)
        case .fill, .edit, .choose: nil
        }
    }
}
