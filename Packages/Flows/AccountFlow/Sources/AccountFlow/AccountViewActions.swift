import FlowKit
import Primitives

/// What the user can do on the Account tab.
enum AccountAction: Sendable, Equatable {
    /// Start the change (the child flow) with this identifier.
    case open(ElementID)
    case themeChosen(Theme)
    case currencyChosen(Currency)
    case back
}

/// Carries Account states to the screen and the user's events back.
struct AccountViewActions: ViewActions {
    let connection: ScreenConnection<AccountView>

    static func action(for event: UserEvent) -> AccountAction? {
        switch event {
        case .choose(AccountView.theme, let options):
            options.first.flatMap { Theme(rawValue: $0.rawValue) }.map(AccountAction.themeChosen)
        case .choose(AccountView.defaultCurrency, let options):
            options.first.flatMap { Currency(code: $0.rawValue) }.map(AccountAction.currencyChosen)
        case .tap(AccountView.back), .back, .cancel: .back
        case .tap(let change): .open(change)
        case .fill, .edit, .choose: nil
        }
    }
}
