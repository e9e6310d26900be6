/// The role that carries ViewStates to a View and the user's actions back to the flow.
///
/// A flow's ViewActions says, in one switch, which of the generic ``UserEvent``s of its screen
/// are which of the flow's own typed actions, so a flow never handles raw identifiers. Showing
/// states and waiting for the next action come with FlowKit:
///
/// ```swift
/// struct SignInViewActions: ViewActions {
///     let connection: ScreenConnection<SignInView>
///
///     static func action(for event: UserEvent) -> SignInAction? {
///         switch event {
///         case .tap(SignInView.submit): .submit
///         case .tap(SignInView.cancel), .back, .cancel: .cancel
///         case .fill, .edit, .choose, .tap: nil
///         }
///     }
/// }
/// ```
public protocol ViewActions: Sendable {
    associatedtype ScreenView: View
    associatedtype Action: Sendable
    typealias ViewState = ScreenView.ViewState

    /// The presented View and the router it is shown through.
    var connection: ScreenConnection<ScreenView> { get }

    init(connection: ScreenConnection<ScreenView>)

    /// The flow's action for an event on this screen, or nil for an event the screen ignores.
    ///
    /// `.cancel` must map to an action: the router answers `.cancel` for a screen that is no
    /// longer on show, and input that ends cancels every screen.
    static func action(for event: UserEvent) -> Action?

    /// Shows a new state of the screen.
    func show(_ state: ViewState) async

    /// Waits for the user's next action on the screen; events the screen ignores are skipped.
    func next() async -> Action
}

extension ViewActions {
    public func show(_ state: ViewState) async {
        await connection.show(state)
    }

    public func next() async -> Action {
        while true {
            if let action = Self.action(for: await connection.nextEvent()) { return action }
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
