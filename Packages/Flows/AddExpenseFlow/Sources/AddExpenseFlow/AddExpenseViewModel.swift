import Expenses
import FlowKit
import FormFields
import Friends
import Groups
import Primitives

/// What the expense form shows, in plain values: every answer as typed, each field's message,
/// the tables the split needs, and the parts the answers come to.
struct AddExpenseViewState: Equatable, Sendable {
    struct Table: Equatable, Sendable {
        var unit: String
        var decimals: Int
        var rows: [TableRow]
    }

    /// The most characters a description may have, for the field's hint.
    var descriptionLimit = Expense.descriptionLimit

    var people: [(id: ElementID, name: String)]
    var description: String
    var amount: String
    var currency: String
    var decimals: Int
    var currencies: [String]
    var day: String
    var dayRead: String?
    var category: String
    var categories: [String]
    var youShare: Bool
    var payers: [ElementID]
    var paid: Table?
    var sharers: Int
    var mode: String
    var parts: Table?
    var note: String
    /// The groups it may be filed under (none when the user is in none), and the one chosen.
    var groups: [(id: ElementID, name: String)]
    var group: ElementID
    var errors: [ElementID: String]
    var preview: [String]
    var phase: Phase
    /// An expense being edited, not a new one.
    var isEditing = false
    /// A series' template being edited: its day is the series' own, not asked.
    var isSeries = false
    /// Whether it can be made to repeat (a new expense, where the app keeps series), and how.
    var canRepeat = false
    var repeats = AddExpenseViewModel.neverRepeats.rawValue
    /// For a series by days or weeks: every how many.
    var repeatEvery: String?
    var repeatUntil = ""

    static func == (left: Self, right: Self) -> Bool {
        left.people.map(\.id) == right.people.map(\.id) && left.people.map(\.name) == right.people.map(\.name)
            && left.description == right.description && left.amount == right.amount && left.currency == right.currency
            && left.day == right.day && left.dayRead == right.dayRead && left.category == right.category
            && left.youShare == right.youShare && left.payers == right.payers && left.paid == right.paid
            && left.mode == right.mode && left.parts == right.parts && left.note == right.note
            && left.groups.map(\.id) == right.groups.map(\.id) && left.groups.map(\.name) == right.groups.map(\.name) && left.group == right.group
            && left.errors == right.errors && left.preview == right.preview && left.phase == right.phase
            && left.isEditing == right.isEditing && left.isSeries == right.isSeries && left.canRepeat == right.canRepeat && left.repeats == right.repeats
            && left.repeatEvery == right.repeatEvery && left.repeatUntil == right.repeatUntil
    }
}

/// The answers as the flow reads them, in the domain's values.
struct AddExpenseForm: Equatable, Sendable {
    /// Someone in the expense: the user (`you`) or a friend.
    struct Person: Equatable, Sendable {
        var id: ElementID
        var user: UserID
        var name: String
    }

    var people: [Person]
    var description = ""
    var amount = ""
    var currency: Currency
    var day = "today"
    var dayRead: String?
    var category = Category.general
    var youShare = true
    var payers: [ElementID] = [AddExpenseViewModel.you]
    /// What each payer paid, when there are several.
    var paid: [ElementID: String] = [:]
    var mode = SplitMode.equal
    /// Each sharer's exact amount, percentage or shares.
    var parts: [ElementID: String] = [:]
    var note = ""
    /// The group chosen (``AddExpenseViewModel/noGroup`` for none).
    var group = AddExpenseViewModel.noGroup
    /// How it repeats (``AddExpenseViewModel/neverRepeats`` for not at all), every how many
    /// days or weeks, and until when (empty: no end).
    var repeats = AddExpenseViewModel.neverRepeats
    var repeatEvery = "1"
    var repeatUntil = ""
    var errors: [ElementID: String] = [:]
    /// Each sharer's part as the answers stand, when they are complete.
    var preview: Split?
    var phase = Phase.idle

    /// The people who share it: everyone picked, and the user unless they left themselves out.
    var sharers: [Person] {
        people.filter { $0.id != AddExpenseViewModel.you || youShare }
    }

    var payingPeople: [Person] {
        people.filter { payers.contains($0.id) }
    }
}

