/// The role that creates a flow's View, presents and dismisses it, and shows popups, all
/// through the ``AppRouter``.
///
/// Presenting, dismissing and a scoped presentation come with FlowKit: a flow that shows no
/// popup of its own uses ``ScreenPresenter`` for its screen's actions, and writes no Presenter:
///
/// ```swift
/// private let presenter: ScreenPresenter<SignInAction>
/// ```
///
/// A flow with something of its own to show (a confirmation popup, say) writes a Presenter that
/// names its screen's ``ViewAction``, holds the router and adds those methods.
///
/// Busy indicators are part of the ViewState (its ``Phase``), so they reach the screen the same
/// way as any other change.
public protocol Presenter: Sendable {
    /// What the user can do on the presented screen, which says which View it is.
    associatedtype Action: ViewAction

    /// The router the View's screen is shown through.
    var router: AppRouter { get }
}

extension Presenter {
    /// The View and the router, as the ViewActions talk through them.
    public var connection: ScreenConnection<Action.ScreenView> {
        ScreenConnection(router: router)
    }

    /// Creates the View, puts its screen on show and returns the channel to it.
    public func present(_ state: Action.ScreenView.ViewState) async -> ViewActions<Action> {
        await connection.present(state)
        return ViewActions(connection: connection)
    }

    /// Takes the View's screen away.
    public func dismiss() async {
        await connection.dismiss()
    }

    /// Presents the View for `state`, runs `body` with the channel to it, and dismisses the
    /// screen when `body` returns, whichever way it returns: a flow never dismisses by hand.
    ///
    /// `body` runs on the caller's actor, so a flow's closure may use the flow's own state.
    public func presenting<Result>(
        _ state: Action.ScreenView.ViewState,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ViewActions<Action>) async -> Result
    ) async -> Result {
        let actions = await present(state)
        let result = await body(actions)
        await dismiss()
        return result
    }

    /// Presents the View for `state`, hands the user's actions to `handle` one at a time until
    /// it returns the flow's result, and dismisses the screen on the way out. After an action
    /// that does not end the flow, the screen shows `state` as it is then (an error `handle`
    /// put in the ViewModel, say).
    ///
    /// A flow's loop:
    ///
    /// ```swift
    /// var model = UpdateEmailViewModel(current: user.email.value)
    /// return await presenter.run(model.state) { action, view in
    ///     switch action {
    ///     case .typed(let field, let text): model.typed(field, text)
    ///     case .save: ...
    ///     case .cancel: return .cancelled
    ///     }
    ///     return nil
    /// }
    /// ```
    public func run<Result>(
        _ state: @autoclosure () -> Action.ScreenView.ViewState,
        isolation: isolated (any Actor)? = #isolation,
        until handle: (Action, ViewActions<Action>) async -> Result?
    ) async -> Result {
        await presenting(state()) { view in
            while true {
                if let result = await handle(await view.next(), view) { return result }
                await view.show(state())
            }
        }
    }

    /// Shows a message in a popup and waits until the user has read it.
    public func alert(title: String, message: String) async {
        await router.alert(title: title, message: message)
    }
}

/// The Presenter of a flow that shows nothing of its own beyond its screen: FlowKit's
/// presenting, dismissing and alerts, for the View whose screen `Action` comes from.
public struct ScreenPresenter<Action: ViewAction>: Presenter {
    public let router: AppRouter

    public init(router: AppRouter) {
        self.router = router
    }
}
