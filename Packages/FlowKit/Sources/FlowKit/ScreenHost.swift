/// Something that shows screens to a person (or to a script) and reports what they did.
///
/// Renderers implement this protocol; presenters reach it only through the ``AppRouter``.
/// The protocol is pull-based: a flow asks for the next event when it has nothing else to do,
/// so a host knows the flow is idle exactly when ``nextEvent(on:)`` is called.
public protocol ScreenHost: Sendable {
    /// A new screen goes on top of the ones already shown.
    func present(_ screen: Screen) async
    /// The screen with this identifier changed (or, after a dismissal, is on top again).
    func update(_ screen: Screen) async
    /// The screen with this identifier is gone.
    func dismiss(_ screenID: ScreenID) async
    /// Waits for what the user does next on the screen on top.
    func nextEvent(on screen: Screen) async -> UserEvent
}
