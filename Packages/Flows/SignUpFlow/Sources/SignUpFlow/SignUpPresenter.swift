import FlowKit

/// Puts the sign-up form on show through the router, and takes it away.
struct SignUpPresenter: Presenter {
    typealias Actions = SignUpViewActions
    let router: AppRouter
}
