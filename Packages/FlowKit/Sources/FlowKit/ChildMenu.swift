/// The children a parent offers on its screen, each an action (or a tab) that starts one.
///
/// A menu is declared once, as a static table in the parent's Flow: each entry names its action
/// and starts its child from the parent it is given. The ViewState carries the menu's
/// ``actions`` (or ``tabs(selected:)``) for the View to draw, the ViewActions turn a tap on an
/// identifier the View does not declare into the flow's "open" action, and the flow calls
/// ``open(_:in:)``. Adding a child so touches the parent's Flow, not its View or ViewActions.
///
/// ```swift
/// static let children = ChildMenu<UnauthenticatedFlow, SignInFlow.FlowResult>([
///     .init("sign-in", "Sign in", role: .primary) { flow in await flow.signIn(start: .signIn) },
/// ])
/// ```
public struct ChildMenu<Parent: Sendable, Outcome: Sendable>: Sendable {
    /// One child: the action that starts it, and how the parent starts it.
    public struct Entry: Sendable {
        public var action: Action
        public var start: @Sendable (Parent) async -> Outcome

        public init(
            _ id: ElementID, _ label: String, role: Action.Role = .secondary,
            start: @escaping @Sendable (Parent) async -> Outcome
        ) {
            action = Action(id: id, label: label, role: role)
            self.start = start
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// The entries as actions, in order.
    public var actions: [Action] {
        // A closure, not `\.action`: a key path into a generic type is made at run time, from
        // its generic arguments, on the way to the parent's first screen.
        entries.map { $0.action }
    }

    /// The entries as tabs, `selected` marked.
    public func tabs(selected: ElementID?) -> [Tab] {
        entries.map { Tab(id: $0.action.id, label: $0.action.label, isSelected: $0.action.id == selected) }
    }

    /// Starts the child behind `id` from `parent` and returns what it gave; nil when no entry
    /// has that identifier.
    public func open(_ id: ElementID, in parent: Parent) async -> Outcome? {
        guard let entry = entries.first(where: { $0.action.id == id }) else { return nil }
        return await entry.start(parent)
    }
}
