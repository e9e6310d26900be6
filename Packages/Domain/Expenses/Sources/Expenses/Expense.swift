import Primitives

/// The identifier of an expense or a settlement.
public struct ExpenseID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// What an expense was for, for reports.
public enum Category: String, Sendable, Codable, CaseIterable, SavedAsText {
    case general, food, groceries, transport, housing, utilities, entertainment, travel, health, shopping, gifts, other
}

/// Someone who paid for an expense, and how much.
public struct Payer: Equatable, Sendable, Codable {
    public let user: UserID
    public let amount: Money

    public init(user: UserID, amount: Money) {
        self.user = user
        self.amount = amount
    }
}

/// What a user fills in to add or edit an expense.
public struct ExpenseDraft: Equatable, Sendable {
    public var description: String
    public var amount: Money
    public var day: Day
    public var category: Category
    /// Who paid and how much; the amounts add up to the expense's amount.
    public var payers: [Payer]
    /// Who shares it (just the user, for a personal expense).
    public var participants: [UserID]
    public var rule: SplitRule
    /// Anything else worth keeping (where, what for); nil or blank for none.
    public var note: String?
    /// The group it is filed under, if any: then everyone in it is a member of the group.
    public var group: GroupID?

    public init(
        description: String, amount: Money, day: Day, category: Category, payers: [Payer], participants: [UserID],
        rule: SplitRule, note: String? = nil, group: GroupID? = nil
    ) {
        self.group = group
        self.description = description
        self.amount = amount
        self.day = day
        self.category = category
        self.payers = payers
        self.participants = participants
        self.rule = rule
        self.note = note
    }
}

/// An expense as recorded: checked, with its split worked out.
public struct Expense: Equatable, Sendable {
    public let id: ExpenseID
    public let description: String
    public let day: Day
    public let category: Category
    public let payers: [Payer]
    public let split: Split
    /// The rule the split was made by, as given: what an edit starts from.
    public let rule: SplitRule
    public let note: String?
    /// The group it is filed under, if any.
    public let group: GroupID?
    /// Which change of the expense this is: 1 when added, one more with each edit. An edit or a
    /// delete names the version it was made from, and is refused when the expense has changed
    /// since (``ExpensesError/changedSince(_:version:)``).
    public private(set) var version: Int

    /// The most characters a description may have (at least one).
    public static let descriptionLimit = 100
    /// The most characters a note may have.
    public static let noteLimit = 500
    /// The most people in one expense, paying and sharing.
    public static let peopleLimit = 200

    public var amount: Money { split.amount }

    /// How the expense is named in sentences and lists: `Dinner, 30.00 EUR`.
    public var summary: String { "\(description), \(amount)" }

    /// Checks a draft against every rule and works out its split.
    public init(id: ExpenseID, draft: ExpenseDraft, version: Int = 1) throws(ExpenseProblem) {
        try self.init(id: id, draft: draft, split: nil, version: version)
    }

    /// An expense as it was recorded: its draft checked against every rule, and `split` the one
    /// kept with it (``Split/init(amount:recorded:rule:)``), which must be of the draft's amount
    /// and people, in their order. Its texts are read as kept: invisible characters, refused in
    /// new text since, do not make an older expense unreadable.
    public init(id: ExpenseID, draft: ExpenseDraft, recorded split: Split, version: Int = 1) throws(ExpenseProblem) {
        try self.init(id: id, draft: draft, split: split, version: version)
    }

