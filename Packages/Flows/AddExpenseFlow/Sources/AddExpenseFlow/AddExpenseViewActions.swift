import FlowKit

/// What the user can do on the expense form.
enum AddExpenseAction: Sendable, Equatable {
    /// A typed field or a table's cell, confirmed (`isFinal`) or as it is being typed.
    case typed(ElementID, String, isFinal: Bool)
    case chose(ElementID, [ElementID])
    case people
    case save
    case cancel
}

/// Carries the form's states to it and the user's events back.
struct AddExpenseViewActions: ViewActions {
    let connection: ScreenConnection<AddExpenseView>

    static func action(for event: UserEvent) -> AddExpenseAction? {
        switch event {
        case .fill(let id, let value): .typed(id, value, isFinal: true)
        case .edit(let id, let value): .typed(id, value, isFinal: false)
        case .choose(let id, let options): .chose(id, options)
        case .tap(AddExpenseView.people): .people
        case .tap(AddExpenseView.save): .save
        case .tap(AddExpenseView.cancel), .back, .cancel: .cancel
        case .tap: nil
        }
    }
}
