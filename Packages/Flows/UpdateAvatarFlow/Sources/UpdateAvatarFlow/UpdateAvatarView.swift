import FlowKit

/// Draws the avatar form. Its identifiers are the contract scripts use.
struct UpdateAvatarView: View {
    static let screenID: ScreenID = "update-avatar"
    static let kind: ElementID = "kind"
    static let path: ElementID = "path"
    static let colour: ElementID = "colour"
    enum Tap: String, ScreenTap { case save }

    func screen(for state: UpdateAvatarViewState) -> Screen {
        let kinds = [
            Choice(id: "picture", label: "A picture (PNG or JPEG, at most 1 MiB)"),
            Choice(id: "initials", label: "My initials, \(state.initials), on a colour"),
            Choice(id: "none", label: "None"),
        ]
        let colours = state.colours.map { Choice(id: ElementID($0), label: $0.prefix(1).uppercased() + $0.dropFirst()) }
        return Screen(
            id: Self.screenID,
            title: "Change avatar",
            text: state.current.isEmpty ? [] : ["Now: \(state.current)."],
            fields: [
                Field(id: Self.kind, label: "Avatar", input: .choice(kinds, selected: ElementID(state.kind.rawValue))),
                Field(id: Self.path, label: "Picture file", input: .text(state.path), hint: "for a picture: its path", error: state.pathError),
                Field(id: Self.colour, label: "Colour", input: .choice(colours, selected: ElementID(state.colour)), hint: "for initials"),
            ],
            actions: [
                Action(Tap.save, label: "Save", role: .primary),
                .cancel,
            ],
            status: state.phase.status(busy: "Saving your avatar")
        )
    }
}
