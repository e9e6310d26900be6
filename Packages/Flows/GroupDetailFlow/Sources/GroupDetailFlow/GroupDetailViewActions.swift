import FlowKit

/// What the user can do on a group's screens.
enum GroupDetailAction: ViewAction {
    typealias ScreenView = GroupDetailView

    /// Choose the group to show (launched without one).
    case pickGroup(ElementID)
    /// Open an expense, or read a payment, of the group's list.
    case openLine(ElementID)
    case tapped(ScreenView.Tap)
    /// Read again what the screen shows: it may have changed elsewhere.
    case refresh
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.group, let ids): ids.first.map(Self.pickGroup)
        case .choose(ScreenView.line, let ids): ids.first.map(Self.openLine)
        case .tap(.back), .back, .cancel: .back
        case .refresh: .refresh
        default: nil
        }
    }
}
