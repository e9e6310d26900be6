import FlowKit

/// Puts the welcome on show through the router, and takes it away.
struct UnauthenticatedPresenter: Presenter {
    typealias Actions = UnauthenticatedViewActions
    let router: AppRouter
}
