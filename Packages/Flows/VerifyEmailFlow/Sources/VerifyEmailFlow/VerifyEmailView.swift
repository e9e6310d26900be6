import FlowKit

/// Draws the code form. Its identifiers are the contract scripts use.
struct VerifyEmailView: View {
    static let screenID: ScreenID = "verify-email"
    static let code: ElementID = "code"
    static let verify: ElementID = "verify"
    static let sendCode: ElementID = "send-code"

    func screen(for state: VerifyEmailViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Verify email",
            text: [
                "Enter the code we sent to \(state.email). A code is good for \(state.lifetime).",
                "Until then, friends cannot find you by your email.",
            ],
            fields: [
                Field(id: Self.code, label: "Code", entry: state.code, hint: "\(state.codeLength) digits"),
            ],
            actions: [
                Action(id: Self.verify, label: "Verify", role: .primary),
                Action(id: Self.sendCode, label: "Send a new code"),
                .back,
            ],
            status: state.phase.status(busy: "Checking") ?? state.notice.map(ScreenStatus.notice)
        )
    }
}
