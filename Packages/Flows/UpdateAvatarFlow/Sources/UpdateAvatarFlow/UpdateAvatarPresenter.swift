import FlowKit

/// Puts the avatar form on show through the router, and takes it away.
struct UpdateAvatarPresenter: Presenter {
    typealias Actions = UpdateAvatarViewActions
    let router: AppRouter
}
