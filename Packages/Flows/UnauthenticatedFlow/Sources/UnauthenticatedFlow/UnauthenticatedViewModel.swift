import FlowKit

/// What the welcome screen shows: it has nothing that changes yet.
struct UnauthenticatedViewState: Equatable, Sendable {}

/// The welcome screen's state.
struct UnauthenticatedViewModel: ViewModel {
    let state = UnauthenticatedViewState()
}
