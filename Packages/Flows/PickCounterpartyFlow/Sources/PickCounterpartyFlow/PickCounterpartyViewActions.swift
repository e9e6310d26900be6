import FlowKit

/// What the user can do while choosing whom an expense is with.
enum PickCounterpartyAction: Sendable, Equatable {
    case picked([ElementID])
    case done
    case newContact
    case nameChanged(String)
    case emailChanged(String)
    case add
    case back
    case cancel
}

/// Carries the screen's states to it and the user's events back.
struct PickCounterpartyViewActions: ViewActions {
    let connection: ScreenConnection<PickCounterpartyView>

    static func action(for event: UserEvent) -> PickCounterpartyAction? {
        switch event {
        case .choose(PickCounterpartyView.with, let ids): .picked(ids)
        case .tap(PickCounterpartyView.done): .done
        case .tap(PickCounterpartyView.newContact): .newContact
        case .fill(PickCounterpartyView.name, let value): .nameChanged(value)
        case .fill(PickCounterpartyView.email, let value): .emailChanged(value)
        case .tap(PickCounterpartyView.add): .add
        case .tap(PickCounterpartyView.back), .back: .back
        case .tap(PickCounterpartyView.cancel), .cancel: .cancel
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
