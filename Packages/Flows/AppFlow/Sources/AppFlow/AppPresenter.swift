import FlowKit

/// Puts the app's own screen on show through the router, and takes it away.
struct AppPresenter: Presenter {
    typealias Actions = AppViewActions
    let router: AppRouter
}
