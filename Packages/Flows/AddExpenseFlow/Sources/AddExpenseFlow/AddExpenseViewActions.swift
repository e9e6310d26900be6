import FlowKit

/// What the user can do on the expense form.
enum AddExpenseAction: ViewAction {
    typealias ScreenView = AddExpenseView

    /// A typed field or a table's cell, confirmed (`isFinal`) or as it is being typed.
    case typed(ElementID, String, isFinal: Bool)
    case chose(ElementID, [ElementID])
    case tapped(ScreenView.Tap)
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(let id, let value): .typed(id, value, isFinal: true)
        case .edit(let id, let value): .typed(id, value, isFinal: false)
        case .choose(let id, let options): .chose(id, options)
        case .tap(.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}
