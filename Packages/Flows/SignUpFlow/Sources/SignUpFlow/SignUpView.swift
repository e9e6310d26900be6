import Accounts
import FlowKit
import Primitives

/// Draws the sign-up form. Its identifiers are the contract scripts use.
struct SignUpView: View {
    static let screenID: ElementID = "sign-up"
    static let email: ElementID = "email"
    static let password: ElementID = "password"
    static let displayName: ElementID = "display-name"
    static let submit: ElementID = "create-account"
    static let cancel: ElementID = "cancel"

    static let inventory = FlowInventory(
        screens: [.init(screenID, actions: [submit, cancel])],
        messages: (EmailAddress.Problem.allMessages + PasswordRules.Problem.allMessages + DisplayName.Problem.allMessages
            + [AccountsError.emailTaken.message]).map(FlowInventory.Message.exact)
            + [.startingWith(AccountsError.storeUnavailable("").message)]
    )

    func screen(for state: SignUpViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Create an account",
            text: ["Your email and password sign you in; your name is what friends see."],
            fields: [
                Field(id: Self.email, label: "Email", input: .text(state.email), error: state.emailError),
                Field(
                    id: Self.password,
                    label: "Password",
                    input: .secret(isSet: state.passwordIsSet),
                    hint: "at least 8 characters",
                    error: state.passwordError
                ),
                Field(
                    id: Self.displayName,
                    label: "Display name",
                    input: .text(state.displayName),
                    hint: "what friends see",
                    error: state.displayNameError
                ),
            ],
            actions: [
                Action(id: Self.submit, label: "Create account", role: .primary),
                Action(id: Self.cancel, label: "Cancel", role: .cancel),
            ],
            status: status(for: state.phase)
        )
    }

    private func status(for phase: SignUpViewState.Phase) -> ScreenStatus? {
        switch phase {
        case .idle: nil
        case .loading: .busy("Creating your account")
        case .failed(let message): .error(message)
        }
    }
}
