import FlowKit

/// Puts the expense form on show through the router, and takes it away.
struct AddExpensePresenter: Presenter {
    typealias Actions = AddExpenseViewActions
    let router: AppRouter
}