/// Turns the user's answers into the form's state, checks each answer as the service will, and
/// works out the parts on every change.
struct AddExpenseViewModel: SubmittingViewModel {
    static let you: ElementID = "you"
    /// The group choice that files it under none.
    static let noGroup: ElementID = "none"
    /// The ways a new expense can repeat, the first being not at all.
    static let neverRepeats: ElementID = "never"
    static let repeating: [(id: ElementID, label: String)] = [
        (neverRepeats, "Does not repeat"), ("daily", "Every day, or every few days"), ("weekly", "Every week, or every few weeks"),
        ("monthly", "Every month, on its day"), ("yearly", "Every year"),
    ]
    /// Whether the app keeps series: a new expense offers to repeat.
    var canRepeat = false

    /// How the expense is to repeat from `day` (the day it is saved for): nil for not at all;
    /// its rule, or why not on the fields (every how many, until when).
    mutating func checkRepeat(from day: Day) -> Result<(frequency: Recurrence.Frequency, end: Recurrence.End?)?, RecurrenceProblem> {
        form.errors[AddExpenseView.repeatEvery] = nil
        form.errors[AddExpenseView.repeatUntil] = nil
        let every = Int(form.repeatEvery.trimmingWhitespace()) ?? 0
        let frequency: Recurrence.Frequency
        switch form.repeats {
        case "daily": frequency = .days(every)
        case "weekly": frequency = .weeks(every)
        case "monthly": frequency = .monthly(day: day.day)
        case "yearly": frequency = .yearly
        default: return .success(nil)
        }
        let until = form.repeatUntil.trimmingWhitespace()
        var end: Recurrence.End?
        if !until.isEmpty {
            let entry = DayEntry(until, today: today)
            guard let last = entry.day else {
                form.errors[AddExpenseView.repeatUntil] = entry.problem
                return .failure(.endBeforeStart)
            }
            end = .on(last)
        }
        do throws(RecurrenceProblem) {
            _ = try Recurrence(start: day, frequency: frequency, end: end)
            return .success((frequency, end))
        } catch {
            form.errors[error == .interval ? AddExpenseView.repeatEvery : AddExpenseView.repeatUntil] = error.message
            return .failure(error)
        }
    }

    static var examples: [AddExpenseViewState] {
        formExamples.map(\.state)
    }

    private static var formExamples: [AddExpenseViewModel] {
        guard let name = try? DisplayName("Someone"), let today = try? Day("2026-11-22") else { return [] }
        let someone = Friend(id: UserID(rawValue: "someone"), name: name, kind: .contact(email: nil))
        let me = UserID(rawValue: "me")
        var form = AddExpenseViewModel(user: me, with: [someone], currency: .eur, today: today)
        var states = [form]
        for (field, value) in [(AddExpenseView.description, " "), (AddExpenseView.amount, "0"), (AddExpenseView.day, "someday"), (AddExpenseView.note, "\u{7}")] {
            var broken = form
            broken.typed(field, value, isFinal: true)
            states.append(broken)
        }
        form.typed(AddExpenseView.amount, "1", isFinal: true)
        for mode in SplitMode.allCases {
            var split = form
            split.chose(AddExpenseView.split, [ElementID(mode.rawValue)])
            split.typed(.cell("someone", of: AddExpenseView.parts), "x", isFinal: true)
            states.append(split)
        }
        // Where the app keeps series, a new expense may repeat.
        var repeating = form
        repeating.canRepeat = true
        repeating.chose(AddExpenseView.repeats, ["monthly"])
        states.append(repeating)
        var everyFew = repeating
        everyFew.chose(AddExpenseView.repeats, ["weekly"])
        everyFew.typed(AddExpenseView.repeatEvery, "60", isFinal: true)
        everyFew.typed(AddExpenseView.repeatUntil, "2026-01-01", isFinal: true)
        _ = everyFew.checkRepeat(from: today)
        states.append(everyFew)
        var badEnd = everyFew
        badEnd.typed(AddExpenseView.repeatEvery, "2", isFinal: true)
        _ = badEnd.checkRepeat(from: today)
        states.append(badEnd)
        var paying = form
        paying.chose(AddExpenseView.paidBy, ["you", "someone"])
        paying.typed(.cell("someone", of: AddExpenseView.paid), "7", isFinal: true)
        _ = paying.check()
        states.append(paying)
        var alone = form
        alone.chose(AddExpenseView.youShare, [.no])
        alone.chose(AddExpenseView.paidBy, [])
        _ = alone.check()
        states.append(alone)
        var grouped = form
        grouped.groupsLoaded([Group(
            id: GroupID(rawValue: "g"), name: "Some group", kind: .trip, currency: .eur, simplifyDebts: true, members: [me], archived: false, createdBy: me
        )], chosen: GroupID(rawValue: "g"))
        states.append(grouped)
        for refusal in [ExpensesError.notGroupMembers([me]), .notInGroup(GroupID(rawValue: "g")), .groupArchived] {
            var refused = grouped
            refused.failed(refusal)
            states.append(refused)
        }
        var saving = form
        saving.busy()
        states.append(saving)
        saving.failed(.storeUnavailable(FlowInventory.anyDetail))
        states.append(saving)
        return states
    }