    private init(id: ExpenseID, draft: ExpenseDraft, split given: Split?, version: Int) throws(ExpenseProblem) {
        // The draft's rules (DraftRules.swift), the first broken one refused; then the split's.
        let rules: [ExpenseProblem?] = [
            ExpenseDraft.problem(description: draft.description, asRecorded: given != nil),
            ExpenseDraft.problem(amount: draft.amount),
            ExpenseDraft.problem(note: draft.note, asRecorded: given != nil),
            ExpenseDraft.problem(people: draft.participants, payers: draft.payers.map(\.user)),
            ExpenseDraft.problem(payers: draft.payers.map(\.user)),
            ExpenseDraft.problem(payments: draft.payers, of: draft.amount),
        ]
        if let problem = rules.lazy.compactMap({ $0 }).first { throw problem }
        let description = draft.description.trimmingWhitespace()
        let note = draft.note?.trimmingWhitespace() ?? ""
        if let given {
            guard given.amount == draft.amount, given.parts.map(\.user) == draft.participants else {
                throw .split(.partsDoNotMatchParticipants)
            }
            split = given
        } else {
            do {
                split = try Split(amount: draft.amount, participants: draft.participants, rule: draft.rule)
            } catch {
                throw .split(error)
            }
        }
        self.id = id
        self.version = max(1, version)
        self.description = description
        self.note = note.isEmpty ? nil : note
        rule = draft.rule
        group = draft.group
        day = draft.day
        category = draft.category
        payers = draft.payers
    }

    /// The same expense as the given version of it.
    public func at(version: Int) -> Expense {
        var copy = self
        copy.version = max(1, version)
        return copy
    }

    /// What is different in this expense from `old`, in words, for someone who saw `old`:
    /// `the amount (30.00 EUR → 45.00 EUR)`, `who paid`. Empty when only the version differs.
    public func changes(from old: Expense) -> [String] {
        var changes: [String] = []
        if description != old.description { changes.append("the description (\(old.description) → \(description))") }
        if amount != old.amount { changes.append("the amount (\(old.amount) → \(amount))") }
        if day != old.day { changes.append("the day (\(old.day) → \(day))") }
        if category != old.category { changes.append("the category (\(old.category.rawValue) → \(category.rawValue))") }
        // One payer paying a new amount paid the whole of it, as before: not another change.
        if payers.map(\.user) != old.payers.map(\.user) || (payers.count > 1 && payers != old.payers) { changes.append("who paid") }
        // Parts that moved only with the amount are not another change.
        if rule != old.rule || split.parts.map(\.user) != old.split.parts.map(\.user) { changes.append("how it is split") }
        if note != old.note { changes.append("the note") }
        if group != old.group { changes.append("the group") }
        return changes
    }

    /// The draft that records it again as it is: what restoring this version of it writes.
    public var draft: ExpenseDraft {
        ExpenseDraft(
            description: description, amount: amount, day: day, category: category, payers: payers,
            participants: split.parts.map(\.user), rule: rule, note: note, group: group
        )
    }

    /// Whether only one person is in it, paying and sharing: the user's own spending.
    public var isPersonal: Bool {
        Set(payers.map(\.user) + split.parts.map(\.user)).count == 1
    }

    /// Everyone in the expense, paying or sharing.
    public var people: Set<UserID> { Set(payers.map(\.user) + split.parts.map(\.user)) }
}

/// Why a draft is not an expense.
public enum ExpenseProblem: Error, Equatable, Sendable {
    case description
    case descriptionControlCharacters
    case descriptionInvisibleCharacters
    case noPayer
    case duplicatePayer
    case payerCurrency
    case payerAmount
    case paymentsDoNotAddUp(paid: Money?, amount: Money)
    case amountTooLarge(Currency)
    case note
    case tooManyPeople
    case split(SplitProblem)

    public var message: String {
        switch self {
        case .description: "Describe it in 1 to \(Expense.descriptionLimit) characters."
        case .descriptionControlCharacters: "A description cannot contain control characters."
        case .descriptionInvisibleCharacters: "A description cannot contain invisible characters (zero-width or direction marks)."
        case .noPayer: "Say who paid."
        case .duplicatePayer: "Each payer appears once."
        case .payerCurrency: "Payments must be in the expense's currency."
        case .payerAmount: "Each payer pays more than zero."
        case .paymentsDoNotAddUp(let paid?, let amount): "The payments add up to \(paid), not \(amount)."
        case .paymentsDoNotAddUp(nil, let amount): "The payments add up to more than \(amount)."
        case .amountTooLarge(let currency): "An amount is at most \(LedgerLimits.largest(currency))."
        case .note: "A note is at most \(Expense.noteLimit) characters, without control or invisible characters (zero-width or direction marks)."
        case .tooManyPeople: "An expense has at most \(Expense.peopleLimit) people, paying and sharing."
        case .split(let problem): problem.message
        }
    }
}
