import Accounts
import FlowKit
import Primitives

/// Draws the sign-in form. Its identifiers are the contract scripts use.
struct SignInView: View {
    static let screenID: ElementID = "sign-in"
    static let email: ElementID = "email"
    static let password: ElementID = "password"
    static let submit: ElementID = "sign-in"
    static let createAccount: ElementID = "create-account"
    static let cancel: ElementID = "cancel"

    static let inventory = FlowInventory(
        screens: [.init(screenID, actions: [submit, createAccount, cancel])],
        messages: (EmailAddress.Problem.allMessages + [SignInViewModel.passwordMissing, AccountsError.wrongEmailOrPassword.message])
            .map(FlowInventory.Message.exact)
            + [.startingWith(AccountsError.storeUnavailable("").message)]
    )

    func screen(for state: SignInViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Sign in",
            text: ["Sign in with your email and password."],
            fields: [
                Field(id: Self.email, label: "Email", input: .text(state.email), error: state.emailError),
                Field(id: Self.password, label: "Password", input: .secret(isSet: state.passwordIsSet), error: state.passwordError),
            ],
            actions: [
                Action(id: Self.submit, label: "Sign in", role: .primary),
                Action(id: Self.createAccount, label: "Create an account", role: .secondary),
                Action(id: Self.cancel, label: "Cancel", role: .cancel),
            ],
            status: status(for: state.phase)
        )
    }

    private func status(for phase: SignInViewState.Phase) -> ScreenStatus? {
        switch phase {
        case .idle: nil
        case .loading: .busy("Signing in")
        case .failed(let message): .error(message)
        }
    }
}
