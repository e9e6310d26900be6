import FlowKit

/// Puts the Account tab on show through the router, and takes it away.
struct AccountPresenter: Presenter {
    typealias Actions = AccountViewActions
    let router: AppRouter
}
