import FlowKit

/// Draws the email form. Its identifiers are the contract scripts use.
struct UpdateEmailView: FormView {
    static let screenID: ScreenID = "update-email"
    static let email: ElementID = "email"
    static let password: ElementID = "password"
    static let send: ElementID = "save"

    func screen(for state: UpdateEmailViewState) -> Screen {
        form(
            "Change email", text: ["You sign in with \(state.current) now. Your current password shows it is you."],
            fields: [
                Field(id: Self.email, label: "New email", entry: state.email),
                Field(id: Self.password, label: "Current password", entry: state.password),
            ],
            send: "Save",
            phase: state.phase, busy: "Checking your password"
        )
    }
}
