/// Where expenses, settlements, balances and activity are kept.
///
/// Everything one `write` does is one transaction: a throw inside the body rolls it all back.
public protocol ExpensesStore: Sendable {
    func read<T: Sendable>(_ body: @escaping @Sendable (any ExpensesReading) throws -> T) async throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (any ExpensesWriting) throws -> T) async throws -> T
    /// Adds an expense: everything `addition` writes, or nothing. A balance it takes past its
    /// limit, or past 64 bits, refuses it with ``ExpensesDataError/outOfRange``.
    ///
    /// By default a write of its own; a store serving many writers may put additions that
    /// arrive together in one transaction, as long as each lands or is refused as if alone.
    func add(_ addition: ExpenseAddition) async throws
}

/// Look-ups inside a transaction.
public protocol ExpensesReading {
    func expense(id: String) throws -> StoredExpense?
    /// The balances of the pairs `user` is in, by index (no scan of expenses).
    func balances(of user: String) throws -> [BalanceRecord]
    /// The changes that involve `user`, newest first.
    func activity(of user: String, offset: Int, limit: Int) throws -> [ActivityRecord]
    /// Every line of `user`'s activity, by subject and id, oldest first: all of it, without the
    /// lines themselves.
    func activityKeys(of user: String) throws -> [(subject: String, id: String)]
    /// The ids of the expenses `user` pays or shares, newest first (day, then creation).
    func expenseIDs(of user: String, offset: Int, limit: Int) throws -> [String]
    /// The other people in `user`'s newest `scanning` expenses, the most recent first.
    func recentPeople(of user: String, scanning: Int) throws -> [String]
    /// The ids of the expenses both `user` and `other` are in, in the same order.
    func expenseIDs(sharedBy user: String, with other: String, offset: Int, limit: Int) throws -> [String]
    /// A deleted expense, as it was when deleted.
    func deletedExpense(id: String) throws -> StoredExpense?
    /// The ids of the deleted expenses `user` was in, the most recently deleted first.
    func deletedExpenseIDs(of user: String, offset: Int, limit: Int) throws -> [String]
    func settlement(id: String) throws -> SettlementRecord?
    /// The activity lines about expense or payment `id`, oldest first: its changes, each with
    /// the expense or payment as it left it where that was kept.
    func changes(ofExpense id: String) throws -> [ActivityRecord]
    /// The payments `user` made or received, newest first.
    func settlements(of user: String, offset: Int, limit: Int) throws -> [SettlementRecord]
    /// The sums of `user`'s parts by category, and by month.
    /// (`from` and `through` are days, `yyyy-MM-dd`, both included.)
    func spending(of user: String, from: String, through: String) throws -> (byCategory: [SpendingRecord], byMonth: [SpendingRecord])

    /// The balances of the pairs in `group`, by index.
    func groupBalances(in group: String) throws -> [GroupBalanceRecord]
    /// The balances `user` has within groups, every group's, by index.
    func groupBalances(of user: String) throws -> [GroupBalanceRecord]
    /// The ids of the expenses filed under `group`, newest first (day, then creation).
    func expenseIDs(inGroup group: String, offset: Int, limit: Int) throws -> [String]
    /// The payments made within `group`, newest first.
    func settlements(inGroup group: String, offset: Int, limit: Int) throws -> [SettlementRecord]
    /// The sums of the parts of `group`'s expenses by person, and of their amounts by category,
    /// each per currency (a record's `group` is the person's id or the category).
    func totals(inGroup group: String) throws -> (byMember: [SpendingRecord], byCategory: [SpendingRecord])

    /// Every expense's people, expense by expense (their rows together), then every payment,
    /// then every kept balance, a row at a time: what a recount of the whole ledger reads.
    /// Not a user's read: only the store's owner checks the whole ledger.
    func forEachLedgerRow(
        expensePerson: (LedgerRow) throws -> Void, settlement: (SettlementRecord) throws -> Void, balance: (BalanceRecord) throws -> Void
    ) throws
    /// Every kept balance within a group, a row at a time (after ``forEachLedgerRow``, for the
    /// same recount).
    func forEachGroupBalance(_ body: (GroupBalanceRecord) throws -> Void) throws
    /// The ones among `keys` that `user` imported before, or that are the id of an expense or a
    /// payment `user` is in (a Flows export read back into the ledger it came from).
    func importedKeys(of user: String, among keys: [String]) throws -> Set<String>
    /// The comments on expense `id`, oldest first (by time, then id).
    func comments(onExpense id: String) throws -> [CommentRecord]
    /// Comment `id`, on whichever expense; nil for none.
    func comment(id: String) throws -> CommentRecord?
    func series(id: String) throws -> SeriesRecord?
    /// The series `user` is in (by their template), by when they were made.
    func series(of user: String) throws -> [SeriesRecord]
    /// Every series whose end is not before `day`: what a round of due occurrences reads.
    func seriesRunning(on day: String) throws -> [SeriesRecord]
    /// The series expense `id` is an occurrence of, and its day there.
    func occurrence(ofExpense id: String) throws -> (series: String, day: String)?
    /// The last day an occurrence of series `id` was made for (nil for none).
    func lastOccurrence(ofSeries id: String) throws -> String?
    /// Every occurrence made of series `id`, by day: the day and the expense made for it.
    func occurrences(ofSeries id: String) throws -> [(day: String, expense: String)]
}

