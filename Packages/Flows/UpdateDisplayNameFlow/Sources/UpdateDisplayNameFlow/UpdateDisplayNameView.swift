import FlowKit

/// Draws the name form. Its identifiers are the contract scripts use.
struct UpdateDisplayNameView: FormView {
    static let screenID: ScreenID = "update-display-name"
    static let name: ElementID = "display-name"
    static let send: ElementID = "save"

    func screen(for state: UpdateDisplayNameViewState) -> Screen {
        form(
            "Change name", text: ["Your name is what friends see."],
            fields: [
                Field(id: Self.name, label: "Display name", entry: state.name, hint: "1 to 50 characters"),
            ],
            send: "Save",
            phase: state.phase, busy: "Saving your name"
        )
    }
}
