import FlowKit

/// Draws the welcome screen. Its identifiers are the contract scripts use.
struct UnauthenticatedView: View {
    static let screenID: ElementID = "welcome"
    static let signIn: ElementID = "sign-in"
    static let createAccount: ElementID = "create-account"
    static let quit: ElementID = "quit"

    static let inventory = FlowInventory(screens: [.init(screenID, actions: [signIn, createAccount, quit])])

    func screen(for state: UnauthenticatedViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Welcome to Flows",
            text: ["Share costs with friends and keep track of your own spending."],
            actions: [
                Action(id: Self.signIn, label: "Sign in", role: .primary),
                Action(id: Self.createAccount, label: "Create an account", role: .secondary),
                Action(id: Self.quit, label: "Quit", role: .cancel),
            ]
        )
    }
}
