import FlowKit

/// What the user can do while settling up.
enum SettleUpAction: ViewAction {
    typealias ScreenView = SettleUpView

    case personChosen(ElementID)
    case currencyChosen(ElementID)
    case typed(ElementID, String, isFinal: Bool)
    case tapped(ScreenView.Tap)
    case record
    case intoChosen(ElementID)
    case back
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.person, let ids): ids.first.map(Self.personChosen)
        case .choose(ScreenView.currency, let ids): ids.first.map(Self.currencyChosen)
        case .choose(ScreenView.into, let ids): ids.first.map(Self.intoChosen)
        case .fill(let id, let value): .typed(id, value, isFinal: true)
        case .edit(let id, let value): .typed(id, value, isFinal: false)
        case .tap(ScreenView.record), .tap(ScreenView.recordAnyway): .record
        case .tap(.back), .back: .back
        case .tap(.cancel), .cancel: .cancel
        default: nil
        }
    }
}
