import FlowKit

/// Draws the sign-up form. Its identifiers are the contract scripts use.
struct SignUpView: FormView {
    static let screenID: ScreenID = "sign-up"
    static let email: ElementID = "email"
    static let password: ElementID = "password"
    static let displayName: ElementID = "display-name"
    static let send: ElementID = "create-account"

    func screen(for state: SignUpViewState) -> Screen {
        form(
            "Create an account", text: ["Your email and password sign you in; your name is what friends see."],
            fields: [
                Field(id: Self.email, label: "Email", entry: state.email),
                Field(id: Self.password, label: "Password", entry: state.password, hint: "at least 8 characters"),
                Field(id: Self.displayName, label: "Display name", entry: state.displayName, hint: "what friends see"),
            ],
            send: "Create account",
            phase: state.phase, busy: "Creating your account"
        )
    }
}
