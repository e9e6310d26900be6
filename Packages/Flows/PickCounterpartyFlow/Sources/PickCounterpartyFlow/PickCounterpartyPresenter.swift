import FlowKit

/// Puts the choice of people on show through the router, and takes it away.
struct PickCounterpartyPresenter: Presenter {
    typealias Actions = PickCounterpartyViewActions
    let router: AppRouter
}
