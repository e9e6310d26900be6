import FlowKit

/// What the user can do on the sign-in screen.
enum SignInAction: Sendable, Equatable {
    case emailChanged(String)
    case passwordChanged(String)
    case submit
    case createAccount
    case cancel
}

/// Carries sign-in states to the screen and the user's events back as ``SignInAction``s.
struct SignInViewActions: ViewActions {
    let connection: ScreenConnection<SignInView>

    func show(_ state: SignInViewState) async {
        await connection.show(state)
    }

    func next() async -> SignInAction {
        while true {
            switch await connection.nextEvent() {
            case .fill(SignInView.email, let value): return .emailChanged(value)
            case .fill(SignInView.password, let value): return .passwordChanged(value)
            case .tap(SignInView.submit): return .submit
            case .tap(SignInView.createAccount): return .createAccount
            case .tap(SignInView.cancel), .back, .cancel: return .cancel
            case .fill, .choose, .tap: continue
            }
        }
    }
}
