import FlowKit

/// Draws one expense: what it was, who paid, each part and why any extra unit went where it
/// did; editing and deleting it (after a question). Its identifiers are the contract scripts use.
struct ExpenseDetailView: View {
    static let screenID: ScreenID = "expense-detail"
    static let expense: ElementID = "expense"
    static let version: ElementID = "version"
    static let comment: ElementID = "comment"
    static let myComment: ElementID = "my-comment"
    enum Tap: String, ScreenTap {
        case edit, delete, confirmDelete = "confirm-delete", history, restoreVersion = "restore-version", addComment = "add-comment", confirmDeleteComment = "confirm-delete-comment", stopRepeating = "stop-repeating", editSeries = "edit-series"
    }

    func screen(for state: ExpenseDetailViewState) -> Screen {
        let status = state.phase.status(busy: "Working") ?? state.notice.map(ScreenStatus.notice)
        switch state.step {
        case .pick:
            let options = state.choices.map { Choice(id: $0.id, label: $0.label) }
            return Screen(
                id: Self.screenID, title: "An expense",
                text: !state.isLoaded ? [] : [options.isEmpty ? "You are in no expense yet." : "Which expense? Your newest first."],
                fields: options.isEmpty ? [] : [Field(id: Self.expense, label: "Expense", input: .choice(options, selected: nil))],
                actions: [.back],
                status: status, browses: true
            )
        case .detail:
            // An expense that could not be read offers nothing to do with it.
            guard state.isLoaded else {
                return Screen(id: Self.screenID, title: state.title, text: state.lines, actions: [.back], status: status, browses: true)
            }
            var fields = [
                Field(
                    id: Self.comment, label: "Comment", input: .text(state.comment), hint: "to everyone in it; 1 to 1,000 characters",
                    error: state.commentError
                ),
            ]
            if !state.ownComments.isEmpty {
                fields.append(Field(id: Self.myComment, label: "Delete a comment of yours", input: .choice(state.ownComments, selected: nil)))
            }
            var actions = [
                Action(Tap.addComment, label: "Add the comment"), Action(Tap.edit, label: "Edit"), Action(Tap.delete, label: "Delete"),
                Action(Tap.history, label: "History"),
            ]
            if state.seriesRuns {
                actions.append(Action(Tap.editSeries, label: "Edit the series (the later ones)"))
                actions.append(Action(Tap.stopRepeating, label: "Stop repeating (those made stay)"))
            }
            return Screen(
                id: Self.screenID, title: state.title, text: state.lines + (state.series.map { [$0] } ?? []) + state.comments,
                fields: fields,
                actions: actions + [.back],
                status: status, browses: true
            )
        case .confirmDeleteComment:
            return Screen(
                id: Self.screenID, title: state.title,
                text: ["Delete your comment \(state.deleting ?? "")? Nobody will see it again."],
                actions: [Action(Tap.confirmDeleteComment, label: "Delete the comment", role: .primary), .back],
                status: status
            )
        case .history:
            let fields = state.versions.isEmpty ? [] : [
                Field(id: Self.version, label: "Older versions", input: .choice(state.versions, selected: state.selectedVersion), hint: "newest first")
            ]
            let actions = state.versions.isEmpty ? [] : [Action(Tap.restoreVersion, label: "Restore the chosen version", role: .primary)]
            return Screen(
                id: Self.screenID, title: "History of \(state.title)",
                text: state.history + (state.versions.isEmpty ? [] : ["Restoring an older version saves it as a new change: the history keeps every one."]),
                fields: fields, actions: actions + [.back], status: status
            )
        case .confirmDelete:
            return Screen(
                id: Self.screenID, title: state.title,
                text: ["Delete \(state.title)? Everyone's balances go back to what they were without it; it can be restored from the Expenses tab."],
                actions: [
                    Action(Tap.confirmDelete, label: "Delete", role: .primary),
                    .back,
                ],
                status: status
            )
        }
    }
}
