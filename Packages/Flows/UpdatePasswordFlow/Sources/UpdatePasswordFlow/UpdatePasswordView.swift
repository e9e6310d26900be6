import FlowKit

/// Draws the password form. Its identifiers are the contract scripts use.
struct UpdatePasswordView: View {
    static let screenID: ScreenID = "update-password"
    static let current: ElementID = "current-password"
    static let new: ElementID = "new-password"
    static let repeated: ElementID = "repeat-password"
    static let save: ElementID = "save"

    func screen(for state: UpdatePasswordViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Change password",
            text: ["Your other sessions are signed out once it is changed; this one stays."],
            fields: [
                Field(id: Self.current, label: "Current password", input: .secret(isSet: state.currentIsSet), error: state.currentError),
                Field(
                    id: Self.new, label: "New password", input: .secret(isSet: state.newIsSet), hint: "at least 8 characters",
                    error: state.newError
                ),
                Field(id: Self.repeated, label: "New password again", input: .secret(isSet: state.repeatIsSet), error: state.repeatError),
            ],
            actions: [
                Action(id: Self.save, label: "Save", role: .primary),
                .cancel,
            ],
            status: state.phase.status(busy: "Changing your password")
        )
    }
}
