import FlowKit

/// Puts the sign-in form on show through the router, and takes it away.
struct SignInPresenter: Presenter {
    typealias Actions = SignInViewActions
    let router: AppRouter
}
