import FlowKit

/// What the user can do on the app's own screen.
enum AppAction: Sendable, Equatable {
    case retry
    case quit
}

/// Carries the app screen's states to it and the user's events back.
struct AppViewActions: ViewActions {
    let connection: ScreenConnection<AppView>

    func show(_ state: AppViewState) async {
        await connection.show(state)
    }

    func next() async -> AppAction {
        while true {
            switch await connection.nextEvent() {
            case .tap(AppView.retry): return .retry
            case .tap(AppView.quit), .back, .cancel: return .quit
            case .fill, .choose, .tap: continue
            }
        }
    }
}
