import FlowKit

/// Draws a friend's preview, and the steps that ask before removing them, renaming a contact or
/// linking one.
/// Its identifiers are the contract scripts use.
struct UserPreviewView: View {
    static let screenID: ScreenID = "user-preview"
    static let person: ElementID = "person"
    static let how: ElementID = "how"
    static let value: ElementID = "value"
    static let name: ElementID = "name"
    enum Tap: String, ScreenTap {
        case rename, saveName = "save-name", addExpense = "add-expense", settleUp = "settle-up", older, newer, remove, block, link, find
    }

    func screen(for state: UserPreviewViewState) -> Screen {
        let status = state.phase.status(busy: "Working") ?? state.notice.map(ScreenStatus.notice)
        switch state.step {
        case .pick:
            guard !state.people.isEmpty else {
                let text = state.isLoaded ? ["No friends yet: add one on the Friends tab."] : []
                return Screen(id: Self.screenID, title: "Friend", text: text, actions: [.back], status: status)
            }
            let people = state.people.map { Choice(id: $0.id, label: $0.label) }
            return Screen(
                id: Self.screenID, title: "Friend", text: ["Whose balances and shared expenses?"],
                fields: [Field(id: Self.person, label: "Friend", input: .choice(people, selected: nil), hint: "type to filter")],
                actions: [.back], status: status
            )

        case .preview:
            var text = state.about + state.balances
            if !state.isLoaded {
                // Nothing read yet (or the read failed): the status says why.
            } else if state.expenses.isEmpty {
                text.append(state.hasNewer ? "No older shared expenses." : "No shared expenses yet.")
            } else {
                text.append("Shared expenses, newest first (\(state.range ?? "")):")
                text += state.expenses
            }
            var actions = [Action(Tap.addExpense, label: "Add an expense with \(state.name)", role: .primary)]
            if state.canSettle { actions.append(Action(Tap.settleUp, label: "Settle up")) }
            if state.hasOlder { actions.append(Action(Tap.older, label: "Older expenses")) }
            if state.hasNewer { actions.append(Action(Tap.newer, label: "Newer expenses")) }
            if state.isContact {
                actions.append(Action(Tap.rename, label: "Rename"))
                actions.append(Action(Tap.link, label: "Link to their account"))
            }
            actions.append(Action(Tap.remove, label: "Remove"))
            if !state.isContact { actions.append(Action(Tap.block, label: "Block")) }
            actions.append(.back)
            return Screen(
                id: Self.screenID, title: state.name, text: text, figures: state.figure.map { [$0] } ?? [], actions: actions, status: status,
                tones: state.tones, browses: true
            )

        case .confirmRemove:
            let kind = state.isContact ? "contacts" : "friends"
            return Screen(
                id: Self.screenID, title: state.name,
                text: ["Remove \(state.name) from your \(kind)?", "The expenses you shared still show \(state.name)."],
                actions: [Action(Tap.remove, label: "Remove", role: .primary), .back], status: status
            )

        case .confirmBlock:
            return Screen(
                id: Self.screenID, title: state.name,
                text: [
                    "Block \(state.name)?",
                    "They are no longer your friend, and their friend requests no longer reach you.",
                    "What you shared stays, and both of you still see it, but neither of you can add to it or change it.",
                ],
                actions: [Action(Tap.block, label: "Block", role: .primary), .back], status: status
            )

        case .rename:
            return Screen(
                id: Self.screenID, title: state.name, text: ["A new name for \(state.name), which your shared expenses will show."],
                fields: [Field(id: Self.name, label: "Name", input: .text(state.newName.text), error: state.newName.error)],
                actions: [Action(Tap.saveName, label: "Save", role: .primary), .back], status: status
            )

        case .link:
            let choices = UserPreviewViewState.LinkHow.allCases.map { Choice(id: ElementID($0.rawValue), label: $0.label) }
            let (label, hint) = state.linkHow == .friendCode ? ("Friend code", "like K7QX-M3RD-9, any case") : ("Email", "the email of their account")
            return Screen(
                id: Self.screenID, title: state.name,
                text: ["Link \(state.name) to the account they now have: what you shared with \(state.name) becomes that account's."],
                fields: [
                    Field(id: Self.how, label: "How", input: .choice(choices, selected: ElementID(state.linkHow.rawValue))),
                    Field(id: Self.value, label: label, input: .text(state.linkValue), hint: hint, error: state.linkError),
                ],
                actions: [Action(Tap.find, label: "Find", role: .primary), .back], status: status
            )

        case .confirmLink:
            return Screen(
                id: Self.screenID, title: state.name, text: state.linkFound,
                actions: [Action(Tap.link, label: "Link", role: .primary), .back], status: status
            )
        }
    }
}
