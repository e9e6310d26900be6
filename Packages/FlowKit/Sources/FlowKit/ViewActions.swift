/// What the user can do on one screen: a flow's own typed actions, and which of the screen's
/// generic ``UserEvent``s is which of them.
///
/// The mapping is one switch, so a flow never handles raw identifiers. Showing states and
/// waiting for the next action come with ``ViewActions``:
///
/// ```swift
/// enum SignInAction: ViewAction {
///     typealias ScreenView = SignInView
///
///     case typed(ElementID, String)
///     /// The View's plain taps (``ScreenTap``): `case tapped(.submit)` in the flow's loop.
///     case tapped(ScreenView.Tap)
///     case cancel
///
///     static func action(for event: UserEvent) -> Self? {
///         switch event {
///         case .fill(let field, let text): .typed(field, text)
///         case .tap(.cancel), .back, .cancel: .cancel
///         default: nil
///         }
///     }
/// }
/// ```
public protocol ViewAction: Sendable {
    /// The View whose screen's events these actions come from.
    associatedtype ScreenView: View
    /// A plain tap on the screen, one of its View's ``View/Tap``: the enum's case
    /// `tapped(ScreenView.Tap)`, which ``read(_:)`` gives before asking ``action(for:)``. A
    /// screen without plain taps needs none.
    static func tapped(_ tap: ScreenView.Tap) -> Self
    /// The flow's action for an event on this screen that is not one of its plain taps, or nil
    /// for an event the screen ignores.
    ///
    /// `.cancel` must map to an action: the router answers `.cancel` for a screen that is no
    /// longer on show, and input that ends cancels every screen.
    static func action(for event: UserEvent) -> Self?
}

extension ViewAction where ScreenView.Tap == NoTaps {
    /// Never called: there is no tap without a case (the body is empty for that reason).
    public static func tapped(_ tap: NoTaps) -> Self {}
}

extension ViewAction {
    /// The flow's action for `event`: a tap on one of the View's plain taps, or what
    /// ``action(for:)`` makes of it.
    public static func read(_ event: UserEvent) -> Self? {
        if let tap = ScreenView.Tap(event) { return tapped(tap) }
        return action(for: event)
    }
}

/// The role that carries ViewStates to a View and the user's actions back to the flow, as the
/// flow's ``ViewAction``s. A Presenter hands one out when it presents the View.
public struct ViewActions<Action: ViewAction>: Sendable {
    public typealias ViewState = Action.ScreenView.ViewState

    /// The presented View and the router it is shown through.
    public let connection: ScreenConnection<Action.ScreenView>

    public init(connection: ScreenConnection<Action.ScreenView>) {
        self.connection = connection
    }

    /// Shows a new state of the screen.
    public func show(_ state: ViewState) async {
        await connection.show(state)
    }

    /// Waits for the user's next action on the screen; events the screen ignores are skipped.
    public func next() async -> Action {
        while true {
            if let action = Action.read(await connection.nextEvent()) { return action }
        }
    }
}

extension ViewActions {
    /// Sends a form: shows `model` busy, runs `operation` with it and returns the answer, with
    /// `model` left busy (a flow ends on an answer, or moves `model` on itself). When the service
    /// refuses, `model` takes the error and the answer is nil; the caller shows the screen again
    /// (``Presenter/run(_:isolation:until:)`` does after every action).
    ///
    /// `operation` gets the model as it was sent, so it reads the form from its argument.
    public func submit<Model: SubmittingViewModel, Value>(
        _ model: inout Model,
        isolation: isolated (any Actor)? = #isolation,
        _ operation: (Model) async throws(Model.Failure) -> Value
    ) async -> Value? where Model.ViewState == ViewState {
        model.busy()
        await show(model.state)
        do {
            return try await operation(model)
        } catch {
            model.failed(error)
            return nil
        }
    }

    /// Does one act on what the screen lists: shows `model` busy, runs `act`, which answers a
    /// value and says in words what it did, then reads the list again with `reload` and shows
    /// what was done. When the act is refused, `model` takes the error and the answer is nil;
    /// the list is read again first where `reloadAfter` says so (what was acted on may have
    /// changed elsewhere meanwhile).
    public func act<Model: ActingViewModel, Value>(
        _ model: inout Model,
        isolation: isolated (any Actor)? = #isolation,
        reloading reload: (inout Model) async -> Void,
        reloadAfter refusal: (Model.Failure) -> Bool = { _ in true },
        _ act: () async throws(Model.Failure) -> (Value, String)
    ) async -> Value? where Model.ViewState == ViewState {
        model.busy()
        await show(model.state)
        do {
            let (value, notice) = try await act()
            await reload(&model)
            model.noticed(notice)
            return value
        } catch {
            if refusal(error) { await reload(&model) }
            model.failed(error)
            return nil
        }
    }
}

/// The link between one presented View and the router: what Presenters and ViewActions are
/// built on.
public struct ScreenConnection<V: View>: Sendable {
    public let router: AppRouter
    public let view: V

    public init(router: AppRouter, view: V = V()) {
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
