import Accounts
import FlowKit

/// What the welcome screen shows: the ways in, as actions.
struct UnauthenticatedViewState: Equatable, Sendable {
    var children: [Action]
    /// Why the user is here, when it is news (a session that expired).
    var notice: String?
}

/// The welcome screen's state.
struct UnauthenticatedViewModel: ViewModel {
    /// The states the screen can show (it has one), for the flow's coverage inventory.
    static func examples(children: [Action]) -> [UnauthenticatedViewState] {
        var expired = UnauthenticatedViewModel(children: children, notice: StoredSession.expiredNotice)
        let first = expired.state
        expired.seen()
        return [UnauthenticatedViewModel(children: children).state, first, expired.state]
    }

    private(set) var state: UnauthenticatedViewState

    init(children: [Action], notice: String? = nil) {
        state = UnauthenticatedViewState(children: children, notice: notice)
    }

    /// The notice was shown; coming back from a child, the welcome is plain again.
    mutating func seen() {
        state.notice = nil
    }
}