    private(set) var form: AddExpenseForm
    private let user: UserID
    private let today: Day
    /// Values the form filled in itself (parts and payments spread evenly), which follow the
    /// amount and the people until the user types one.
    private var partsAreOwn = false
    private var paidIsOwn = false
    private(set) var isEditing = false
    /// Editing what a series' later occurrences copy.
    var isSeries = false
    /// The groups it may be filed under, by their choices' identifiers.
    private var groups: [(id: ElementID, group: Group)] = []

    init(user: UserID, with friends: [Friend], currency: Currency, today: Day) {
        self.user = user
        self.today = today
        form = AddExpenseForm(people: [], currency: currency)
        peopleChanged(friends)
        readDay()
    }

    // MARK: - Answers

    /// The form of a saved expense, exactly as saved: its split's mode and each person's value,
    /// its payers and what each paid, its day, category and note.
    mutating func opened(_ expense: Expense) {
        isEditing = true
        form.description = expense.description
        form.currency = expense.amount.currency
        form.amount = expense.amount.amountText
        form.day = expense.day.description
        readDay()
        form.category = expense.category
        form.note = expense.note ?? ""
        let ids = Dictionary(form.people.map { ($0.user, $0.id) }, uniquingKeysWith: { first, _ in first })
        form.youShare = expense.split.parts.contains { $0.user == user } || form.people.count == 1
        form.payers = expense.payers.compactMap { ids[$0.user] }
        form.paid = expense.payers.count > 1
            ? Dictionary(expense.payers.compactMap { payer in ids[payer.user].map { ($0, payer.amount.amountText) } }, uniquingKeysWith: { first, _ in first })
            : [:]
        paidIsOwn = false
        form.mode = expense.rule.mode
        let values: [UserID: String] = switch expense.rule {
        case .equal: [:]
        case .exact(let parts): parts.mapValues(\.amountText)
        case .percentages(let points): points.mapValues(Self.percentText)
        case .shares(let shares): shares.mapValues { String($0) }
        }
        form.parts = Dictionary(values.compactMap { user, text in ids[user].map { ($0, text) } }, uniquingKeysWith: { first, _ in first })
        partsAreOwn = false
        refreshTables()
    }

    /// 3333 basis points as `33.33`, 5000 as `50`: what the table shows, to type over.
    static func percentText(_ points: Int) -> String {
        withoutZeroFraction(SplitRule.percentText(basisPoints: points))
    }

    /// `50.00` as `50`; anything else as it is.
    static func withoutZeroFraction(_ text: String) -> String {
        text.hasSuffix(".00") ? String(text.dropLast(3)) : text
    }

    /// The groups the user is in, and the one it starts filed under (if any).
    mutating func groupsLoaded(_ groups: [Group], chosen: GroupID?) {
        let ids = ElementID.readable(for: ["No group"] + groups.map(\.name)).dropFirst()
        self.groups = Array(zip(ids, groups))
        form.group = self.groups.first { $0.group.id == chosen }?.id ?? Self.noGroup
    }

    /// The people picked besides the user; what was typed for those still in stays.
    /// The group chosen, if any.
    var chosenGroup: Group? { groups.first { $0.id == form.group }?.group }

    /// Whether nobody but the user shares it yet.
    var sharedByNobodyElse: Bool { form.people.count == 1 }

    /// Whether the user chose its currency (rather than keeping the one it started in).
    private(set) var currencyChosen = false

    /// Filed under a group while nobody else shared it: the group's other members share it,
    /// and it is in the group's currency unless the user chose one.
    mutating func filedWithMembers(_ members: [Friend], currency: Currency) {
        peopleChanged(members)
        if !currencyChosen, currency != form.currency {
            chose(AddExpenseView.currency, [ElementID(currency.code)])
            currencyChosen = false
        }
    }