/// One person in one expense, for a recount: the expense's amount and currency, what the
/// person paid (if anything) and their part (if any), each with its place in the expense's list
/// (the order its balances are paired in).
public struct LedgerRow: Equatable, Sendable {
    public var expense: String
    public var amount: Int64
    public var currency: String
    public var user: String
    public var paid: Int64?
    public var paidPosition: Int64?
    public var part: Int64?
    public var partPosition: Int64?
    /// The group the expense is filed under, if any.
    public var group: String?

    public init(
        expense: String, amount: Int64, currency: String, user: String,
        paid: Int64?, paidPosition: Int64? = nil, part: Int64?, partPosition: Int64? = nil, group: String? = nil
    ) {
        self.group = group
        self.expense = expense
        self.amount = amount
        self.currency = currency
        self.user = user
        self.paid = paid
        self.paidPosition = paidPosition
        self.part = part
        self.partPosition = partPosition
    }
}

/// Changes inside a transaction.
public protocol ExpensesWriting: ExpensesReading {
    func insert(_ expense: StoredExpense) throws
    /// Removes an expense for good (an edit writes it again).
    func deleteExpense(id: String) throws
    /// Moves an expense out of every list, balance and recount, keeping it to restore.
    func moveToDeleted(id: String, by user: String, at: Double) throws
    /// Moves a deleted expense back where it was.
    func restoreDeleted(id: String) throws
    func insert(_ settlement: SettlementRecord) throws
    func deleteSettlement(id: String) throws
    /// Adds `amount` (signed) to what `high` owes `low` and returns the new balance; a pair that
    /// reaches zero is removed. Throws ``ExpensesDataError/outOfRange`` when the sum does not
    /// fit in 64 bits.
    @discardableResult
    func addToBalance(low: String, high: String, currency: String, amount: Int64) throws -> Int64
    /// The same for the pair's balance within `group` (which the overall balance includes:
    /// the caller moves both).
    @discardableResult
    func addToGroupBalance(group: String, low: String, high: String, currency: String, amount: Int64) throws -> Int64
    func insert(_ activity: ActivityRecord) throws
    /// Removes line `id` of `subject`'s activity, for everyone (a replica's line that the server
    /// gives anew).
    func deleteActivity(id: String, subject: String) throws
    /// Whether the two people are in one expense or one payment together (a deleted expense
    /// does not count: ``renamePerson(from:to:)`` drops the ones they share).
    func shareAnything(_ person: String, _ other: String) throws -> Bool
    /// Puts `to` wherever `from` is named: in expenses (deleted ones too, dropping those both
    /// were in), payments and activity (not balances, which the caller moves with
    /// ``addToBalance(low:high:currency:amount:)``).
    func renamePerson(from: String, to: String) throws
    /// Notes that `user` imported the entry `key`, written as `subject` (an expense or a payment).
    func recordImport(of user: String, key: String, subject: String, at: Double) throws
    func insert(_ series: SeriesRecord) throws
    /// Replaces the series with the same id (its template, end and version).
    func update(_ series: SeriesRecord) throws
    /// Claims day `day` of series `series` for expense `expense`: false when that day was
    /// claimed already (by this process or another), and then nothing is written.
    func claimOccurrence(series: String, day: String, expense: String) throws -> Bool
    func insert(_ comment: CommentRecord) throws
    /// Deletes comment `id` on expense `expense`; false when there was none.
    func deleteComment(id: String, onExpense expense: String) throws -> Bool
}

/// Failures a store reports in terms the domain can act on.
public enum ExpensesDataError: Error, Equatable, Sendable {
    /// A balance would not fit the store's integers, or would go past the limit the write set.
    case outOfRange
    /// A constraint of the store refused the write; the text says which.
    case refused(String)
}
