import FlowKit

/// Draws the code form. Its identifiers are the contract scripts use.
struct VerifyEmailView: View {
    static let screenID: ScreenID = "verify-email"
    static let code: ElementID = "code"
    enum Tap: String, ScreenTap { case verify, sendCode = "send-code" }

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
                Action(Tap.verify, label: "Verify", role: .primary),
                Action(Tap.sendCode, label: "Send a new code"),
                .back,
            ],
            status: state.phase.status(busy: "Checking") ?? state.notice.map(ScreenStatus.notice)
        )
    }
}
