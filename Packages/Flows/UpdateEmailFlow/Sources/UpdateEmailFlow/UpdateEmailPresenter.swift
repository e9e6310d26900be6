import FlowKit

/// Puts the email form on show through the router, and takes it away.
struct UpdateEmailPresenter: Presenter {
    typealias Actions = UpdateEmailViewActions
    let router: AppRouter
}
