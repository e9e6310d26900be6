import DataChanges

/// A transaction's writes, each noting what it changed and for whom, then done by `base`: each
/// expense added, changed, deleted or restored, or commented on, for everyone in it (before and
/// after), and each payment made or taken back, for everyone it names; each expense or payment
/// filed under a group for the group's audience too (``Change/audience(ofGroup:)``: its members
/// see it in the group's ledger). (Whose balances a write moved the store's own transaction
/// notes, pair by pair.)
public struct NotingExpensesWriting: ExpensesWriting {
    /// The transaction it wraps, whose reads it passes on as they are
    /// (NotingExpensesWriting+Reading.swift, which Scripts/generate-services writes).
    let base: any ExpensesWriting
    private let people: ChangedPeople

    public init(_ base: any ExpensesWriting, noting people: ChangedPeople) {
        self.base = base
        self.people = people
    }

    public func insert(_ expense: StoredExpense) throws {
        noteChanged(expense)
        try base.insert(expense)
    }

    public func deleteExpense(id: String) throws {
        try expenseChanged(id)
        try base.deleteExpense(id: id)
    }

    public func moveToDeleted(id: String, by user: String, at: Double) throws {
        try expenseChanged(id)
        try base.moveToDeleted(id: id, by: user, at: at)
    }

    public func restoreDeleted(id: String) throws {
        if let expense = try base.deletedExpense(id: id) { noteChanged(expense) }
        try base.restoreDeleted(id: id)
    }

    public func insert(_ settlement: SettlementRecord) throws {
        noteChanged(settlement)
        try base.insert(settlement)
    }

    public func deleteSettlement(id: String) throws {
        if let settlement = try base.settlement(id: id) { noteChanged(settlement) }
        try base.deleteSettlement(id: id)
    }

    public func insert(_ comment: CommentRecord) throws {
        // An expense's comments come with it.
        try expenseChanged(comment.expense)
        try base.insert(comment)
    }

    public func deleteComment(id: String, onExpense expense: String) throws -> Bool {
        try expenseChanged(expense)
        return try base.deleteComment(id: id, onExpense: expense)
    }

    public func renamePerson(from: String, to: String) throws {
        // A contact merged into an account: everything the contact was in is now the account's,
        // and reads otherwise for everyone else in it.
        let expenses = try base.expenseIDs(of: from, offset: 0, limit: Self.everything)
        let payments = try base.settlements(of: from, offset: 0, limit: Self.everything).map(\.id)
        // The contact's lines of activity become the account's, oldest first.
        for line in try base.activity(of: from, offset: 0, limit: Self.everything).reversed() {
            people.changed(.activity, Change.activityID(subject: line.subject, line: line.id), for: [to])
        }
        try base.renamePerson(from: from, to: to)
        for id in expenses { try expenseChanged(id) }
        for id in payments {
            if let settlement = try base.settlement(id: id) { noteChanged(settlement) }
        }
    }

    /// A page that holds every row of a list.
    private static let everything = Int(Int32.max)

    /// Everyone in expense `id` as it is now (before the write changes it).
    private func expenseChanged(_ id: String) throws {
        if let expense = try base.expense(id: id) { noteChanged(expense) }
    }

    private func noteChanged(_ expense: StoredExpense) { people.changed(expense) }
    private func noteChanged(_ settlement: SettlementRecord) { people.changed(settlement) }

    // MARK: - Passed on as they are

    @discardableResult
    public func addToBalance(low: String, high: String, currency: String, amount: Int64) throws -> Int64 {
        try base.addToBalance(low: low, high: high, currency: currency, amount: amount)
    }
    @discardableResult
    public func addToGroupBalance(group: String, low: String, high: String, currency: String, amount: Int64) throws -> Int64 {
        try base.addToGroupBalance(group: group, low: low, high: high, currency: currency, amount: amount)
    }
    public func insert(_ activity: ActivityRecord) throws {
        people.changed(.activity, Change.activityID(subject: activity.subject, line: activity.id), for: activity.people)
        try base.insert(activity)
    }
    public func deleteActivity(id: String, subject: String) throws { try base.deleteActivity(id: id, subject: subject) }
    public func shareAnything(_ person: String, _ other: String) throws -> Bool { try base.shareAnything(person, other) }
    public func recordImport(of user: String, key: String, subject: String, at: Double) throws {
        try base.recordImport(of: user, key: key, subject: subject, at: at)
    }
    public func insert(_ series: SeriesRecord) throws {
        people.changed(.series, series.id, for: series.people)
        try base.insert(series)
    }
    public func update(_ series: SeriesRecord) throws {
        // Everyone in it before and after: one edited out no longer sees it.
        people.changed(.series, series.id, for: Set(series.people).union(try base.series(id: series.id)?.people ?? []))
        try base.update(series)
    }
    public func claimOccurrence(series: String, day: String, expense: String) throws -> Bool {
        if let kept = try base.series(id: series) { people.changed(.series, series, for: kept.people) }
        return try base.claimOccurrence(series: series, day: day, expense: expense)
    }

}

extension ChangedPeople {
    /// Notes that `expense` changed for everyone in it, and for its group's audience.
    public func changed(_ expense: StoredExpense) {
        changed(.expense, expense.id, for: expense.people)
        if let group = expense.group { changed(.expense, expense.id, forGroup: group) }
    }

    /// Notes that payment `settlement` changed for everyone it names, and for its group's
    /// audience.
    public func changed(_ settlement: SettlementRecord) {
        changed(.payment, settlement.id, for: settlement.people)
        if let group = settlement.group { changed(.payment, settlement.id, forGroup: group) }
    }
}

extension StoredExpense {
    /// Everyone who pays or shares it.
    public var people: Set<String> { Set(payers.map(\.user) + parts.map(\.user)) }
}
