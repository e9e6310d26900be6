import Accounts
import FlowKit

/// What the app's own screen shows: why the store could not be read.
struct AppViewState: Equatable, Sendable {
    var message = ""
    var isRetrying = false
}

/// Turns a failure to read the stored session into the app screen's state.
struct AppViewModel: ViewModel {
    /// A state for each thing the screen can show (the store's failure, a retry under way): the
    /// flow's coverage inventory is drawn from these.
    static var examples: [AppViewState] {
        var failed = AppViewModel()
        failed.failed(.storeUnavailable(FlowInventory.anyDetail))
        var retrying = failed
        retrying.retrying()
        return [failed.state, retrying.state]
    }

    private(set) var state = AppViewState()

    mutating func failed(_ error: AccountsError) {
        state.message = error.message
        state.isRetrying = false
    }

    mutating func retrying() {
        state.isRetrying = true
    }
}
