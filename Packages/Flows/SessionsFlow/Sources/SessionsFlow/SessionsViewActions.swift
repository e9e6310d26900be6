import FlowKit

/// What the user can do on the sessions screen.
enum SessionsAction: ViewAction {
    typealias ScreenView = SessionsView

    case chosen(String)
    case tapped(ScreenView.Tap)
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.session, let options): options.first.map { Self.chosen($0.rawValue) }
        case .tap(.back), .back, .cancel: .back
        default: nil
        }
    }
}
