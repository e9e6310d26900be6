import FlowKit

/// What the user can do on the sign-up screen.
enum SignUpAction: Sendable, Equatable {
    case emailChanged(String)
    case passwordChanged(String)
    case displayNameChanged(String)
    case submit
    case cancel
}

/// Carries sign-up states to the screen and the user's events back as ``SignUpAction``s.
struct SignUpViewActions: ViewActions {
    let connection: ScreenConnection<SignUpView>

    func show(_ state: SignUpViewState) async {
        await connection.show(state)
    }

    func next() async -> SignUpAction {
        while true {
            switch await connection.nextEvent() {
            case .fill(SignUpView.email, let value): return .emailChanged(value)
            case .fill(SignUpView.password, let value): return .passwordChanged(value)
            case .fill(SignUpView.displayName, let value): return .displayNameChanged(value)
            case .tap(SignUpView.submit): return .submit
            case .tap(SignUpView.cancel), .back, .cancel: return .cancel
            case .fill, .choose, .tap: continue
            }
        }
    }
}
