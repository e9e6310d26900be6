import ExpensesData
import PostgresStore

/// The values of a statement's parameters, and the text of rows of them for VALUES lists.
struct Parameters {
    private(set) var values: [any SQLValueConvertible] = []

    /// `($n, $n+1, ...)` for `row`, whose values are bound in that order.
    mutating func row(_ row: [any SQLValueConvertible]) -> String {
        let first = values.count
        values += row
        return "(" + (1...row.count).map { "$\(first + $0)" }.joined(separator: ", ") + ")"
    }
}

/// How an expense and its people go into their tables: the one place that a single insert and
/// a batch of additions both read.
enum ExpenseRows {
    /// `INSERT INTO` this, then `VALUES` rows of ``expense(_:)``.
    static let expenseTable = "expense (id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id)"
    /// `INSERT INTO` this, then `VALUES` rows of ``people(of:)``.
    static let personTable =
        "expense_person (expense_id, user_id, day, created_at, category, currency, paid, paid_position, part, part_position, rule_value)"

    /// The expense's row (twelve values).
    static func expense(_ expense: StoredExpense) -> [any SQLValueConvertible] {
        [
            expense.id, expense.description, expense.amount, expense.currency, expense.day, expense.category, expense.splitMode,
            expense.createdBy, expense.createdAt, expense.note, expense.version, expense.group,
        ]
    }

    /// A row for each person in the expense (eleven values each).
    static func people(of expense: StoredExpense) throws -> [[any SQLValueConvertible]] {
        try expense.personRows().map { person in
            [
                expense.id, person.user, expense.day, expense.createdAt, expense.category, expense.currency, person.paid,
                person.paidPosition, person.part, person.partPosition, person.ruleValue,
            ]
        }
    }
}

/// The statements on one pair's balance in one currency, whose parameters are
/// `(user_low, user_high, currency)`.
enum BalanceSQL {
    static let amount = "SELECT amount FROM balance WHERE user_low = $1 AND user_high = $2 AND currency = $3"
    static let delete = "DELETE FROM balance WHERE user_low = $1 AND user_high = $2 AND currency = $3"

    /// Moves each pair of `rows` (`(user_low, user_high, currency, amount)` each) by its amount:
    /// a new pair goes in; a kept one moves, unless that settles it (a kept balance is never 0),
    /// when no row comes back and the caller deletes it. A sum past 64 bits is SQLSTATE 22003.
    /// A pair another writer changed or added since the transaction's snapshot makes it fail to
    /// serialize (and the write run again).
    static func move(_ rows: [String]) -> String {
        """
        INSERT INTO balance AS kept (user_low, user_high, currency, amount) VALUES \(rows.joined(separator: ", "))
        ON CONFLICT (user_low, user_high, currency) DO UPDATE SET amount = kept.amount + excluded.amount
        WHERE kept.amount + excluded.amount <> 0
        RETURNING user_low, user_high, currency, amount
        """
    }
}

/// The statements on one pair's balance within a group, whose parameters are
/// `(group_id, user_low, user_high, currency)`.
enum GroupBalanceSQL {
    static let amount = "SELECT amount FROM group_balance WHERE group_id = $1 AND user_low = $2 AND user_high = $3 AND currency = $4"
    static let delete = "DELETE FROM group_balance WHERE group_id = $1 AND user_low = $2 AND user_high = $3 AND currency = $4"
    /// Moves the pair by `$5`, as ``BalanceSQL/move(_:)`` does: no row back when it settles.
    static let move = """
        INSERT INTO group_balance AS kept (group_id, user_low, user_high, currency, amount) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (group_id, user_low, user_high, currency) DO UPDATE SET amount = kept.amount + excluded.amount
        WHERE kept.amount + excluded.amount <> 0
        RETURNING amount
        """
}
