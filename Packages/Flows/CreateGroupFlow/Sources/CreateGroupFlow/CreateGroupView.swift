import FlowKit

/// Draws the new group's form. Its identifiers are the contract scripts use.
struct CreateGroupView: FormView {
    static let screenID: ScreenID = "create-group"
    static let name: ElementID = "name"
    static let kind: ElementID = "kind"
    static let members: ElementID = "members"
    static let currency: ElementID = "currency"
    static let simplify: ElementID = "simplify"
    static let send: ElementID = "create"
    static let newContact: ElementID = "new-contact"

    func screen(for state: CreateGroupViewState) -> Screen {
        var text = ["A group keeps the costs of a trip, a home or a team apart: its members share them there and settle up within it."]
        if state.friends.isEmpty { text.append("You have no friends or contacts yet: add a new contact, or start the group alone and add members later.") }
        return form(
            "New group", text: text,
            fields: [
                Field(id: Self.name, label: "Name", entry: state.name, hint: "1 to 50 characters, like Kyoto trip"),
                Field(id: Self.kind, label: "Kind", input: .choice(state.kinds, selected: state.kind)),
                Field(
                    id: Self.members, label: "Members", input: .multiChoice(state.friends, selected: state.picked), hint: "your friends and contacts",
                    error: state.membersError, isOptional: true
                ),
                Field(id: Self.currency, label: "Currency", input: .choice(state.currencies, selected: state.currency)),
                Field(id: Self.simplify, label: "Simplify debts", input: .confirm(state.simplify), hint: "fewer payments: someone may pay a member they owe nothing"),
            ],
            send: "Create group",
            actions: [Action(id: Self.newContact, label: "Add a new contact")],
            phase: state.phase, busy: "Creating the group", notice: state.notice
        )
    }
}
