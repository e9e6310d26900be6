import FlowKit

/// Puts an expense's details on show through the router, and takes them away.
struct ExpenseDetailPresenter: Presenter {
    typealias Actions = ExpenseDetailViewActions
    let router: AppRouter
}
