/// What a user did on a screen, addressed by element identifier, never by key code.
///
/// Renderers produce events from key presses or typed lines; the test harness produces them
/// from scripts. Flows receive them through their ViewActions.
public enum UserEvent: Equatable, Sendable, Codable {
    /// A text or secret field was given a value.
    case fill(ElementID, String)
    /// Options were picked in a choice, multi-choice or confirm field (`yes` / `no`).
    case choose(ElementID, [ElementID])
    /// An action was taken.
    case tap(ElementID)
    /// The user asked to go back one step.
    case back
    /// The user asked to leave the flow.
    case cancel
}

extension ElementID {
    /// The option a confirm field reports for yes.
    public static var yes: ElementID { "yes" }
    /// The option a confirm field reports for no.
    public static var no: ElementID { "no" }
}
