import FlowKit

/// What the user can do on the app's own screen.
enum AppAction: Sendable, Equatable {
    case retry
    case quit
}

/// Carries the app screen's states to it and the user's events back.
struct AppViewActions: ViewActions {
    let connection: ScreenConnection<AppView>

    static func action(for event: UserEvent) -> AppAction? {
        switch event {
        case .tap(AppView.retry): .retry
        case .tap(AppView.quit), .back, .cancel: .quit
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
