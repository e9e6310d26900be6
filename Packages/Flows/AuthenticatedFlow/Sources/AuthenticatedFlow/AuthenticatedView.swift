import Accounts
import FlowKit

/// Draws the home screen. Its identifiers are the contract scripts use.
struct AuthenticatedView: View {
    static let screenID: ElementID = "home"
    static let signOut: ElementID = "sign-out"
    static let quit: ElementID = "quit"

    static let inventory = FlowInventory(
        screens: [.init(screenID, actions: [signOut, quit])],
        messages: [.startingWith(AccountsError.storeUnavailable("").message)]
    )

    func screen(for state: AuthenticatedViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Flows",
            text: ["Signed in as \(state.displayName) <\(state.email)>."],
            actions: [
                Action(id: Self.signOut, label: "Sign out", role: .secondary),
                Action(id: Self.quit, label: "Quit", role: .cancel),
            ],
            status: status(for: state.phase)
        )
    }

    private func status(for phase: AuthenticatedViewState.Phase) -> ScreenStatus? {
        switch phase {
        case .idle: nil
        case .loading: .busy("Signing out")
        case .failed(let message): .error(message)
        }
    }
}
