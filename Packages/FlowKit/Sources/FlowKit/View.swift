/// The passive role of a flow: maps the flow's ViewState to a ``Screen``.
///
/// A View never prints, never reads input and holds no state. It declares the identifiers of
/// its screen and elements, which are the contract scripts and tests rely on.
public protocol View: Sendable {
    associatedtype ViewState: Sendable

    /// The identifier of the screen this View draws.
    static var screenID: ElementID { get }

    /// The screen for a state.
    func screen(for state: ViewState) -> Screen
}
