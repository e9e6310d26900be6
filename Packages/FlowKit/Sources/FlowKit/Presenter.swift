/// The role that creates a flow's View, presents and dismisses it, and shows popups through the
/// ``AppRouter``.
///
/// `present` returns the ViewActions the flow then talks to; busy indicators are part of the
/// ViewState (its status), so they reach the screen the same way as any other change.
public protocol Presenter: Sendable {
    associatedtype Actions: ViewActions

    /// Creates the View, puts its screen on show and returns the channel to it.
    func present(_ state: Actions.ViewState) async -> Actions

    /// Takes the View's screen away.
    func dismiss() async
}
