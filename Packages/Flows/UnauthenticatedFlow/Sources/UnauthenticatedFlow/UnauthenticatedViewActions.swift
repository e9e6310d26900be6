import FlowKit

/// What the user can do on the welcome screen.
enum UnauthenticatedAction: Sendable, Equatable {
    case signIn
    case createAccount
    case quit
    case cancel
}

/// Carries the welcome state to the screen and the user's events back.
struct UnauthenticatedViewActions: ViewActions {
    let connection: ScreenConnection<UnauthenticatedView>

    func show(_ state: UnauthenticatedViewState) async {
        await connection.show(state)
    }

    func next() async -> UnauthenticatedAction {
        while true {
            switch await connection.nextEvent() {
            case .tap(UnauthenticatedView.signIn): return .signIn
            case .tap(UnauthenticatedView.createAccount): return .createAccount
            case .tap(UnauthenticatedView.quit): return .quit
            case .back, .cancel: return .cancel
            case .fill, .choose, .tap: continue
            }
        }
    }
}
