import DataChanges
import DataChangesSQLite
import ExpensesData
import Foundation
import GRDB
import LocalStore

/// The Expenses store on the embedded SQLite database.
public struct SQLiteExpensesStore: ExpensesStore {
    private let database: LocalDatabase
    private let balancesChanged: PeopleChanged?

    /// - Parameter balancesChanged: told after each write whose balances it changed.
    public init(database: LocalDatabase, balancesChanged: PeopleChanged? = nil) {
        self.database = database
        self.balancesChanged = balancesChanged
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any ExpensesReading) throws -> T) async throws -> T {
        try database.read { db in try body(Transaction(db: db)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any ExpensesWriting) throws -> T) async throws -> T {
        do {
            return try await database.write(telling: balancesChanged) { db, changes in
                let transaction = Transaction(db: db, changes: changes)
                // What each write changed is noted only where the store keeps a change log.
                let logged = database.keepsChangeLog ? changes : nil
                return try body(logged.map { NotingExpensesWriting(transaction, noting: $0) } ?? transaction)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A constraint refusing a write is a refusal with its reason, not a broken store.
            throw ExpensesDataError.refused(error.message ?? "a constraint of the store")
        }
    }
}

/// The store's operations inside one GRDB transaction.
private struct Transaction: ExpensesWriting {
    let db: Database
    /// Where a write notes whose balances it changed, when someone is told.
    var changes: ChangedPeople? = nil

    func expense(id: String) throws -> StoredExpense? {
        try expense(id: id, from: "expense", people: "expense_person")
    }

    func deletedExpense(id: String) throws -> StoredExpense? {
        try expense(id: id, from: "deleted_expense", people: "deleted_expense_person")
    }

    /// An expense and its people, read from a pair of tables with the same columns.
    private func expense(id: String, from table: String, people peopleTable: String) throws -> StoredExpense? {
        // Read by position (in the order selected), not by name: the reads of a whole pull.
        let columns = "id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM \(table) WHERE id = ?"), arguments: [id]) else { return nil }
        let people = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT user_id, paid_position, paid, part_position, part, rule_value FROM \(peopleTable) WHERE expense_id = ?"),
            arguments: [id]
        )
        let payers = people.compactMap { row -> (position: Int64, payer: StoredExpense.Payer)? in
            guard let position: Int64 = row[1], let paid: Int64 = row[2] else { return nil }
            return (position, StoredExpense.Payer(user: row[0], amount: paid))
        }
        let parts = people.compactMap { row -> (position: Int64, part: StoredExpense.Part)? in
            guard let position: Int64 = row[3], let part: Int64 = row[4] else { return nil }
            return (position, StoredExpense.Part(user: row[0], amount: part, ruleValue: row[5]))
        }
        return StoredExpense(
            id: row[0], description: row[1], amount: row[2], currency: row[3], day: row[4], category: row[5], splitMode: row[6], createdBy: row[7],
            createdAt: row[8], payers: payers.sorted { $0.position < $1.position }.map(\.payer), parts: parts.sorted { $0.position < $1.position }.map(\.part),
            note: row[9], version: row[10], group: row[11]
        )
    }

    func balances(of user: String) throws -> [BalanceRecord] {
        try BalanceRecord.all(db.cachedStatement(sql: """
            SELECT \(BalanceRecord.columns) FROM balance WHERE user_low = ?1
            UNION ALL
            SELECT \(BalanceRecord.columns) FROM balance WHERE user_high = ?1
            """), arguments: [user])
    }

    func activity(of user: String, offset: Int, limit: Int) throws -> [ActivityRecord] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT activity.* FROM activity_person
                JOIN activity ON activity.seq = activity_person.seq
                WHERE activity_person.user_id = ?
                ORDER BY activity_person.at DESC, activity_person.seq DESC
                LIMIT ? OFFSET ?
                """,
            arguments: [user, limit, offset]
        )
        return try rows.map { row in
            let people = try String.fetchAll(
                db.cachedStatement(sql: "SELECT user_id FROM activity_person WHERE seq = ? ORDER BY user_id"),
                arguments: [row["seq"] as Int64]
            )
            return ActivityRecord(
                id: row["id"], at: row["at"], actor: row["actor"], kind: row["kind"], subject: row["subject"], summary: row["summary"],
                people: people
            )
        }
    }

    func changes(ofExpense id: String) throws -> [ActivityRecord] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT seq, id, at, actor, kind, subject, summary, snapshot FROM activity WHERE subject = ? ORDER BY seq"), arguments: [id]
        ).map { row in
            let people = try String.fetchAll(
                db.cachedStatement(sql: "SELECT user_id FROM activity_person WHERE seq = ? ORDER BY user_id"),
                arguments: [row[0] as Int64]
            )
            return ActivityRecord(
                id: row[1], at: row[2], actor: row[3], kind: row[4], subject: row[5], summary: row[6], people: people, snapshot: row[7]
            )
        }
    }

    func activityKeys(of user: String) throws -> [(subject: String, id: String)] {
        try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT activity.subject, activity.id FROM activity_person
                JOIN activity ON activity.seq = activity_person.seq
                WHERE activity_person.user_id = ?
                ORDER BY activity_person.at, activity_person.seq
                """),
            arguments: [user]
        ).map { row in (row[0], row[1]) }
    }

    func expenseIDs(of user: String, offset: Int, limit: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: """
                SELECT expense_id FROM expense_person WHERE user_id = ?
                ORDER BY day DESC, created_at DESC, expense_id
                LIMIT ? OFFSET ?
                """),
            arguments: [user, limit, offset]
        )
    }

    func deletedExpenseIDs(of user: String, offset: Int, limit: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: """
                SELECT expense_id FROM deleted_expense_person WHERE user_id = ?
                ORDER BY deleted_at DESC, expense_id
                LIMIT ? OFFSET ?
                """),
            arguments: [user, limit, offset]
        )
    }

    func forEachLedgerRow(
        expensePerson: (LedgerRow) throws -> Void, settlement: (SettlementRecord) throws -> Void, balance: (BalanceRecord) throws -> Void
    ) throws {
        // The expenses in the order of their key, each one's people found by the prefix of theirs.
        let people = try Row.fetchCursor(db, sql: """
            SELECT expense.id, expense.amount, expense.currency, person.user_id,
                   person.paid, person.paid_position, person.part, person.part_position, expense.group_id
            FROM expense JOIN expense_person AS person ON person.expense_id = expense.id
            ORDER BY expense.id
            """)
        while let row = try people.next() {
            try expensePerson(LedgerRow(
                expense: row[0], amount: row[1], currency: row[2], user: row[3],
                paid: row[4], paidPosition: row[5], part: row[6], partPosition: row[7], group: row[8]
            ))
        }
        let settlements = try Row.fetchCursor(db, sql: "SELECT * FROM settlement")
        while let row = try settlements.next() { try settlement(self.settlement(from: row)) }
        let balances = try Row.fetchCursor(db, sql: "SELECT \(BalanceRecord.columns) FROM balance")
        while let row = try balances.next() { try balance(BalanceRecord(row: row)) }
    }

    func forEachGroupBalance(_ body: (GroupBalanceRecord) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT \(GroupBalanceRecord.columns) FROM group_balance")
        while let row = try rows.next() { try body(GroupBalanceRecord(row: row)) }
    }

    func groupBalances(in group: String) throws -> [GroupBalanceRecord] {
        try GroupBalanceRecord.all(
            db.cachedStatement(sql: "SELECT \(GroupBalanceRecord.columns) FROM group_balance WHERE group_id = ?"), arguments: [group]
        )
    }

    func groupBalances(of user: String) throws -> [GroupBalanceRecord] {
        try GroupBalanceRecord.all(db.cachedStatement(sql: """
            SELECT \(GroupBalanceRecord.columns) FROM group_balance WHERE user_low = ?1
            UNION ALL
            SELECT \(GroupBalanceRecord.columns) FROM group_balance WHERE user_high = ?1
            """), arguments: [user])
    }

    func expenseIDs(inGroup group: String, offset: Int, limit: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: """
                SELECT id FROM expense WHERE group_id = ?
                ORDER BY day DESC, created_at DESC, id
                LIMIT ? OFFSET ?
                """),
            arguments: [group, limit, offset]
        )
    }

    func settlements(inGroup group: String, offset: Int, limit: Int) throws -> [SettlementRecord] {
        try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT * FROM settlement WHERE group_id = ?
                ORDER BY day DESC, created_at DESC, id
                LIMIT ? OFFSET ?
                """),
            arguments: [group, limit, offset]
        ).map(settlement(from:))
    }

    func totals(inGroup group: String) throws -> (byMember: [SpendingRecord], byCategory: [SpendingRecord]) {
        let byMember = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT person.user_id, expense.currency, sum(person.part) FROM expense
                JOIN expense_person AS person ON person.expense_id = expense.id
                WHERE expense.group_id = ? AND person.part > 0
                GROUP BY person.user_id, expense.currency
                """),
            arguments: [group]
        ).map { SpendingRecord(group: $0[0], currency: $0[1], amount: $0[2]) }
        let byCategory = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT category, currency, sum(amount) FROM expense WHERE group_id = ? GROUP BY category, currency"),
            arguments: [group]
        ).map { SpendingRecord(group: $0[0], currency: $0[1], amount: $0[2]) }
        return (byMember, byCategory)
    }

    func recentPeople(of user: String, scanning: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: """
                SELECT other.user_id FROM (
                    SELECT expense_id, row_number() OVER (ORDER BY day DESC, created_at DESC, expense_id) AS place
                    FROM expense_person WHERE user_id = ?
                    ORDER BY day DESC, created_at DESC, expense_id LIMIT ?
                ) AS recent
                JOIN expense_person AS other ON other.expense_id = recent.expense_id AND other.user_id <> ?
                GROUP BY other.user_id
                ORDER BY min(recent.place), other.user_id
                """),
            arguments: [user, scanning, user]
        )
    }

    func expenseIDs(sharedBy user: String, with other: String, offset: Int, limit: Int) throws -> [String] {
        // Walk the list of whoever is in fewer expenses, newest first, and keep the ones the other
        // is in too (one look-up by key each): a page costs what the smaller list holds before it.
        let (walked, probed) = try expenseCount(of: other, upTo: Self.countCap) <= expenseCount(of: user, upTo: Self.countCap)
            ? (other, user) : (user, other)
        return try String.fetchAll(
            db.cachedStatement(sql: """
                SELECT walked.expense_id FROM expense_person AS walked
                CROSS JOIN expense_person AS probed ON probed.expense_id = walked.expense_id AND probed.user_id = ?
                WHERE walked.user_id = ?
                ORDER BY walked.day DESC, walked.created_at DESC, walked.expense_id
                LIMIT ? OFFSET ?
                """),
            arguments: [probed, walked, limit, offset]
        )
    }

    /// Counting stops here: past it, both lists are long and either will do.
    private static let countCap = 10_000

    /// How many expenses `user` is in, counted by index up to `cap`.
    private func expenseCount(of user: String, upTo cap: Int) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM expense_person WHERE user_id = ? LIMIT ?)"),
            arguments: [user, cap]
        ) ?? 0
    }

    func series(id: String) throws -> SeriesRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "\(Self.seriesSelect) WHERE id = ?"), arguments: [id]).map(seriesRecord(from:))
    }

    func series(of user: String) throws -> [SeriesRecord] {
        try Row.fetchAll(
            db.cachedStatement(sql: "\(Self.seriesSelect) WHERE id IN (SELECT series_id FROM series_person WHERE user_id = ?) ORDER BY created_at, id"),
            arguments: [user]
        ).map(seriesRecord(from:))
    }

    func seriesRunning(on day: String) throws -> [SeriesRecord] {
        try Row.fetchAll(
            db.cachedStatement(sql: "\(Self.seriesSelect) WHERE end_day IS NULL OR end_day >= ? ORDER BY created_at, id"), arguments: [day]
        ).map(seriesRecord(from:))
    }

    func occurrence(ofExpense id: String) throws -> (series: String, day: String)? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT series_id, day FROM series_occurrence WHERE expense_id = ?"), arguments: [id])
            .map { ($0[0], $0[1]) }
    }

    func lastOccurrence(ofSeries id: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT max(day) FROM series_occurrence WHERE series_id = ?"), arguments: [id])
    }

    func occurrences(ofSeries id: String) throws -> [(day: String, expense: String)] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT day, expense_id FROM series_occurrence WHERE series_id = ? ORDER BY day"), arguments: [id])
            .map { ($0[0], $0[1]) }
    }

    private static let seriesSelect = """
        SELECT id, created_by, created_at, template, frequency, start, end_day, end_count, version,
               (SELECT group_concat(user_id, ' ') FROM series_person WHERE series_id = expense_series.id) AS people
        FROM expense_series
        """

    private func seriesRecord(from row: Row) -> SeriesRecord {
        let people: String? = row["people"]
        return SeriesRecord(
            id: row["id"], createdBy: row["created_by"], createdAt: row["created_at"], template: row["template"], frequency: row["frequency"],
            start: row["start"], endDay: row["end_day"], endCount: row["end_count"],
            people: (people ?? "").split(separator: " ").map(String.init).sorted(), version: row["version"]
        )
    }

    func insert(_ series: SeriesRecord) throws {
        try db.execute(
            sql: """
                INSERT INTO expense_series (id, created_by, created_at, template, frequency, start, end_day, end_count, version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                series.id, series.createdBy, series.createdAt, series.template, series.frequency, series.start, series.endDay, series.endCount,
                series.version,
            ]
        )
        try insertPeople(of: series)
    }

    func update(_ series: SeriesRecord) throws {
        try db.execute(
            sql: "UPDATE expense_series SET template = ?, frequency = ?, end_day = ?, end_count = ?, version = ? WHERE id = ?",
            arguments: [series.template, series.frequency, series.endDay, series.endCount, series.version, series.id]
        )
        try db.execute(sql: "DELETE FROM series_person WHERE series_id = ?", arguments: [series.id])
        try insertPeople(of: series)
    }

    private func insertPeople(of series: SeriesRecord) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO series_person (series_id, user_id) VALUES (?, ?)")
        for person in Set(series.people) { try statement.execute(arguments: [series.id, person]) }
    }

    func claimOccurrence(series: String, day: String, expense: String) throws -> Bool {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO series_occurrence (series_id, day, expense_id) VALUES (?, ?, ?)")
            .execute(arguments: [series, day, expense])
        return db.changesCount > 0
    }

    func comments(onExpense id: String) throws -> [CommentRecord] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, expense_id, author, at, text FROM expense_comment WHERE expense_id = ? ORDER BY at, id"),
            arguments: [id]
        ).map { CommentRecord(id: $0[0], expense: $0[1], author: $0[2], at: $0[3], text: $0[4]) }
    }

    func comment(id: String) throws -> CommentRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT id, expense_id, author, at, text FROM expense_comment WHERE id = ?"), arguments: [id])
            .map { CommentRecord(id: $0[0], expense: $0[1], author: $0[2], at: $0[3], text: $0[4]) }
    }

    func insert(_ comment: CommentRecord) throws {
        try db.cachedStatement(sql: "INSERT INTO expense_comment (id, expense_id, author, at, text) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [comment.id, comment.expense, comment.author, comment.at, comment.text])
    }

    func deleteComment(id: String, onExpense expense: String) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM expense_comment WHERE id = ? AND expense_id = ?").execute(arguments: [id, expense])
        return db.changesCount > 0
    }

    func settlement(id: String) throws -> SettlementRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM settlement WHERE id = ?"), arguments: [id]).map(settlement(from:))
    }

    /// A payment with its legs, if it has any.
    private func settlement(from row: Row) throws -> SettlementRecord {
        var record = SettlementRecord(row: row)
        record.legs = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT creditor, debtor, amount FROM settlement_leg WHERE settlement_id = ? ORDER BY position"),
            arguments: [record.id]
        ).map { SettlementRecord.Leg(creditor: $0[0], debtor: $0[1], amount: $0[2]) }
        return record
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
        ).map(settlement(from:))
    }

    func spending(of user: String, from: String, through: String) throws -> (byCategory: [SpendingRecord], byMonth: [SpendingRecord]) {
        // The user's rows in the range, found in their list by day (the index of v4), read once
        // and summed by category, month and currency; the two lists are added up from that.
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT expense.category AS category, substr(expense_person.day, 1, 7) AS month, expense.currency AS currency,
                       sum(expense_person.part) AS total
                FROM expense_person JOIN expense ON expense.id = expense_person.expense_id
                WHERE expense_person.user_id = ? AND expense_person.day BETWEEN ? AND ? AND expense_person.part > 0
                GROUP BY category, month, currency
                """),
            arguments: [user, from, through]
        )
        var byCategory: [[String]: Int64] = [:]
        var byMonth: [[String]: Int64] = [:]
        for row in rows {
            let (category, month, currency, total): (String, String, String, Int64) = (row["category"], row["month"], row["currency"], row["total"])
            // A sum past 64 bits is refused, as SQLite's sum() refuses it.
            let (categorySum, categoryOverflow) = byCategory[[category, currency], default: 0].addingReportingOverflow(total)
            let (monthSum, monthOverflow) = byMonth[[month, currency], default: 0].addingReportingOverflow(total)
            guard !categoryOverflow, !monthOverflow else { throw ExpensesDataError.outOfRange }
            byCategory[[category, currency]] = categorySum
            byMonth[[month, currency]] = monthSum
        }
        let records = { (sums: [[String]: Int64]) in sums.map { SpendingRecord(group: $0.key[0], currency: $0.key[1], amount: $0.value) } }
        return (
            records(byCategory).sorted { ($1.amount, $0.group, $0.currency) < ($0.amount, $1.group, $1.currency) },
            records(byMonth).sorted { ($0.group, $0.currency) < ($1.group, $1.currency) }
        )
    }

    func insert(_ expense: StoredExpense) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO expense (id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            expense.id, expense.description, expense.amount, expense.currency, expense.day, expense.category,
            expense.splitMode, expense.createdBy, expense.createdAt, expense.note, expense.version, expense.group,
        ])
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO expense_person (expense_id, user_id, day, created_at, paid, paid_position, part, part_position, rule_value)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        )
        for person in try expense.personRows() {
            try statement.execute(arguments: [
                expense.id, person.user, expense.day, expense.createdAt,
                person.paid, person.paidPosition, person.part, person.partPosition, person.ruleValue,
            ])
        }
    }

    func deleteExpense(id: String) throws {
        try db.cachedStatement(sql: "DELETE FROM expense WHERE id = ?").execute(arguments: [id])
    }

    func moveToDeleted(id: String, by user: String, at: Double) throws {
        try db.execute(sql: """
            INSERT INTO deleted_expense
                (id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id, deleted_by, deleted_at)
                SELECT id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id, :user, :at
                FROM expense WHERE id = :id;
            INSERT INTO deleted_expense_person
                (expense_id, user_id, deleted_at, paid, paid_position, part, part_position, rule_value)
                SELECT expense_id, user_id, :at, paid, paid_position, part, part_position, rule_value
                FROM expense_person WHERE expense_id = :id;
            DELETE FROM expense WHERE id = :id;
            """, arguments: ["id": id, "user": user, "at": at])
    }

    func restoreDeleted(id: String) throws {
        try db.execute(sql: """
            INSERT INTO expense (id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id)
                SELECT id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id
                FROM deleted_expense WHERE id = :id;
            INSERT INTO expense_person
                (expense_id, user_id, day, created_at, paid, paid_position, part, part_position, rule_value)
                SELECT person.expense_id, person.user_id, expense.day, expense.created_at,
                       person.paid, person.paid_position, person.part, person.part_position, person.rule_value
                FROM deleted_expense_person AS person JOIN deleted_expense AS expense ON expense.id = person.expense_id
                WHERE person.expense_id = :id;
            DELETE FROM deleted_expense WHERE id = :id;
            """, arguments: ["id": id])
    }

    func insert(_ settlement: SettlementRecord) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO settlement (
                    id, from_user, to_user, amount, currency, day, created_by, created_at, group_id,
                    converted_amount, converted_currency, rate_base, rate, rate_source
                )
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            settlement.id, settlement.from, settlement.to, settlement.amount, settlement.currency, settlement.day,
            settlement.createdBy, settlement.createdAt, settlement.group,
            settlement.conversion?.amount, settlement.conversion?.currency, settlement.conversion?.rateBase, settlement.conversion?.rate,
            settlement.conversion?.source,
        ])
        let leg = try db.cachedStatement(sql: "INSERT INTO settlement_leg (settlement_id, position, creditor, debtor, amount) VALUES (?, ?, ?, ?, ?)")
        for (position, item) in settlement.legs.enumerated() {
            try leg.execute(arguments: [settlement.id, position, item.creditor, item.debtor, item.amount])
        }
    }

    func deleteSettlement(id: String) throws {
        try db.cachedStatement(sql: "DELETE FROM settlement WHERE id = ?").execute(arguments: [id])
    }

    func addToBalance(low: String, high: String, currency: String, amount: Int64) throws -> Int64 {
        let pair: StatementArguments = [low, high, currency]
        let current = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT amount FROM balance WHERE user_low = ? AND user_high = ? AND currency = ?"),
            arguments: pair
        )
        guard amount != 0 else { return current ?? 0 }
        let (sum, overflow) = (current ?? 0).addingReportingOverflow(amount)
        guard !overflow else { throw ExpensesDataError.outOfRange }
        let sql = switch (current, sum) {
        // A settled pair goes.
        case (.some, 0): "DELETE FROM balance WHERE user_low = ? AND user_high = ? AND currency = ?"
        case (.some, _): "UPDATE balance SET amount = ? WHERE user_low = ? AND user_high = ? AND currency = ?"
        case (.none, _): "INSERT INTO balance (amount, user_low, user_high, currency) VALUES (?, ?, ?, ?)"
        }
        try db.cachedStatement(sql: sql).execute(arguments: sum == 0 ? pair : [sum] + pair)
        changes?.note(low, high)
        return sum
    }

    func addToGroupBalance(group: String, low: String, high: String, currency: String, amount: Int64) throws -> Int64 {
        let pair: StatementArguments = [group, low, high, currency]
        let current = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT amount FROM group_balance WHERE group_id = ? AND user_low = ? AND user_high = ? AND currency = ?"),
            arguments: pair
        )
        guard amount != 0 else { return current ?? 0 }
        let (sum, overflow) = (current ?? 0).addingReportingOverflow(amount)
        guard !overflow else { throw ExpensesDataError.outOfRange }
        let sql = switch (current, sum) {
        case (.some, 0): "DELETE FROM group_balance WHERE group_id = ? AND user_low = ? AND user_high = ? AND currency = ?"
        case (.some, _): "UPDATE group_balance SET amount = ? WHERE group_id = ? AND user_low = ? AND user_high = ? AND currency = ?"
        case (.none, _): "INSERT INTO group_balance (amount, group_id, user_low, user_high, currency) VALUES (?, ?, ?, ?, ?)"
        }
        try db.cachedStatement(sql: sql).execute(arguments: sum == 0 ? pair : [sum] + pair)
        return sum
    }

    func shareAnything(_ person: String, _ other: String) throws -> Bool {
        let expense = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM expense_person AS a JOIN expense_person AS b ON b.expense_id = a.expense_id AND b.user_id = ?
                           WHERE a.user_id = ?)
            """, arguments: [other, person]) ?? false
        let payment = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM settlement WHERE (from_user = ?1 AND to_user = ?2) OR (from_user = ?2 AND to_user = ?1))
                OR EXISTS (SELECT 1 FROM settlement_leg WHERE (creditor = ?1 AND debtor = ?2) OR (creditor = ?2 AND debtor = ?1))
            """, arguments: [person, other]) ?? false
        return expense || payment
    }

    func importedKeys(of user: String, among keys: [String]) throws -> Set<String> {
        var found: Set<String> = []
        let imported = try db.cachedStatement(sql: "SELECT 1 FROM imported_entry WHERE user_id = ? AND key = ?")
        let expense = try db.cachedStatement(sql: "SELECT 1 FROM expense_person WHERE expense_id = ? AND user_id = ?")
        let payment = try db.cachedStatement(sql: "SELECT 1 FROM settlement WHERE id = ?1 AND (from_user = ?2 OR to_user = ?2)")
        for key in keys {
            if try Bool.fetchOne(imported, arguments: [user, key]) != nil
                || Bool.fetchOne(expense, arguments: [key, user]) != nil
                || Bool.fetchOne(payment, arguments: [key, user]) != nil {
                found.insert(key)
            }
        }
        return found
    }

    func recordImport(of user: String, key: String, subject: String, at: Double) throws {
        try db.cachedStatement(sql: "INSERT INTO imported_entry (user_id, key, subject, imported_at) VALUES (?, ?, ?, ?)")
            .execute(arguments: [user, key, subject, at])
    }

    func renamePerson(from: String, to: String) throws {
        try db.execute(sql: """
            UPDATE expense_person SET user_id = :to WHERE user_id = :from;
            UPDATE expense SET created_by = :to WHERE created_by = :from;
            -- A deleted expense the two were both in could never be restored with them as one
            -- person: it goes.
            DELETE FROM deleted_expense WHERE id IN (
                SELECT a.expense_id FROM deleted_expense_person AS a
                JOIN deleted_expense_person AS b ON b.expense_id = a.expense_id AND b.user_id = :to
                WHERE a.user_id = :from
            );
            UPDATE deleted_expense_person SET user_id = :to WHERE user_id = :from;
            UPDATE deleted_expense SET created_by = :to WHERE created_by = :from;
            UPDATE deleted_expense SET deleted_by = :to WHERE deleted_by = :from;
            UPDATE settlement SET from_user = :to WHERE from_user = :from;
            UPDATE settlement SET to_user = :to WHERE to_user = :from;
            UPDATE settlement SET created_by = :to WHERE created_by = :from;
            UPDATE settlement_leg SET creditor = :to WHERE creditor = :from;
            UPDATE settlement_leg SET debtor = :to WHERE debtor = :from;
            UPDATE activity SET actor = :to WHERE actor = :from;
            UPDATE expense_comment SET author = :to WHERE author = :from;
            UPDATE expense_series SET created_by = :to WHERE created_by = :from;
            UPDATE expense_series SET template = replace(template, '"' || :from || '"', '"' || :to || '"')
                WHERE id IN (SELECT series_id FROM series_person WHERE user_id = :from);
            UPDATE OR IGNORE series_person SET user_id = :to WHERE user_id = :from;
            DELETE FROM series_person WHERE user_id = :from;
            -- The expenses kept whole in their changes name the account too (ids are quoted
            -- strings in them, and never part of another).
            UPDATE activity SET snapshot = replace(snapshot, '"' || :from || '"', '"' || :to || '"')
                WHERE snapshot IS NOT NULL AND seq IN (SELECT seq FROM activity_person WHERE user_id = :from);
            -- An activity can name both (an edit that swapped one for the other): it keeps one row.
            UPDATE OR IGNORE activity_person SET user_id = :to WHERE user_id = :from;
            DELETE FROM activity_person WHERE user_id = :from;
            """, arguments: ["from": from, "to": to])
    }

    func insert(_ activity: ActivityRecord) throws {
        try db.cachedStatement(
            sql: "INSERT INTO activity (id, at, actor, kind, subject, summary, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?)"
        ).execute(arguments: [activity.id, activity.at, activity.actor, activity.kind, activity.subject, activity.summary, activity.snapshot])
        let seq = db.lastInsertedRowID
        let statement = try db.cachedStatement(sql: "INSERT INTO activity_person (user_id, at, seq) VALUES (?, ?, ?)")
        for person in Set(activity.people) {
            try statement.execute(arguments: [person, activity.at, seq])
        }
    }

    func deleteActivity(id: String, subject: String) throws {
        try db.execute(sql: """
            DELETE FROM activity_person WHERE seq IN (SELECT seq FROM activity WHERE subject = :subject AND id = :id);
            DELETE FROM activity WHERE subject = :subject AND id = :id;
            """, arguments: ["subject": subject, "id": id])
    }
}

