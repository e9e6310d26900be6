import ExpensesData
import GRDB
import LocalStore

/// The Expenses store on the embedded SQLite database.
public struct SQLiteExpensesStore: ExpensesStore {
    private let database: LocalDatabase

    public init(database: LocalDatabase) {
        self.database = database
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any ExpensesReading) throws -> T) async throws -> T {
        try database.read { db in try body(Transaction(db: db)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any ExpensesWriting) throws -> T) async throws -> T {
        do {
            return try database.write { db in try body(Transaction(db: db)) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A constraint refusing a write is a refusal with its reason, not a broken store.
            throw ExpensesDataError.refused(error.message ?? "a constraint of the store")
        }
    }
}

/// The store's operations inside one GRDB transaction.
private struct Transaction: ExpensesWriting {
    let db: Database

    func expense(id: String) throws -> StoredExpense? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM expense WHERE id = ?", arguments: [id]) else { return nil }
        let payers = try Row.fetchAll(db, sql: "SELECT user_id, amount FROM expense_payer WHERE expense_id = ? ORDER BY position", arguments: [id])
            .map { StoredExpense.Payer(user: $0["user_id"], amount: $0["amount"]) }
        let parts = try Row.fetchAll(db, sql: "SELECT user_id, amount, rule_value FROM expense_part WHERE expense_id = ? ORDER BY position", arguments: [id])
            .map { StoredExpense.Part(user: $0["user_id"], amount: $0["amount"], ruleValue: $0["rule_value"]) }
        return StoredExpense(
            id: row["id"], description: row["description"], amount: row["amount"], currency: row["currency"], day: row["day"],
            category: row["category"], splitMode: row["split_mode"], createdBy: row["created_by"], createdAt: row["created_at"],
            payers: payers, parts: parts
        )
    }

    func balances(of user: String) throws -> [BalanceRecord] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM balance WHERE user_low = ?
                UNION ALL
                SELECT * FROM balance WHERE user_high = ?
                """,
            arguments: [user, user]
        ).map(BalanceRecord.init(row:))
    }

    func balances(among people: Set<String>, in currency: String) throws -> [BalanceRecord] {
        // Each person's pairs by index, kept when the other side is among `people` too.
        var found: [BalanceRecord] = []
        for person in people {
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM balance WHERE user_low = ? AND currency = ?"),
                arguments: [person, currency]
            )
            found += rows.map(BalanceRecord.init(row:)).filter { people.contains($0.high) }
        }
        return found
    }

    func activity(of user: String, limit: Int) throws -> [ActivityRecord] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT activity.* FROM activity_person
                JOIN activity ON activity.id = activity_person.activity_id
                WHERE activity_person.user_id = ?
                ORDER BY activity_person.at DESC, activity.rowid DESC
                LIMIT ?
                """,
            arguments: [user, limit]
        )
        return try rows.map { row in
            let id: String = row["id"]
            let people = try String.fetchAll(db, sql: "SELECT user_id FROM activity_person WHERE activity_id = ? ORDER BY user_id", arguments: [id])
            return ActivityRecord(id: id, at: row["at"], actor: row["actor"], kind: row["kind"], subject: row["subject"], summary: row["summary"], people: people)
        }
    }

    func expenseIDs(of user: String, offset: Int, limit: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: """
                SELECT id FROM expense WHERE id IN (
                    SELECT expense_id FROM expense_part WHERE user_id = ?
                    UNION SELECT expense_id FROM expense_payer WHERE user_id = ?
                )
                ORDER BY day DESC, created_at DESC, id
                LIMIT ? OFFSET ?
                """),
            arguments: [user, user, limit, offset]
        )
    }

    func settlement(id: String) throws -> SettlementRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM settlement WHERE id = ?"), arguments: [id]).map(SettlementRecord.init(row:))
    }

    func settlements(of user: String, offset: Int, limit: Int) throws -> [SettlementRecord] {
        try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT * FROM settlement WHERE id IN (
                    SELECT id FROM settlement WHERE from_user = ? UNION SELECT id FROM settlement WHERE to_user = ?
                )
                ORDER BY day DESC, created_at DESC, id
                LIMIT ? OFFSET ?
                """),
            arguments: [user, user, limit, offset]
        ).map(SettlementRecord.init(row:))
    }

    func spending(of user: String) throws -> (byCategory: [SpendingRecord], byMonth: [SpendingRecord]) {
        let grouped = { (group: String, order: String) throws -> [SpendingRecord] in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(group) AS grouping, expense.currency AS currency, sum(expense_part.amount) AS total
                    FROM expense_part JOIN expense ON expense.id = expense_part.expense_id
                    WHERE expense_part.user_id = ? AND expense_part.amount > 0
                    GROUP BY grouping, currency
                    ORDER BY \(order)
                    """,
                arguments: [user]
            ).map { SpendingRecord(group: $0["grouping"], currency: $0["currency"], amount: $0["total"]) }
        }
        return (try grouped("expense.category", "total DESC, grouping"), try grouped("substr(expense.day, 1, 7)", "grouping, currency"))
    }

    func insert(_ expense: StoredExpense) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO expense (id, description, amount, currency, day, category, split_mode, created_by, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            expense.id, expense.description, expense.amount, expense.currency, expense.day, expense.category,
            expense.splitMode, expense.createdBy, expense.createdAt,
        ])
        for (position, payer) in expense.payers.enumerated() {
            try db.cachedStatement(
                sql: "INSERT INTO expense_payer (expense_id, position, user_id, amount) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [expense.id, position, payer.user, payer.amount])
        }
        for (position, part) in expense.parts.enumerated() {
            try db.cachedStatement(
                sql: "INSERT INTO expense_part (expense_id, position, user_id, amount, rule_value) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: [expense.id, position, part.user, part.amount, part.ruleValue])
        }
    }

    func deleteExpense(id: String) throws {
        try db.cachedStatement(sql: "DELETE FROM expense WHERE id = ?").execute(arguments: [id])
    }

    func insert(_ settlement: SettlementRecord) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO settlement (id, from_user, to_user, amount, currency, day, created_by, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            settlement.id, settlement.from, settlement.to, settlement.amount, settlement.currency, settlement.day,
            settlement.createdBy, settlement.createdAt,
        ])
    }

    func deleteSettlement(id: String) throws {
        try db.cachedStatement(sql: "DELETE FROM settlement WHERE id = ?").execute(arguments: [id])
    }

    func addToBalance(low: String, high: String, currency: String, amount: Int64) throws -> Int64 {
        guard amount != 0 else {
            return try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT amount FROM balance WHERE user_low = ? AND user_high = ? AND currency = ?"),
                arguments: [low, high, currency]
            ) ?? 0
        }
        let updated: Int64?
        do {
            updated = try Int64.fetchOne(
                db.cachedStatement(sql: """
                    INSERT INTO balance (user_low, user_high, currency, amount) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_low, user_high, currency) DO UPDATE SET amount = amount + excluded.amount
                        WHERE amount + excluded.amount <> 0
                    RETURNING amount
                    """),
                arguments: [low, high, currency, amount]
            )
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_DATATYPE {
            // SQLite turns an integer sum that overflows into a real number, which the STRICT
            // column refuses.
            throw ExpensesDataError.outOfRange
        }
        if let updated { return updated }
        // The update was skipped because the pair comes back to zero: a settled pair goes.
        try db.cachedStatement(
            sql: "DELETE FROM balance WHERE user_low = ? AND user_high = ? AND currency = ?"
        ).execute(arguments: [low, high, currency])
        return 0
    }

    func insert(_ activity: ActivityRecord) throws {
        try db.cachedStatement(
            sql: "INSERT INTO activity (id, at, actor, kind, subject, summary) VALUES (?, ?, ?, ?, ?, ?)"
        ).execute(arguments: [activity.id, activity.at, activity.actor, activity.kind, activity.subject, activity.summary])
        for person in Set(activity.people) {
            try db.cachedStatement(
                sql: "INSERT INTO activity_person (user_id, at, activity_id) VALUES (?, ?, ?)"
            ).execute(arguments: [person, activity.at, activity.id])
        }
    }
}

extension SettlementRecord {
    fileprivate init(row: Row) {
        self.init(
            id: row["id"], from: row["from_user"], to: row["to_user"], amount: row["amount"], currency: row["currency"],
            day: row["day"], createdBy: row["created_by"], createdAt: row["created_at"]
        )
    }
}

extension BalanceRecord {
    fileprivate init(row: Row) {
        self.init(low: row["user_low"], high: row["user_high"], currency: row["currency"], amount: row["amount"])
    }
}
