import FlowKit

/// What the user can do on the app's own screen.
enum AppAction: ViewAction {
    typealias ScreenView = AppView

    case tapped(ScreenView.Tap)
    case quit

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .tap(ScreenView.quit), .back, .cancel: .quit
        default: nil
        }
    }
}
