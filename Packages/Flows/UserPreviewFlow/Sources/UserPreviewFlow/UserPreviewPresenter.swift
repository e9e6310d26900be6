import FlowKit

/// Puts a friend's preview on show through the router, and takes it away.
struct UserPreviewPresenter: Presenter {
    typealias Actions = UserPreviewViewActions
    let router: AppRouter
}
