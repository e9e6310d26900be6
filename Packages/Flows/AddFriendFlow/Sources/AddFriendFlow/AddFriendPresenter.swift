import FlowKit

/// Puts the add-a-friend screen on show through the router, and takes it away.
struct AddFriendPresenter: Presenter {
    typealias Actions = AddFriendViewActions
    let router: AppRouter
}
