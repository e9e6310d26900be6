import FlowKit

/// What the user can do on the home screen.
enum AuthenticatedAction: Sendable, Equatable {
    case signOut
    case quit
    case cancel
}

/// Carries home states to the screen and the user's events back.
struct AuthenticatedViewActions: ViewActions {
    let connection: ScreenConnection<AuthenticatedView>

    func show(_ state: AuthenticatedViewState) async {
        await connection.show(state)
    }

    func next() async -> AuthenticatedAction {
        while true {
            switch await connection.nextEvent() {
            case .tap(AuthenticatedView.signOut): return .signOut
            case .tap(AuthenticatedView.quit): return .quit
            case .back, .cancel: return .cancel
            case .fill, .choose, .tap: continue
            }
        }
    }
}