    mutating func peopleChanged(_ friends: [Friend]) {
        // What was chosen and typed goes with the person, not with a row's place.
        let users = Dictionary(form.people.map { ($0.id, $0.user) }, uniquingKeysWith: { first, _ in first })
        let payers = Set(form.payers.compactMap { users[$0] })
        let paid = Dictionary(form.paid.compactMap { id, text in users[id].map { ($0, text) } }, uniquingKeysWith: { first, _ in first })
        let parts = Dictionary(form.parts.compactMap { id, text in users[id].map { ($0, text) } }, uniquingKeysWith: { first, _ in first })
        let ids = ElementID.readable(for: ["You"] + friends.map(\.name.value))
        form.people = [AddExpenseForm.Person(id: Self.you, user: user, name: "You")]
            + zip(ids.dropFirst(), friends).map { AddExpenseForm.Person(id: $0, user: $1.id, name: $1.name.value) }
        form.payers = form.people.filter { payers.contains($0.user) }.map(\.id)
        if form.payers.isEmpty { form.payers = [Self.you] }
        form.paid = Dictionary(form.people.compactMap { person in paid[person.user].map { (person.id, $0) } }, uniquingKeysWith: { first, _ in first })
        form.parts = Dictionary(form.people.compactMap { person in parts[person.user].map { (person.id, $0) } }, uniquingKeysWith: { first, _ in first })
        if form.people.count == 1 { form.youShare = true }
        form.errors = [:]
        refreshTables()
    }

    mutating func typed(_ id: ElementID, _ text: String, isFinal: Bool) {
        switch id {
        case AddExpenseView.description: form.description = text
        case AddExpenseView.amount: form.amount = text
        case AddExpenseView.day:
            form.day = text
            readDay()
        case AddExpenseView.note: form.note = text
        case AddExpenseView.repeatEvery, AddExpenseView.repeatUntil:
            if id == AddExpenseView.repeatEvery { form.repeatEvery = text } else { form.repeatUntil = text }
            form.errors[id] = nil
            form.phase = .idle
            return
        default:
            if let row = id.row(in: AddExpenseView.parts), form.sharers.contains(where: { $0.id == row }) {
                form.parts[row] = text
                partsAreOwn = false
            } else if let row = id.row(in: AddExpenseView.paid), form.payers.contains(row) {
                form.paid[row] = text
                paidIsOwn = false
            } else {
                return
            }
        }
        form.phase = .idle
        refreshTables()
        let field = id.row(in: AddExpenseView.parts) != nil ? AddExpenseView.parts : id.row(in: AddExpenseView.paid) != nil ? AddExpenseView.paid : id
        let problem = check(field)
        // As it is typed, a message only goes away; a confirmed answer shows its own.
        if isFinal || problem == nil { form.errors[field] = problem }
        if field == AddExpenseView.amount {
            for dependent in [AddExpenseView.parts, AddExpenseView.paid] where isFinal || check(dependent) == nil {
                form.errors[dependent] = check(dependent)
            }
        }
    }

    mutating func chose(_ id: ElementID, _ options: [ElementID]) {
        switch id {
        case AddExpenseView.currency:
            guard let currency = options.first.flatMap({ Currency(code: $0.rawValue) }) else { return }
            form.currency = currency
            currencyChosen = true
        case AddExpenseView.category:
            guard let category = options.first.flatMap({ Category(rawValue: $0.rawValue) }) else { return }
            form.category = category
        case AddExpenseView.split:
            guard let mode = options.first.flatMap({ SplitMode(rawValue: $0.rawValue) }) else { return }
            form.mode = mode
            form.parts = [:]
            partsAreOwn = true
            form.errors[AddExpenseView.parts] = nil
        case AddExpenseView.group:
            guard let choice = options.first, choice == Self.noGroup || groups.contains(where: { $0.id == choice }) else { return }
            form.group = choice
            form.errors[AddExpenseView.group] = nil
        case AddExpenseView.repeats:
            guard let choice = options.first, Self.repeating.contains(where: { $0.id == choice }) else { return }
            form.repeats = choice
        case AddExpenseView.youShare:
            form.youShare = options.first != .no
            form.errors[AddExpenseView.parts] = nil
        case AddExpenseView.paidBy:
            form.payers = form.people.map(\.id).filter(options.contains)
            form.paid = [:]
            paidIsOwn = true
            form.errors[AddExpenseView.paidBy] = nil
            form.errors[AddExpenseView.paid] = nil
            if form.errors[AddExpenseView.youShare] != nil { form.errors[AddExpenseView.youShare] = check(AddExpenseView.youShare) }
        default:
            return
        }
        form.phase = .idle
        refreshTables()
        if id == AddExpenseView.youShare { form.errors[AddExpenseView.youShare] = check(AddExpenseView.youShare) }
        // A currency with fewer decimals can make the amounts typed wrong.
        if id == AddExpenseView.currency {
            for field in [AddExpenseView.amount, AddExpenseView.paid, AddExpenseView.parts] where form.errors[field] != nil || !value(of: field).isEmpty {
                form.errors[field] = check(field)
            }
        }
    }

