import FlowKit

/// Puts the home on show through the router, and takes it away.
struct AuthenticatedPresenter: Presenter {
    typealias Actions = AuthenticatedViewActions
    let router: AppRouter
}
