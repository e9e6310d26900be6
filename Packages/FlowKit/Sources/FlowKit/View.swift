/// The passive role of a flow: maps the flow's ViewState to a ``Screen``.
///
/// A View never prints, never reads input and holds no state, so any View can be made with
/// `init()`. It declares the identifiers of its screen and elements, which are the contract
/// scripts and tests rely on. A View imports FlowKit and Primitives only: messages from the
/// domain reach it already written, in the ViewState.
public protocol View: Sendable {
    associatedtype ViewState: Sendable
    /// The screen's plain taps (``ScreenTap``), declared as a nested `enum Tap`; none by default.
    associatedtype Tap: ScreenTap = NoTaps

    /// The identifier of the screen this View draws.
    static var screenID: ScreenID { get }

    init()

    /// The screen for a state.
    func screen(for state: ViewState) -> Screen
}
