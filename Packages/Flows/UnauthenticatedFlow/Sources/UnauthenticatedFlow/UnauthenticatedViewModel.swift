import FlowKit

/// What the welcome screen shows: the ways in, as actions.
struct UnauthenticatedViewState: Equatable, Sendable {
    var children: [Action]
}

/// The welcome screen's state.
struct UnauthenticatedViewModel: ViewModel {
    /// The states the screen can show (it has one), for the flow's coverage inventory.
    static func examples(children: [Action]) -> [UnauthenticatedViewState] {
        [UnauthenticatedViewModel(children: children).state]
    }

    let state: UnauthenticatedViewState

    init(children: [Action]) {
        state = UnauthenticatedViewState(children: children)
    }
}