    private func value(of field: ElementID) -> String {
        switch field {
        case AddExpenseView.amount: form.amount
        case AddExpenseView.paid: form.paid.values.joined()
        case AddExpenseView.parts: form.parts.values.joined()
        default: ""
        }
    }

    // MARK: - Reading and checking

    private mutating func readDay() {
        form.dayRead = DayEntry(form.day, today: today).read
    }


    /// The amount typed, read by Money's rules and checked by the draft's.
    private var amount: Result<Money, Refusal> {
        do throws(Money.Problem) {
            let money = try Money(parsing: form.amount, currency: form.currency)
            if let problem = ExpenseDraft.problem(amount: money) { return .failure(Refusal(problem.message)) }
            return .success(money)
        } catch {
            return .failure(Refusal(error.message))
        }
    }

    /// What is wrong with one field's answer, or nil: the domain's rules (ExpenseDraft's, and
    /// the values' own as they are read), this form only saying which field each is about.
    func check(_ field: ElementID) -> String? {
        switch field {
        case AddExpenseView.description:
            return ExpenseDraft.problem(description: form.description)?.message
        case AddExpenseView.amount:
            if case .failure(let refusal) = amount { return refusal.message }
            return nil
        case AddExpenseView.day:
            return DayEntry(form.day, today: today).problem
        case AddExpenseView.note:
            return ExpenseDraft.problem(note: form.note)?.message
        case AddExpenseView.youShare:
            let sharers = form.sharers.map(\.user)
            if let problem = ExpenseDraft.problem(participants: sharers) { return problem.message }
            let inIt = ExpenseDraft.includes(user, participants: sharers, payers: form.payingPeople.map(\.user))
            return inIt ? nil : ExpensesError.notInExpense.message
        case AddExpenseView.paidBy:
            return ExpenseDraft.problem(payers: form.payingPeople.map(\.user))?.message
        case AddExpenseView.paid:
            // One payer pays the amount; a wrong amount has its own message.
            guard form.payers.count > 1, case .success = amount else { return nil }
            if case .failure(let refusal) = payments { return refusal.message }
            return nil
        case AddExpenseView.parts:
            if case .failure(let refusal) = rule { return refusal.message }
            guard case .success(let rule) = rule, case .success(let amount) = amount else { return nil }
            return ExpenseDraft.problem(split: rule, of: amount, among: form.sharers.map(\.user))?.message
        default:
            return nil
        }
    }

    /// Who paid what: the one payer the whole amount, or each payer what they typed.
    private var payments: Result<[Payer], Refusal> {
        guard case .success(let amount) = amount else { return .failure(Refusal("Enter the amount first.")) }
        guard form.payers.count > 1 else {
            return .success(form.payingPeople.map { Payer(user: $0.user, amount: amount) })
        }
        var payers: [Payer] = []
        for person in form.payingPeople {
            do throws(Money.Problem) {
                let payer = Payer(user: person.user, amount: try Money(parsing: form.paid[person.id] ?? "", currency: form.currency))
                if let problem = ExpenseDraft.problem(payment: payer.amount, of: amount) {
                    return .failure(Refusal("\(person.name): \(problem.message)"))
                }
                payers.append(payer)
            } catch {
                return .failure(Refusal("\(person.name): \(error.message)"))
            }
        }
        if let problem = ExpenseDraft.problem(payments: payers, of: amount) { return .failure(Refusal(problem.message)) }
        return .success(payers)
    }

