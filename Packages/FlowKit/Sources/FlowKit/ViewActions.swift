/// The role that carries ViewStates to a View and the user's actions back to the flow.
///
/// Each flow's ViewActions maps the generic ``UserEvent``s of its screen to the flow's own typed
/// actions, so a flow never handles raw identifiers.
public protocol ViewActions: Sendable {
    associatedtype ViewState: Sendable
    associatedtype Action: Sendable

    /// Shows a new state of the screen.
    func show(_ state: ViewState) async

    /// Waits for the user's next action on the screen.
    func next() async -> Action
}

/// The link between one presented View and the router: what a ViewActions is built on.
public struct ScreenConnection<V: View>: Sendable {
    public let router: AppRouter
    public let view: V

    public init(router: AppRouter, view: V) {
        self.router = router
        self.view = view
    }

    /// Presents the View's screen for a state.
    public func present(_ state: V.ViewState) async {
        await router.present(view.screen(for: state))
    }

    /// Shows a new state of the presented screen.
    public func show(_ state: V.ViewState) async {
        await router.update(view.screen(for: state))
    }

    /// The user's next event on the screen.
    public func nextEvent() async -> UserEvent {
        await router.nextEvent(on: V.screenID)
    }

    /// Takes the screen away.
    public func dismiss() async {
        await router.dismiss(V.screenID)
    }
}
