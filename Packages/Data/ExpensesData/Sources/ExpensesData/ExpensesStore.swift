/// Where expenses, settlements, balances and activity are kept.
///
/// Everything one `write` does is one transaction: a throw inside the body rolls it all back.
public protocol ExpensesStore: Sendable {
    func read<T: Sendable>(_ body: @escaping @Sendable (any ExpensesReading) throws -> T) async throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (any ExpensesWriting) throws -> T) async throws -> T
}

/// Look-ups inside a transaction.
public protocol ExpensesReading {
    func expense(id: String) throws -> StoredExpense?
    /// The balances of the pairs `user` is in, by index (no scan of expenses).
    func balances(of user: String) throws -> [BalanceRecord]
    /// The balances in a currency between any two of `people`.
    func balances(among people: Set<String>, in currency: String) throws -> [BalanceRecord]
    func activity(of user: String, limit: Int) throws -> [ActivityRecord]
    /// The ids of the expenses `user` pays or shares, newest first (day, then creation).
    func expenseIDs(of user: String, offset: Int, limit: Int) throws -> [String]
    /// The ids of the expenses both `user` and `other` are in, in the same order.
    /// The other people in `user`'s newest `scanning` expenses, the most recent first.
    func recentPeople(of user: String, scanning: Int) throws -> [String]
    func expenseIDs(sharedBy user: String, with other: String, offset: Int, limit: Int) throws -> [String]
    func settlement(id: String) throws -> SettlementRecord?
    /// The payments `user` made or received, newest first.
    func settlements(of user: String, offset: Int, limit: Int) throws -> [SettlementRecord]
    /// The sums of `user`'s parts by category, and by month.
    func spending(of user: String) throws -> (byCategory: [SpendingRecord], byMonth: [SpendingRecord])
}

/// Changes inside a transaction.
public protocol ExpensesWriting: ExpensesReading {
    func insert(_ expense: StoredExpense) throws
    func deleteExpense(id: String) throws
    func insert(_ settlement: SettlementRecord) throws
    func deleteSettlement(id: String) throws
    /// Adds `amount` (signed) to what `high` owes `low` and returns the new balance; a pair that
    /// reaches zero is removed. Throws ``ExpensesDataError/outOfRange`` when the sum does not
    /// fit in 64 bits.
    @discardableResult
    func addToBalance(low: String, high: String, currency: String, amount: Int64) throws -> Int64
    func insert(_ activity: ActivityRecord) throws
    /// Whether the two people are in one expense or one payment together.
    func shareAnything(_ person: String, _ other: String) throws -> Bool
    /// Puts `to` wherever `from` is named: in expenses, payments and activity (not balances,
    /// which the caller moves with ``addToBalance(low:high:currency:amount:)``).
    func renamePerson(from: String, to: String) throws
}

/// Failures a store reports in terms the domain can act on.
public enum ExpensesDataError: Error, Equatable, Sendable {
    /// A balance would not fit the store's integers.
    case outOfRange
    /// A constraint of the store refused the write; the text says which.
    case refused(String)
}
