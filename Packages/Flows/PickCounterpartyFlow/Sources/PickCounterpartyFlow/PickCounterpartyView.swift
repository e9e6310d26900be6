import FlowKit

/// Draws the choice of people an expense is with. Its identifiers are the contract scripts use.
struct PickCounterpartyView: View {
    static let screenID: ScreenID = "pick-counterparty"
    static let with: ElementID = "with"
    enum Tap: String, ScreenTap { case done, newContact = "new-contact" }

    func screen(for state: PickCounterpartyViewState) -> Screen {
        let options = state.people.map { Choice(id: $0.id, label: $0.friend.name.value, detail: $0.detail) }
        return Screen(
            id: Self.screenID,
            title: "Who shares it?",
            text: [
                state.people.isEmpty
                    ? "You are in it. You have no friends or contacts yet: add a new contact, or go on for a personal expense."
                    : "You are in it. Pick the others, most recent first (none for a personal expense); typing filters the list.",
            ],
            fields: [
                Field(id: Self.with, label: "With", input: .multiChoice(options, selected: state.picked), hint: "by name or email", error: state.pickError, isOptional: true),
            ],
            actions: [
                Action(Tap.done, label: "Done", role: .primary),
                Action(Tap.newContact, label: "Add a new contact"),
                .cancel,
            ],
            status: state.notice.map(ScreenStatus.notice) ?? state.phase.status(busy: "Loading your friends")
        )
    }
}
