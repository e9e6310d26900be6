import FlowKit
import Primitives

/// Draws the Account tab: who the user is, their theme, and the changes they can make. Its
/// identifiers are the contract scripts use.
struct AccountView: View {
    static let screenID: ScreenID = "account"
    static let theme: ElementID = "theme"
    static let defaultCurrency: ElementID = "default-currency"

    func screen(for state: AccountViewState) -> Screen {
        let themes = Theme.allCases.map { Choice(id: ElementID($0.rawValue), label: Self.label($0)) }
        let currencies = Currency.all.map { Choice(id: ElementID($0.code), label: $0.code) }
        return Screen(
            id: Self.screenID,
            title: "Account",
            text: ["Name: \(state.name)", "Email: \(state.email)\(state.unverified ? " (not verified: friends cannot find you by it yet)" : "")", "Friend code: \(state.friendCode)", "Avatar: \(state.avatar)"],
            figures: state.avatarFigure.map { [$0] } ?? [],
            fields: [
                Field(id: Self.theme, label: "Theme", input: .choice(themes, selected: state.theme.map { ElementID($0.rawValue) }), hint: "the colours of every screen"),
                Field(
                    id: Self.defaultCurrency, label: "Default currency",
                    input: .choice(currencies, selected: state.defaultCurrency.map { ElementID($0.code) }), hint: "what a new expense starts in"
                ),
            ],
            actions: state.actions + [.back],
            status: state.phase.status(busy: "Saving") ?? state.notice.map(ScreenStatus.notice),
            browses: true
        )
    }

    private static func label(_ theme: Theme) -> String {
        switch theme {
        case .dark: "Dark"
        case .light: "Light"
        case .highContrast: "High contrast"
        case .noColour: "No colour"
        }
    }
}
