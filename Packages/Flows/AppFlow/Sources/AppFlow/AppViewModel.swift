import Accounts
import FlowKit

/// What the app's own screen shows: why the store could not be read.
struct AppViewState: Equatable, Sendable {
    var message = ""
    var isRetrying = false
}

/// Turns a failure to read the stored session into the app screen's state.
struct AppViewModel: ViewModel {
    private(set) var state = AppViewState()

    mutating func failed(_ error: AccountsError) {
        state.message = error.message
        state.isRetrying = false
    }

    mutating func retrying() {
        state.isRetrying = true
    }
}