    /// The split rule the parts typed make, each part read by the split's rules.
    private var rule: Result<SplitRule, Refusal> {
        let sharers = form.sharers
        // One person takes the whole amount, whatever the mode (its table is not shown).
        guard sharers.count > 1 else { return .success(.equal) }
        switch form.mode {
        case .equal:
            return .success(.equal)
        case .exact:
            var parts: [UserID: Money] = [:]
            for person in sharers {
                do throws(Money.Problem) {
                    parts[person.user] = try Money(parsing: form.parts[person.id] ?? "", currency: form.currency)
                } catch {
                    return .failure(Refusal("\(person.name): \(error.message)"))
                }
            }
            return .success(.exact(parts))
        case .percentages:
            var points: [UserID: Int] = [:]
            for person in sharers {
                guard let value = SplitRule.basisPoints(typed: form.parts[person.id] ?? "") else {
                    return .failure(Refusal("\(person.name): \(SplitRule.percentageHint)"))
                }
                points[person.user] = value
            }
            return .success(.percentages(points))
        case .shares:
            var shares: [UserID: Int] = [:]
            for person in sharers {
                do throws(SplitProblem) {
                    shares[person.user] = try SplitRule.share(typed: form.parts[person.id] ?? "")
                } catch {
                    return .failure(Refusal("\(person.name): \(error.message)"))
                }
            }
            return .success(.shares(shares))
        }
    }

    // MARK: - The parts as they stand

    /// Fills in what the form fills itself (even payments and parts, one share each), then works
    /// out the parts if the answers are complete.
    private mutating func refreshTables() {
        let sharers = form.sharers
        let amount = try? self.amount.get()
        if form.payers.count > 1 {
            if paidIsOwn || form.paid.isEmpty {
                paidIsOwn = true
                form.paid = Self.evenly(amount, among: form.payingPeople.map(\.id), currency: form.currency)
            }
        } else {
            form.paid = [:]
        }
        switch form.mode {
        case .equal:
            form.parts = [:]
        case .exact where partsAreOwn || form.parts.isEmpty:
            partsAreOwn = true
            form.parts = Self.evenly(amount, among: sharers.map(\.id), currency: form.currency)
        case .percentages where partsAreOwn || form.parts.isEmpty:
            partsAreOwn = true
            let percent = Currency(code: "EUR") ?? form.currency
            form.parts = Self.evenly(Money(minorUnits: 10_000, currency: percent), among: sharers.map(\.id), currency: percent)
                .mapValues(Self.withoutZeroFraction)
        case .shares where partsAreOwn || form.parts.isEmpty:
            partsAreOwn = true
            form.parts = Dictionary(uniqueKeysWithValues: sharers.map { ($0.id, "1") })
        default:
            for person in sharers where form.parts[person.id] == nil { form.parts[person.id] = "" }
        }
        form.preview = nil
        if let amount, case .success(let rule) = rule {
            form.preview = try? Split(amount: amount, participants: sharers.map(\.user), rule: rule)
        }
    }

    /// An amount spread evenly (the leftover units to the first), as the form shows amounts.
    private static func evenly(_ amount: Money?, among ids: [ElementID], currency: Currency) -> [ElementID: String] {
        // Ties go to the smaller identifier: numbered in order, the first rows win them.
        let numbered = ids.indices.map { UserID(rawValue: String(repeating: "0", count: 8 - String($0).count) + String($0)) }
        guard let amount, !ids.isEmpty, let split = try? Split(amount: amount, participants: numbered, rule: .equal) else {
            return Dictionary(uniqueKeysWithValues: ids.map { ($0, "") })
        }
        return Dictionary(uniqueKeysWithValues: zip(ids, split.parts).map { ($0, $1.amount.amountText) })
    }

    /// Who got each leftover unit and why, one sentence each, the user as "You" (none when
    /// every part is exact).
    static func extraUnits(of split: Split, names: [UserID: String], you: UserID) -> [String] {
        split.extraUnits.isEmpty ? [] : split.explanation(naming: { names[$0] ?? "Someone" }, you: you)
    }

    /// Each part in words, and who got each leftover unit and why.
    var previewLines: [String] {
        guard let split = form.preview else {
            return ["Parts: they show here once the amount and the split are complete."]
        }
        let names = Dictionary(form.people.map { ($0.user, $0.name) }, uniquingKeysWith: { first, _ in first })
        var lines = ["Parts: " + split.parts.map { "\(names[$0.user] ?? "Someone") \($0.amount)" }.joined(separator: ", ") + "."]
        lines += Self.extraUnits(of: split, names: names, you: user)
        if split.extraUnits.isEmpty, form.sharers.count > 1 { lines.append("Every part is exact: no unit is left over.") }
        return lines
    }

