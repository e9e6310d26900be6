import FlowKit

/// What the user can do on the Sync screen.
enum SyncAction: ViewAction {
    typealias ScreenView = SyncView

    case chosen(ElementID)
    case tapped(ScreenView.Tap)
    case drop
    /// Read the replica again (a sync in the background changed it).
    case refresh
    case back
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.change, let options): options.first.map(Self.chosen)
        case .tap(ScreenView.drop), .tap(ScreenView.keepTheirs): .drop
        case .refresh: .refresh
        case .tap(.back), .back: .back
        case .cancel: .cancel
        default: nil
        }
    }
}
