/// A screen's plain actions, declared once, in its View: each is a tap on one element and nothing
/// more ("Older", "Remove"), and each case is that element's identifier.
///
/// ```swift
/// struct ExpensesView: View {
///     enum Tap: String, ScreenTap { case older, newer, addExpense = "add-expense" }
///     ... Action(Tap.older, label: "Older") ...
/// }
///
/// enum ExpensesAction: ViewAction {
///     case tapped(ExpensesView.Tap)
///     ...
///     static func action(for event: UserEvent) -> Self? {
///         switch event { ... }   // the other actions: a choice, a field, the ways out
///     }
/// }
/// ```
///
/// ``ViewAction/read(_:)`` gives a tap on one of them as `tapped` before asking the rest of the
/// screen's events of `action(for:)`, and the flow's loop reads `case .tapped(.older):`. A tap
/// that means more than its element (a child to open, two elements that do one thing) stays a
/// case of the flow's action of its own.
public protocol ScreenTap: RawRepresentable<String>, CaseIterable, Hashable, Sendable {}

extension ScreenTap {
    /// The identifier of the element tapped.
    public var id: ElementID { ElementID(rawValue) }

    /// The tap `event` is, when it is a tap on one of these elements; nil for any other event.
    public init?(_ event: UserEvent) {
        guard case .tap(let element) = event else { return nil }
        self.init(rawValue: element.rawValue)
    }
}

extension Action {
    /// The action the user takes with `tap`.
    public init(_ tap: some ScreenTap, label: String, role: Role = .secondary) {
        self.init(id: tap.id, label: label, role: role)
    }
}

/// The taps of a screen that has none of its own.
public enum NoTaps: ScreenTap {
    public init?(rawValue: String) { nil }
    public var rawValue: String { switch self {} }
}
