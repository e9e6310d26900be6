import FlowKit

/// Draws the name form. Its identifiers are the contract scripts use.
struct UpdateDisplayNameView: FormView {
    static let screenID: ScreenID = "update-display-name"
    static let name: ElementID = "display-name"
    static let send: ElementID = "save"

    func screen(for state: UpdateDisplayNameViewState) -> Screen {
        Screen(
            id: Self.screenID,
            title: "Change name",
            text: ["Your name is what friends see."],
            fields: [
                Field(id: Self.name, label: "Display name", entry: state.name, hint: "1 to 50 characters"),
            ],
            actions: [
                Action(id: Self.send, label: "Save", role: .primary),
                .cancel,
            ],
            status: state.phase.status(busy: "Saving your name")
        )
    }
}
