import FlowKit

/// Draws the sign-in form, with the flow's children as actions beside its own. Its identifiers
/// are the contract scripts use.
struct SignInView: View {
    static let screenID: ScreenID = "sign-in"
    static let email: ElementID = "email"
    static let password: ElementID = "password"
    enum Tap: String, ScreenTap { case submit = "sign-in" }

    func screen(for state: SignInViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Sign in",
            text: ["Sign in with your email and password."],
            fields: [
                Field(id: Self.email, label: "Email", entry: state.email),
                Field(id: Self.password, label: "Password", entry: state.password),
            ],
            actions: [Action(Tap.submit, label: "Sign in", role: .primary)]
                + state.children
                + [.cancel],
            status: state.phase.status(busy: "Signing in") ?? state.notice.map(ScreenStatus.notice)
        )
    }
}
