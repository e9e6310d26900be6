import FlowKit

/// Puts the password form on show through the router, and takes it away.
struct UpdatePasswordPresenter: Presenter {
    typealias Actions = UpdatePasswordViewActions
    let router: AppRouter
}
