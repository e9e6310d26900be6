import FlowKit

/// Puts the settling-up screen on show through the router, and takes it away.
struct SettleUpPresenter: Presenter {
    typealias Actions = SettleUpViewActions
    let router: AppRouter
}
