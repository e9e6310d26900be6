import FlowKit
import Primitives

/// What the user can do on the Account tab.
enum AccountAction: ViewAction {
    typealias ScreenView = AccountView

    /// Start the change (the child flow) with this identifier.
    case open(ElementID)
    case themeChosen(Theme)
    case currencyChosen(Currency)
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.theme, let options):
            options.first.flatMap { Theme(rawValue: $0.rawValue) }.map(Self.themeChosen)
        case .choose(ScreenView.defaultCurrency, let options):
            options.first.flatMap { Currency(code: $0.rawValue) }.map(Self.currencyChosen)
        case .tap(.back), .back, .cancel: .back
        case .tap(let change): .open(change)
        default: nil
        }
    }
}
