import FlowKit

/// Draws a group's settings and members to change. Its identifiers are the contract scripts use.
struct EditGroupView: View {
    static let screenID: ScreenID = "edit-group"
    static let name: ElementID = "name"
    static let kind: ElementID = "kind"
    static let currency: ElementID = "currency"
    static let simplify: ElementID = "simplify"
    static let add: ElementID = "add"
    static let member: ElementID = "member"
    static let group: ElementID = "group"
    static let archive: ElementID = "archive"
    static let unarchive: ElementID = "unarchive"
    enum Tap: String, ScreenTap { case save, removeMember = "remove-member", leave }

    func screen(for state: EditGroupViewState) -> Screen {
        let status = state.phase.status(busy: "Saving") ?? state.notice.map(ScreenStatus.notice)
        if let pickable = state.pickable {
            return Screen(
                id: Self.screenID, title: "Edit a group", text: pickable.isEmpty ? ["You are in no group yet: make one on the Groups tab."] : [],
                fields: pickable.isEmpty ? [] : [Field(id: Self.group, label: "Group", input: .choice(pickable, selected: nil))],
                actions: [.back], status: status, browses: true
            )
        }
        if state.archived {
            return Screen(
                id: Self.screenID, title: "Edit \(state.title)",
                text: ["This group is archived: bring it back to change it or to add to it."],
                actions: [Action(id: Self.unarchive, label: "Bring it back", role: .primary), .cancel], status: status
            )
        }
        var fields = [
            Field(id: Self.name, label: "Name", entry: state.name, hint: "1 to 50 characters"),
            Field(id: Self.kind, label: "Kind", input: .choice(state.kinds, selected: state.kind)),
            Field(id: Self.currency, label: "Currency", input: .choice(state.currencies, selected: state.currency)),
            Field(id: Self.simplify, label: "Simplify debts", input: .confirm(state.simplify), hint: "fewer payments: someone may pay a member they owe nothing"),
        ]
        if !state.addable.isEmpty {
            fields.append(Field(id: Self.add, label: "Add members", input: .multiChoice(state.addable, selected: state.adding), hint: "your friends and contacts", isOptional: true))
        }
        var actions = [Action(Tap.save, label: "Save", role: .primary)]
        if !state.others.isEmpty {
            fields.append(Field(
                id: Self.member, label: "Take out", input: .choice(state.others, selected: state.removing), hint: "only someone settled in the group",
                error: state.memberError, isOptional: true
            ))
            actions.append(Action(Tap.removeMember, label: "Take out of the group"))
            actions.append(Action(Tap.leave, label: "Leave the group"))
        }
        actions += [Action(id: Self.archive, label: "Archive the group"), .cancel]
        return Screen(
            id: Self.screenID, title: "Edit \(state.title)", text: ["Members: \(state.members)."], fields: fields, actions: actions, status: status
        )
    }
}
