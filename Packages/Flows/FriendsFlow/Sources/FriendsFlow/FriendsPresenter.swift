import FlowKit

/// Puts the Friends tab on show through the router, and takes it away.
struct FriendsPresenter: Presenter {
    typealias Actions = FriendsViewActions
    let router: AppRouter
}
