import FlowKit

/// Puts the reports on show through the router, and takes them away.
struct ReportsPresenter: Presenter {
    typealias Actions = ReportsViewActions
    let router: AppRouter
}
