import FlowKit

/// Draws the password form. Its identifiers are the contract scripts use.
struct UpdatePasswordView: FormView {
    static let screenID: ScreenID = "update-password"
    static let current: ElementID = "current-password"
    static let new: ElementID = "new-password"
    static let repeated: ElementID = "repeat-password"
    static let send: ElementID = "save"

    func screen(for state: UpdatePasswordViewState) -> Screen {
        form(
            "Change password", text: ["Your other sessions are signed out once it is changed; this one stays."],
            fields: [
                Field(id: Self.current, label: "Current password", entry: state.current),
                Field(id: Self.new, label: "New password", entry: state.new, hint: "at least 8 characters"),
                Field(id: Self.repeated, label: "New password again", entry: state.repeated),
            ],
            send: "Save",
            phase: state.phase, busy: "Changing your password"
        )
    }
}
