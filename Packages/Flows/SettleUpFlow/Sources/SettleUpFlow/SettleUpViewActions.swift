import FlowKit

/// What the user can do while settling up.
enum SettleUpAction: Sendable, Equatable {
    case personChosen(ElementID)
    case currencyChosen(ElementID)
    case typed(ElementID, String, isFinal: Bool)
    case next
    case record
    case back
    case cancel
}

/// Carries the screen's states to it and the user's events back.
struct SettleUpViewActions: ViewActions {
    let connection: ScreenConnection<SettleUpView>

    static func action(for event: UserEvent) -> SettleUpAction? {
        switch event {
        case .choose(SettleUpView.person, let ids): ids.first.map(SettleUpAction.personChosen)
        case .choose(SettleUpView.currency, let ids): ids.first.map(SettleUpAction.currencyChosen)
        case .fill(let id, let value): .typed(id, value, isFinal: true)
        case .edit(let id, let value): .typed(id, value, isFinal: false)
        case .tap(SettleUpView.next): .next
        case .tap(SettleUpView.record), .tap(SettleUpView.recordAnyway): .record
        case .tap(SettleUpView.back), .back: .back
        case .tap(SettleUpView.cancel), .cancel: .cancel
        case .choose, .tap: nil
        }
    }
}
