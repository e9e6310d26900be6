/// A new expense and everything adding it writes: its rows, the balances it moves and its line
/// of activity. All of it lands, or none of it.
public struct ExpenseAddition: Equatable, Sendable {
    public var expense: StoredExpense
    /// The balance changes, in the order they apply.
    public var balanceChanges: [BalanceChange]
    public var activity: ActivityRecord
    /// A balance taken beyond this many minor units, either way, refuses the addition
    /// (``ExpensesDataError/outOfRange``), even if a later change of the same addition would
    /// bring it back.
    public var balanceLimit: Int64

    public init(expense: StoredExpense, balanceChanges: [BalanceChange], activity: ActivityRecord, balanceLimit: Int64) {
        self.expense = expense
        self.balanceChanges = balanceChanges
        self.activity = activity
        self.balanceLimit = balanceLimit
    }
}

/// A change to a pair's balance in one currency: `amount` (signed) more owed by `high` to `low`.
public struct BalanceChange: Equatable, Sendable {
    public var low: String
    public var high: String
    public var currency: String
    public var amount: Int64

    public init(low: String, high: String, currency: String, amount: Int64) {
        self.low = low
        self.high = high
        self.currency = currency
        self.amount = amount
    }
}

extension ExpensesStore {
    /// Adds in one write of its own.
    public func add(_ addition: ExpenseAddition) async throws {
        try await write { try $0.add(addition) }
    }
}

extension ExpensesWriting {
    /// Writes `addition` inside this transaction: the expense, each balance change in turn
    /// (checked against the limit as it lands, and repeated in the expense's group when it has
    /// one), then the activity line.
    public func add(_ addition: ExpenseAddition) throws {
        try insert(addition.expense)
        for change in addition.balanceChanges {
            let balance = try addToBalance(low: change.low, high: change.high, currency: change.currency, amount: change.amount)
            guard balance.magnitude <= addition.balanceLimit.magnitude else { throw ExpensesDataError.outOfRange }
            // An expense in a group moves the pair's balance there too.
            if let group = addition.expense.group {
                let inGroup = try addToGroupBalance(group: group, low: change.low, high: change.high, currency: change.currency, amount: change.amount)
                guard inGroup.magnitude <= addition.balanceLimit.magnitude else { throw ExpensesDataError.outOfRange }
            }
        }
        try insert(addition.activity)
    }
}
