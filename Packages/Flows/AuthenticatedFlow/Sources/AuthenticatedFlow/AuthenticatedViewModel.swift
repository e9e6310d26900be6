import Accounts
import FlowKit

/// What the home screen shows.
struct AuthenticatedViewState: Equatable, Sendable {
    enum Phase: Equatable, Sendable {
        case idle
        case loading
        case failed(String)
    }

    var displayName: String
    var email: String
    var phase = Phase.idle
}

/// Turns the signed-in user and what sign-out answers into the home screen's state.
struct AuthenticatedViewModel: ViewModel {
    private(set) var state: AuthenticatedViewState

    init(user: User) {
        state = AuthenticatedViewState(displayName: user.displayName.value, email: user.email.value)
    }

    mutating func signingOut() {
        state.phase = .loading
    }

    mutating func failed(_ error: AccountsError) {
        state.phase = .failed(error.message)
    }
}