    /// What the screen shows now.
    var state: AddExpenseViewState {
        let code = form.currency.code
        let paid = form.payers.count > 1
            ? AddExpenseViewState.Table(unit: code, decimals: form.currency.decimals, rows: form.payingPeople.map { TableRow(id: $0.id, label: $0.name, value: form.paid[$0.id] ?? "") })
            : nil
        let table: (unit: String, decimals: Int)? = switch form.mode {
        case .equal: nil
        case .exact: (code, form.currency.decimals)
        case .percentages: ("%", 2)
        case .shares: ("shares", 0)
        }
        let parts = table.map { table in
            AddExpenseViewState.Table(unit: table.unit, decimals: table.decimals, rows: form.sharers.map { person in
                TableRow(id: person.id, label: person.name, value: form.parts[person.id] ?? "", note: form.preview?.amount(for: person.user).map { "→ \($0)" })
            })
        }
        return AddExpenseViewState(
            people: form.people.map { ($0.id, $0.name) }, description: form.description, amount: form.amount, currency: code,
            decimals: form.currency.decimals, currencies: Currency.all.map(\.code), day: form.day, dayRead: form.dayRead,
            category: form.category.rawValue, categories: Category.allCases.map(\.rawValue), youShare: form.youShare, payers: form.payers,
            paid: paid, sharers: form.sharers.count, mode: form.mode.rawValue, parts: parts, note: form.note,
            groups: groups.map { (id: $0.id, name: $0.group.name) }, group: form.group, errors: form.errors,
            preview: previewLines, phase: form.phase, isEditing: isEditing, isSeries: isSeries, canRepeat: canRepeat && !isEditing,
            repeats: form.repeats.rawValue, repeatEvery: ["daily", "weekly"].contains(form.repeats.rawValue) ? form.repeatEvery : nil,
            repeatUntil: form.repeatUntil
        )
    }

    /// Each person's name (the user's own is "You").
    var names: [UserID: String] {
        Dictionary(form.people.map { ($0.user, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: - Saving

    /// Checks every answer; the draft to save, or nil with every message shown.
    mutating func check() -> ExpenseDraft? {
        let fields = [AddExpenseView.description, AddExpenseView.amount, AddExpenseView.day, AddExpenseView.youShare, AddExpenseView.paidBy, AddExpenseView.paid, AddExpenseView.parts, AddExpenseView.note]
        for field in fields { form.errors[field] = check(field) }
        guard form.errors.isEmpty,
              case .success(let amount) = amount, case .success(let payers) = payments, case .success(let rule) = rule,
              let day = DayEntry(form.day, today: today).day
        else { return nil }
        let note = form.note.trimmingWhitespace()
        return ExpenseDraft(
            description: form.description, amount: amount, day: day, category: form.category,
            payers: payers, participants: form.sharers.map(\.user), rule: rule, note: note.isEmpty ? nil : note,
            group: groups.first { $0.id == form.group }?.group.id
        )
    }

    mutating func busy() {
        form.phase = .loading
    }

    /// A refusal from the ledger goes under the field it is about; anything else is the form's error.
    mutating func failed(_ error: ExpensesError) {
        form.phase = .idle
        switch error {
        case .notInExpense:
            form.errors[AddExpenseView.youShare] = error.message
            return
        case .notGroupMembers, .notInGroup, .groupArchived:
            form.errors[AddExpenseView.group] = error.message
            return
        default:
            break
        }
        guard case .invalid(let problem) = error else {
            form.phase = .failed(error.message)
            return
        }
        let field: ElementID = switch problem {
        case .description, .descriptionControlCharacters, .descriptionInvisibleCharacters: AddExpenseView.description
        case .amountTooLarge: AddExpenseView.amount
        case .note: AddExpenseView.note
        case .noPayer, .duplicatePayer: AddExpenseView.paidBy
        case .payerCurrency, .payerAmount, .paymentsDoNotAddUp: AddExpenseView.paid
        case .split(.noParticipants), .split(.duplicateParticipant), .tooManyPeople: AddExpenseView.youShare
        case .split(.amountNotPositive): AddExpenseView.amount
        case .split: AddExpenseView.parts
        }
        form.errors[field] = problem.message
    }
}
