import Accounts
import FlowKit

/// What the home screen shows.
struct AuthenticatedViewState: Equatable, Sendable {
    var displayName: String
    var email: String
    /// The home's tabs, one per child flow.
    var tabs: [Tab] = []
    var phase = Phase.idle
    var notice: String?
    /// That the server cannot be reached, since when, and what the screens show meanwhile.
    var offline: String?
}

/// Turns the signed-in user and what sign-out answers into the home screen's state.
struct AuthenticatedViewModel: ViewModel {
    /// A state for each thing the screen can show (idle, signing out, a failed sign-out): the
    /// flow's coverage inventory is drawn from these.
    static func examples(tabs: [Tab]) -> [AuthenticatedViewState] {
        let base = AuthenticatedViewModel(displayName: "", email: "", tabs: tabs)
        var signingOut = base
        signingOut.signingOut()
        var failed = base
        failed.failed(.storeUnavailable(FlowInventory.anyDetail))
        var home = base
        home.said(homeNotice)
        var offline = base
        offline.offline(FlowInventory.anyDetail)
        return [base.state, signingOut.state, failed.state, home.state, offline.state]
    }

    private(set) var state: AuthenticatedViewState

    init(user: User, tabs: [Tab]) {
        self.init(displayName: user.displayName.value, email: user.email.value, tabs: tabs)
    }

    private init(displayName: String, email: String, tabs: [Tab]) {
        state = AuthenticatedViewState(displayName: displayName, email: email, tabs: tabs)
    }

    mutating func signingOut() {
        state.phase = .loading
        state.notice = nil
    }

    /// What back says at the home, which has no step before it.
    static let homeNotice = "This is the home: Quit closes Flows (you stay signed in); Sign out ends your session."

    mutating func said(_ notice: String?) {
        state.notice = notice
    }

    mutating func offline(_ notice: String?) {
        state.offline = notice
    }

    mutating func failed(_ error: AccountsError) {
        state.phase = .failed(error.message)
    }

    /// Back from a tab: the user as they are now.
    mutating func back(user: User) {
        state.displayName = user.displayName.value
        state.email = user.email.value
        state.phase = .idle
    }
}
