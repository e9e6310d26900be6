import FlowKit

/// What the user can do on the Groups tab.
enum GroupsAction: ViewAction {
    typealias ScreenView = GroupsView

    /// Open the group with this row's identifier.
    case openGroup(ElementID)
    /// Show the archived groups, or the open ones again.
    case switchList
    /// Open the child flow with this identifier.
    case open(ElementID)
    /// Read again what the screen shows: it may have changed elsewhere.
    case refresh
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.group, let ids): ids.first.map(Self.openGroup)
        case .tap(ScreenView.archived): .switchList
        case .tap(.back), .back, .cancel: .back
        case .refresh: .refresh
        case .tap(let id): .open(id)
        default: nil
        }
    }
}
