import FlowKit

/// What the user can do on the friend requests screen.
enum FriendRequestsAction: ViewAction {
    typealias ScreenView = FriendRequestsView

    case chosen(FriendRequestsViewState.List, ElementID)
    case tapped(ScreenView.Tap)
    /// Read again what the screen shows: it may have changed elsewhere.
    case refresh
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.incoming, let ids): ids.first.map { Self.chosen(.incoming, $0) }
        case .choose(ScreenView.outgoing, let ids): ids.first.map { Self.chosen(.outgoing, $0) }
        case .choose(ScreenView.blocked, let ids): ids.first.map { Self.chosen(.blocked, $0) }
        case .tap(.back), .back, .cancel: .back
        case .refresh: .refresh
        default: nil
        }
    }
}
