import FlowKit

/// Puts the Expenses tab on show through the router, and takes it away.
struct ExpensesPresenter: Presenter {
    typealias Actions = ExpensesViewActions
    let router: AppRouter
}
