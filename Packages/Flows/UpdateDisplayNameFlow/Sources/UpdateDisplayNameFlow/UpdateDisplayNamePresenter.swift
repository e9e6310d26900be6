import FlowKit

/// Puts the name form on show through the router, and takes it away.
struct UpdateDisplayNamePresenter: Presenter {
    typealias Actions = UpdateDisplayNameViewActions
    let router: AppRouter
}
