/// What a user did on a screen, addressed by element identifier, never by key code.
///
/// Renderers produce events from key presses or typed lines; the test harness produces them
/// from scripts. Flows receive them through their ViewActions.
public enum UserEvent: Equatable, Sendable, Codable {
    /// A typed field (or a table's cell) was given a value: the user confirmed it.
    case fill(ElementID, String)
    /// The text of a money, day or table cell field as it is being typed, key by key, before it
    /// is confirmed with a ``fill(_:_:)``. A flow may show what it comes to (a live preview) and
    /// clear an error it fixes, but should not complain about text not yet finished. Only
    /// interactive renderers send it; scripts fill.
    case edit(ElementID, String)
    /// Options were picked in a choice, multi-choice or confirm field (`yes` / `no`).
    case choose(ElementID, [ElementID])
    /// An action was taken.
    case tap(ElementID)
    /// The user asked to go back one step.
    case back
    /// The user asked to leave the flow.
    case cancel
    /// What the screen shows may have changed elsewhere (another person added an expense): a
    /// screen that shows stored data reads it again, as it stands now; others ignore it. The
    /// web pages send it when the server tells an open page of a change; scripts `refresh`.
    case refresh
}

extension ElementID {
    /// The option a confirm field reports for yes.
    public static var yes: ElementID { "yes" }
    /// The option a confirm field reports for no.
    public static var no: ElementID { "no" }
}