extension SettlementRecord {
    fileprivate init(row: Row) {
        self.init(
            id: row["id"], from: row["from_user"], to: row["to_user"], amount: row["amount"], currency: row["currency"],
            day: row["day"], createdBy: row["created_by"], createdAt: row["created_at"], group: row["group_id"],
            conversion: Self.conversion(
                amount: row["converted_amount"], currency: row["converted_currency"], rateBase: row["rate_base"], rate: row["rate"],
                source: row["rate_source"]
            )
        )
    }
}

extension GroupBalanceRecord {
    fileprivate static let columns = "group_id, user_low, user_high, currency, amount"

    fileprivate init(row: Row) {
        self.init(group: row[0], low: row[1], high: row[2], currency: row[3], amount: row[4])
    }

    fileprivate static func all(_ statement: Statement, arguments: StatementArguments) throws -> [GroupBalanceRecord] {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var records: [GroupBalanceRecord] = []
        while let row = try rows.next() { records.append(GroupBalanceRecord(row: row)) }
        return records
    }
}

extension BalanceRecord {
    /// The columns `init(row:)` reads, in its order: by position, since looking a column up by
    /// name costs more than the rest of reading a row.
    fileprivate static let columns = "user_low, user_high, currency, amount"

    fileprivate init(row: Row) {
        self.init(low: row[0], high: row[1], currency: row[2], amount: row[3])
    }

    /// Every row of `statement` (selecting ``columns``), read as it comes.
    fileprivate static func all(_ statement: Statement, arguments: StatementArguments) throws -> [BalanceRecord] {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var records: [BalanceRecord] = []
        while let row = try rows.next() { records.append(BalanceRecord(row: row)) }
        return records
    }
}
