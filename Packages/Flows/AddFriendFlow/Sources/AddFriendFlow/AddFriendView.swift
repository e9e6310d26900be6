import FlowKit

/// Draws the add-a-friend form and, once someone is found, the confirmation. Its identifiers
/// are the contract scripts use.
struct AddFriendView: View {
    static let screenID: ScreenID = "add-friend"
    static let how: ElementID = "how"
    static let value: ElementID = "value"
    static let contactEmail: ElementID = "contact-email"
    static let add: ElementID = "add"
    enum Tap: String, ScreenTap { case find }

    func screen(for state: AddFriendViewState) -> Screen {
        let status = state.phase.status(busy: "Looking")
        if let found = state.found {
            return Screen(
                id: Self.screenID,
                title: "Add a friend",
                text: [found.question] + found.details,
                actions: [
                    Action(id: Self.add, label: found.confirm, role: .primary),
                    Action(id: .back, label: "Back", role: .secondary),
                    .cancel,
                ],
                status: status
            )
        }
        let choices = AddFriendViewState.How.allCases.map { Choice(id: ElementID($0.rawValue), label: $0.label) }
        var fields = [
            Field(id: Self.how, label: "How", input: .choice(choices, selected: ElementID(state.how.rawValue))),
            Field(id: Self.value, label: state.how.fieldLabel, entry: state.value, hint: state.how.hint),
        ]
        if state.how == .contact {
            fields.append(Field(
                id: Self.contactEmail, label: "Their email", entry: state.contactEmail,
                hint: "optional: links them when they sign up", isOptional: true
            ))
        }
        return Screen(
            id: Self.screenID,
            title: "Add a friend",
            text: ["Someone with an account: by their friend code or email. Someone without one: as a contact, by name."],
            fields: fields,
            actions: [
                Action(Tap.find, label: "Find", role: .primary),
                .cancel,
            ],
            status: status
        )
    }
}
