import FlowKit

/// Draws the expense form: the answers, each person's value in a table where the split needs
/// one, and under the form the parts they come to. Its identifiers are the contract scripts
/// and `--set` use; a table's cells are `parts.ROW` and `paid.ROW`, rows named as the people
/// are (`you`, `bob-stone`).
struct AddExpenseView: View {
    static let screenID: ScreenID = "add-expense"
    static let description: ElementID = "description"
    static let amount: ElementID = "amount"
    static let currency: ElementID = "currency"
    static let day: ElementID = "day"
    static let category: ElementID = "category"
    static let youShare: ElementID = "you-share"
    static let paidBy: ElementID = "paid-by"
    static let paid: ElementID = "paid"
    static let split: ElementID = "split"
    static let parts: ElementID = "parts"
    static let note: ElementID = "note"
    static let group: ElementID = "group"
    static let repeats: ElementID = "repeats"
    static let repeatEvery: ElementID = "repeat-every"
    static let repeatUntil: ElementID = "repeat-until"
    enum Tap: String, ScreenTap { case people, save }

    func screen(for state: AddExpenseViewState) -> Screen {
        let others = state.people.dropFirst().map(\.name)
        var fields = [
            Field(id: Self.description, label: "Description", input: .text(state.description), hint: "1 to \(state.descriptionLimit) characters", error: state.errors[Self.description]),
            Field(id: Self.amount, label: "Amount", input: .money(state.amount, currency: state.currency, decimals: state.decimals), hint: "like 12.50", error: state.errors[Self.amount]),
            Field(id: Self.currency, label: "Currency", input: .choice(state.currencies.map { Choice(id: ElementID($0), label: $0) }, selected: ElementID(state.currency))),
            Field(id: Self.category, label: "Category", input: .choice(state.categories.map { Choice(id: ElementID($0), label: $0.prefix(1).uppercased() + $0.dropFirst()) }, selected: ElementID(state.category))),
        ]
        // A series' occurrences fall on their own days.
        if !state.isSeries {
            fields.insert(
                Field(id: Self.day, label: "Day", input: .day(state.day, resolved: state.dayRead), hint: "yyyy-MM-dd, today, yesterday or a weekday", error: state.errors[Self.day]),
                at: 3
            )
        }
        if state.people.count > 1 {
            fields.append(Field(id: Self.youShare, label: "You share it", input: .confirm(state.youShare), error: state.errors[Self.youShare]))
            let payers = state.people.map { Choice(id: $0.id, label: $0.name) }
            fields.append(Field(id: Self.paidBy, label: "Paid by", input: .multiChoice(payers, selected: state.payers), hint: "one or several", error: state.errors[Self.paidBy]))
        }
        if let paid = state.paid {
            fields.append(Field(id: Self.paid, label: "Each paid", input: .table(paid.rows, unit: paid.unit, decimals: paid.decimals), error: state.errors[Self.paid]))
        }
        if state.sharers > 1 {
            let modes = [("equal", "Equally"), ("exact", "Exact amounts"), ("percentages", "Percentages"), ("shares", "Shares")]
            fields.append(Field(id: Self.split, label: "Split", input: .choice(modes.map { Choice(id: ElementID($0.0), label: $0.1) }, selected: ElementID(state.mode))))
            if let parts = state.parts {
                fields.append(Field(id: Self.parts, label: "Parts", input: .table(parts.rows, unit: parts.unit, decimals: parts.decimals), error: state.errors[Self.parts]))
            }
        }
        fields.append(Field(id: Self.note, label: "Note", input: .text(state.note), hint: "optional", error: state.errors[Self.note], isOptional: true))
        // Only someone in a group has one to file it under.
        if !state.groups.isEmpty {
            let options = [Choice(id: AddExpenseViewModel.noGroup, label: "No group")] + state.groups.map { Choice(id: $0.id, label: $0.name) }
            fields.append(Field(id: Self.group, label: "Group", input: .choice(options, selected: state.group), hint: "its members share it there", error: state.errors[Self.group]))
        }
        if state.canRepeat {
            let options = AddExpenseViewModel.repeating.map { Choice(id: $0.id, label: $0.label) }
            fields.append(Field(
                id: Self.repeats, label: "Repeats", input: .choice(options, selected: ElementID(state.repeats)),
                hint: "each time on its day, as an expense of its own"
            ))
            if let every = state.repeatEvery {
                let unit = state.repeats == "daily" ? "days" : "weeks"
                fields.append(Field(
                    id: Self.repeatEvery, label: "Every how many \(unit)", input: .text(every), hint: unit == "days" ? "1 to 366" : "1 to 52",
                    error: state.errors[Self.repeatEvery]
                ))
            }
            if state.repeats != AddExpenseViewModel.neverRepeats.rawValue {
                fields.append(Field(
                    id: Self.repeatUntil, label: "Until", input: .text(state.repeatUntil), hint: "optional: the last day it may fall on, yyyy-MM-dd",
                    error: state.errors[Self.repeatUntil], isOptional: true
                ))
            }
        }

        return Screen(
            id: Self.screenID,
            title: state.isSeries ? "Edit the series" : state.isEditing ? "Edit an expense" : "Add an expense",
            text: [others.isEmpty ? "A personal expense: only you are in it." : "With " + (["you"] + others).listedInWords + "."],
            fields: fields,
            actions: [
                Action(Tap.save, label: "Save", role: .primary),
                Action(Tap.people, label: "Change who shares it"),
                .cancel,
            ],
            status: state.phase.status(busy: "Saving"),
            footer: state.preview
        )
    }
}
