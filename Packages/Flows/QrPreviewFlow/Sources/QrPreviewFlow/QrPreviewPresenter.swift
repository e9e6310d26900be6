import FlowKit

/// Puts the friend code on show through the router, and takes it away.
struct QrPreviewPresenter: Presenter {
    typealias Actions = QrPreviewViewActions
    let router: AppRouter
}
