import DataChanges
import DataChangesPostgres
import ExpensesData
import PostgresStore

/// The Expenses store on a PostgreSQL database (the server's), with the same rules, orders and
/// arithmetic as the SQLite one: a constraint refusing a write is
/// ``ExpensesDataError/refused(_:)``, a balance or a sum past 64 bits
/// ``ExpensesDataError/outOfRange``.
///
/// Additions that arrive together are written together (``Additions``).
public struct PostgresExpensesStore: ExpensesStore {
    private let database: ServerDatabase
    private let balancesChanged: PeopleChanged?
    private let additions: Gathering<ExpenseAddition, Void>

    /// - Parameters:
    ///   - balancesChanged: told after each write whose balances it changed.
    ///   - additionWriters: how many batches of additions are written at once.
    public init(database: ServerDatabase, balancesChanged: PeopleChanged? = nil, additionWriters: Int = 2) {
        self.database = database
        self.balancesChanged = balancesChanged
        additions = Additions.gathering(writers: additionWriters) { [database, balancesChanged] batch in
            try await Self.add(all: batch, to: database, telling: balancesChanged)
        }
    }

    /// Waits for the additions that arrive meanwhile, and writes them all together.
    public func add(_ addition: ExpenseAddition) async throws {
        try await additions.ask(addition)
    }

    /// Writes `additions` in one transaction, as one statement: each lands, or none does (the
    /// first failure is thrown). What ``add(_:)`` does with each batch it gathers.
    public func add(all additions: [ExpenseAddition]) async throws {
        try await Self.add(all: additions, to: database, telling: balancesChanged)
    }

    private static func add(all additions: [ExpenseAddition], to database: ServerDatabase, telling balancesChanged: PeopleChanged?) async throws {
        guard !additions.isEmpty else { return }
        try await refusals {
            try await database.write(telling: balancesChanged) { db, changes in
                for addition in additions {
                    changes.changed(addition.expense)
                    let line = addition.activity
                    changes.changed(.activity, "\(line.subject)/\(line.id)", for: line.people)
                }
                try Transaction(db: db, changes: changes).add(all: additions)
            }
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any ExpensesReading) throws -> T) async throws -> T {
        try await Self.refusals { try await database.read { try body(Transaction(db: $0)) } }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any ExpensesWriting) throws -> T) async throws -> T {
        try await Self.refusals {
            try await database.write(telling: balancesChanged) { db, changes in
                try body(NotingExpensesWriting(Transaction(db: db, changes: changes), noting: changes))
            }
        }
    }

    /// A constraint refusing a write is a refusal with its reason, not a broken store.
    private static func refusals<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch ServerDatabaseError.constraint(let violation) {
            throw ExpensesDataError.refused(violation.message)
        } catch ServerDatabaseError.outOfRange {
            throw ExpensesDataError.outOfRange
        }
    }
}

/// The store's operations inside one transaction.
struct Transaction: ExpensesWriting {
    let db: ServerTransaction
    /// Where a write notes whose balances it changed, when someone is told.
    var changes: ChangedPeople? = nil

    // MARK: - Expenses

    func expense(id: String) throws -> StoredExpense? {
        try expense(id: id, from: "expense", people: "expense_person")
    }

    func deletedExpense(id: String) throws -> StoredExpense? {
        try expense(id: id, from: "deleted_expense", people: "deleted_expense_person")
    }

    /// An expense and its people, in one query, from a pair of tables with the same columns.
    private func expense(id: String, from table: String, people peopleTable: String) throws -> StoredExpense? {
        let rows = try db.rows(
            """
            SELECT e.id, e.description, e.amount, e.currency, e.day, e.category, e.split_mode, e.created_by, e.created_at, e.note,
                   p.user_id, p.paid, p.paid_position, p.part, p.part_position, p.rule_value, e.version, e.group_id
            FROM \(table) AS e LEFT JOIN \(peopleTable) AS p ON p.expense_id = e.id
            WHERE e.id = $1
            """,
            [id]
        )
        guard let first = rows.first else { return nil }
        var payers: [(position: Int64, payer: StoredExpense.Payer)] = []
        var parts: [(position: Int64, part: StoredExpense.Part)] = []
        for row in rows {
            guard let user = try row.optionalText(10) else { continue }
            if let paid = try row.optionalInteger(11), let position = try row.optionalInteger(12) {
                payers.append((position, StoredExpense.Payer(user: user, amount: paid)))
            }
            if let part = try row.optionalInteger(13), let position = try row.optionalInteger(14) {
                parts.append((position, StoredExpense.Part(user: user, amount: part, ruleValue: try row.optionalInteger(15))))
            }
        }
        return StoredExpense(
            id: try first.text(0), description: try first.text(1), amount: try first.integer(2), currency: try first.text(3),
            day: try first.text(4), category: try first.text(5), splitMode: try first.text(6), createdBy: try first.text(7),
            createdAt: try first.real(8),
            payers: payers.sorted { $0.position < $1.position }.map(\.payer),
            parts: parts.sorted { $0.position < $1.position }.map(\.part),
            note: try first.optionalText(9), version: try first.integer(16), group: try first.optionalText(17)
        )
    }

    func expenseIDs(of user: String, offset: Int, limit: Int) throws -> [String] {
        try db.rows(
            ExpensesQuery.expensesOfUser,
            [user, limit, offset]
        ).map { try $0.text(0) }
    }

    func deletedExpenseIDs(of user: String, offset: Int, limit: Int) throws -> [String] {
        try db.rows(
            ExpensesQuery.deletedExpensesOfUser,
            [user, limit, offset]
        ).map { try $0.text(0) }
    }

    func recentPeople(of user: String, scanning: Int) throws -> [String] {
        try db.rows(
            ExpensesQuery.recentPeople,
            [user, scanning]
        ).map { try $0.text(0) }
    }

    func expenseIDs(sharedBy user: String, with other: String, offset: Int, limit: Int) throws -> [String] {
        // Walk the list of whoever is in fewer expenses, newest first, and keep the ones the other
        // is in too (one look-up by key each): a page costs what the smaller list holds before it.
        let (walked, probed) = try expenseCount(of: other, upTo: Self.countCap) <= expenseCount(of: user, upTo: Self.countCap)
            ? (other, user) : (user, other)
        return try db.rows(
            ExpensesQuery.sharedExpenses,
            [probed, walked, limit, offset]
        ).map { try $0.text(0) }
    }

    /// Counting stops here: past it, both lists are long and either will do.
    private static let countCap = 10_000

    /// How many expenses `user` is in, counted by index up to `cap`.
    private func expenseCount(of user: String, upTo cap: Int) throws -> Int64 {
        try db.row("SELECT count(*) FROM (SELECT 1 FROM expense_person WHERE user_id = $1 LIMIT $2) AS found", [user, cap])?.integer(0) ?? 0
    }

    func insert(_ expense: StoredExpense) throws {
        // The expense and every person in it in one statement.
        var parameters = Parameters()
        let head = "INSERT INTO \(ExpenseRows.expenseTable) VALUES \(parameters.row(ExpenseRows.expense(expense)))"
        let people = try ExpenseRows.people(of: expense).map { parameters.row($0) }
        guard !people.isEmpty else {
            try db.execute(head, parameters.values)
            return
        }
        try db.execute(
            "WITH head AS (\(head))\nINSERT INTO \(ExpenseRows.personTable) VALUES \(people.joined(separator: ", "))",
            parameters.values
        )
    }

    func deleteExpense(id: String) throws {
        try db.execute("DELETE FROM expense WHERE id = $1", [id])
    }

    // Two people deleting (or restoring) one expense at once: the second one's insert of the same
    // id fails to serialize, so its write runs again and finds the expense gone, as on SQLite,
    // instead of breaking the unique key.
    func moveToDeleted(id: String, by user: String, at: Double) throws {
        try db.execute(
            """
            INSERT INTO deleted_expense
                (id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id, deleted_by, deleted_at)
            SELECT id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id, $2, $3
            FROM expense WHERE id = $1
            ON CONFLICT DO NOTHING
            """,
            [id, user, at]
        )
        try db.execute(
            """
            INSERT INTO deleted_expense_person (expense_id, user_id, deleted_at, paid, paid_position, part, part_position, rule_value)
            SELECT expense_id, user_id, $2, paid, paid_position, part, part_position, rule_value
            FROM expense_person WHERE expense_id = $1
            """,
            [id, at]
        )
        try db.execute("DELETE FROM expense WHERE id = $1", [id])
    }

    func restoreDeleted(id: String) throws {
        try db.execute(
            """
            INSERT INTO expense (id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id)
            SELECT id, description, amount, currency, day, category, split_mode, created_by, created_at, note, version, group_id
            FROM deleted_expense WHERE id = $1
            ON CONFLICT DO NOTHING
            """,
            [id]
        )
        try db.execute(
            """
            INSERT INTO expense_person
                (expense_id, user_id, day, created_at, category, currency, paid, paid_position, part, part_position, rule_value)
            SELECT person.expense_id, person.user_id, expense.day, expense.created_at, expense.category, expense.currency,
                   person.paid, person.paid_position, person.part, person.part_position, person.rule_value
            FROM deleted_expense_person AS person JOIN deleted_expense AS expense ON expense.id = person.expense_id
            WHERE person.expense_id = $1
            """,
            [id]
        )
        try db.execute("DELETE FROM deleted_expense WHERE id = $1", [id])
    }

    // MARK: - Payments


    private static let seriesSelect = """
        SELECT id, created_by, created_at, template, frequency, start, end_day, end_count, version,
               (SELECT array_agg(user_id ORDER BY user_id) FROM series_person WHERE series_id = s.id)
        FROM expense_series AS s
        """

    private static func seriesRecord(_ row: SQLRow) throws -> SeriesRecord {
        SeriesRecord(
            id: try row.text(0), createdBy: try row.text(1), createdAt: try row.real(2), template: try row.text(3), frequency: try row.text(4),
            start: try row.text(5), endDay: try row.optionalText(6), endCount: try row.optionalInteger(7).map { Int(clamping: $0) },
            people: try row.texts(9), version: Int(clamping: try row.integer(8))
        )
    }

    func series(id: String) throws -> SeriesRecord? {
        try db.row("\(Self.seriesSelect) WHERE s.id = $1", [id]).map(Self.seriesRecord)
    }

    func series(of user: String) throws -> [SeriesRecord] {
        try db.rows(
            "\(Self.seriesSelect) WHERE s.id IN (SELECT series_id FROM series_person WHERE user_id = $1) ORDER BY s.created_at, s.id", [user]
        ).map(Self.seriesRecord)
    }

    func seriesRunning(on day: String) throws -> [SeriesRecord] {
        try db.rows("\(Self.seriesSelect) WHERE s.end_day IS NULL OR s.end_day >= $1 ORDER BY s.created_at, s.id", [day]).map(Self.seriesRecord)
    }

    func occurrence(ofExpense id: String) throws -> (series: String, day: String)? {
        try db.row("SELECT series_id, day FROM series_occurrence WHERE expense_id = $1", [id]).map { (try $0.text(0), try $0.text(1)) }
    }

    func lastOccurrence(ofSeries id: String) throws -> String? {
        try db.row("SELECT max(day) FROM series_occurrence WHERE series_id = $1", [id]).flatMap { try $0.optionalText(0) }
    }

    func occurrences(ofSeries id: String) throws -> [(day: String, expense: String)] {
        try db.rows("SELECT day, expense_id FROM series_occurrence WHERE series_id = $1 ORDER BY day", [id]).map { (try $0.text(0), try $0.text(1)) }
    }

    func insert(_ series: SeriesRecord) throws {
        try db.execute(
            """
            INSERT INTO expense_series (id, created_by, created_at, template, frequency, start, end_day, end_count, version)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            """,
            [series.id, series.createdBy, series.createdAt, series.template, series.frequency, series.start, series.endDay, series.endCount, series.version]
        )
        try insertPeople(of: series)
    }

    func update(_ series: SeriesRecord) throws {
        try db.execute(
            "UPDATE expense_series SET template = $1, frequency = $2, end_day = $3, end_count = $4, version = $5 WHERE id = $6",
            [series.template, series.frequency, series.endDay, series.endCount, series.version, series.id]
        )
        try db.execute("DELETE FROM series_person WHERE series_id = $1", [series.id])
        try insertPeople(of: series)
    }

    private func insertPeople(of series: SeriesRecord) throws {
        for person in Set(series.people) {
            try db.execute("INSERT INTO series_person (series_id, user_id) VALUES ($1, $2)", [series.id, person])
        }
    }

    func claimOccurrence(series: String, day: String, expense: String) throws -> Bool {
        // A server that claims the same day at once waits for the other's transaction, then
        // finds the day taken.
        try db.execute(
            "INSERT INTO series_occurrence (series_id, day, expense_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [series, day, expense]
        ) > 0
    }

    func comments(onExpense id: String) throws -> [CommentRecord] {
        try db.rows("SELECT id, expense_id, author, at, text FROM expense_comment WHERE expense_id = $1 ORDER BY at, id", [id]).map { row in
            CommentRecord(id: try row.text(0), expense: try row.text(1), author: try row.text(2), at: try row.real(3), text: try row.text(4))
        }
    }

    func comment(id: String) throws -> CommentRecord? {
        try db.rows("SELECT id, expense_id, author, at, text FROM expense_comment WHERE id = $1", [id]).first.map { row in
            CommentRecord(id: try row.text(0), expense: try row.text(1), author: try row.text(2), at: try row.real(3), text: try row.text(4))
        }
    }

    func insert(_ comment: CommentRecord) throws {
        try db.execute(
            "INSERT INTO expense_comment (id, expense_id, author, at, text) VALUES ($1, $2, $3, $4, $5)",
            [comment.id, comment.expense, comment.author, comment.at, comment.text]
        )
    }

    func deleteComment(id: String, onExpense expense: String) throws -> Bool {
        try db.execute("DELETE FROM expense_comment WHERE id = $1 AND expense_id = $2", [id, expense]) > 0
    }

    func settlement(id: String) throws -> SettlementRecord? {
        try db.row("\(ExpensesQuery.settlementSelect) WHERE s.id = $1", [id]).map(SettlementRecord.init(row:))
    }

    func settlements(of user: String, offset: Int, limit: Int) throws -> [SettlementRecord] {
        try db.rows(
            ExpensesQuery.settlementsOfUser,
            [user, limit, offset]
        ).map(SettlementRecord.init(row:))
    }

    func insert(_ settlement: SettlementRecord) throws {
        try db.execute(
            """
            INSERT INTO settlement (
                id, from_user, to_user, amount, currency, day, created_by, created_at, group_id,
                converted_amount, converted_currency, rate_base, rate, rate_source
            )
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
            """,
            [
                settlement.id, settlement.from, settlement.to, settlement.amount, settlement.currency, settlement.day,
                settlement.createdBy, settlement.createdAt, settlement.group,
                settlement.conversion?.amount, settlement.conversion?.currency, settlement.conversion?.rateBase, settlement.conversion?.rate,
                settlement.conversion?.source,
            ]
        )
        for (position, leg) in settlement.legs.enumerated() {
            try db.execute(
                "INSERT INTO settlement_leg (settlement_id, position, creditor, debtor, amount) VALUES ($1, $2, $3, $4, $5)",
                [settlement.id, position, leg.creditor, leg.debtor, leg.amount]
            )
        }
    }

    func deleteSettlement(id: String) throws {
        try db.execute("DELETE FROM settlement WHERE id = $1", [id])
    }

    // MARK: - Balances

    private static let balanceColumns = "user_low, user_high, currency, amount"

    func balances(of user: String) throws -> [BalanceRecord] {
        // The pairs where the user is the low side, then those where they are the high side,
        // each in the order of its key (as SQLite reads them).
        try db.rows(
            ExpensesQuery.balancesOfUser,
            [user]
        ).map(BalanceRecord.init(row:))
    }

    func addToBalance(low: String, high: String, currency: String, amount: Int64) throws -> Int64 {
        let pair: [any SQLValueConvertible] = [low, high, currency]
        guard amount != 0 else { return try db.row(BalanceSQL.amount, pair)?.integer(0) ?? 0 }
        changes?.note(low, high)
        var parameters = Parameters()
        let moved = try db.row(BalanceSQL.move([parameters.row(pair + [amount])]), parameters.values)
        if let moved { return try moved.integer(3) }
        try db.execute(BalanceSQL.delete, pair)
        return 0
    }

    func addToGroupBalance(group: String, low: String, high: String, currency: String, amount: Int64) throws -> Int64 {
        let pair: [any SQLValueConvertible] = [group, low, high, currency]
        guard amount != 0 else { return try db.row(GroupBalanceSQL.amount, pair)?.integer(0) ?? 0 }
        if let moved = try db.row(GroupBalanceSQL.move, pair + [amount]) { return try moved.integer(0) }
        try db.execute(GroupBalanceSQL.delete, pair)
        return 0
    }

    func totals(inGroup group: String) throws -> (byMember: [SpendingRecord], byCategory: [SpendingRecord]) {
        let byMember = try db.rows(
            """
            SELECT person.user_id, expense.currency, sum(person.part)::bigint FROM expense
            JOIN expense_person AS person ON person.expense_id = expense.id
            WHERE expense.group_id = $1 AND person.part > 0
            GROUP BY person.user_id, expense.currency
            """,
            [group]
        ).map { SpendingRecord(group: try $0.text(0), currency: try $0.text(1), amount: try $0.integer(2)) }
        let byCategory = try db.rows(
            "SELECT category, currency, sum(amount)::bigint FROM expense WHERE group_id = $1 GROUP BY category, currency", [group]
        ).map { SpendingRecord(group: try $0.text(0), currency: try $0.text(1), amount: try $0.integer(2)) }
        return (byMember, byCategory)
    }

    func groupBalances(in group: String) throws -> [GroupBalanceRecord] {
        try db.rows(ExpensesQuery.balancesOfGroup, [group]).map(GroupBalanceRecord.init(row:))
    }

    func groupBalances(of user: String) throws -> [GroupBalanceRecord] {
        try db.rows(ExpensesQuery.groupBalancesOfUser, [user]).map(GroupBalanceRecord.init(row:))
    }

    func expenseIDs(inGroup group: String, offset: Int, limit: Int) throws -> [String] {
        try db.rows(ExpensesQuery.expensesOfGroup, [group, limit, offset]).map { try $0.text(0) }
    }

    func settlements(inGroup group: String, offset: Int, limit: Int) throws -> [SettlementRecord] {
        try db.rows(ExpensesQuery.settlementsOfGroup, [group, limit, offset]).map(SettlementRecord.init(row:))
    }

    // MARK: - Activity and reports

    func activity(of user: String, offset: Int, limit: Int) throws -> [ActivityRecord] {
        try db.rows(
            ExpensesQuery.activityPage,
            [user, limit, offset]
        ).map { row in
            ActivityRecord(
                id: try row.text(0), at: try row.real(1), actor: try row.text(2), kind: try row.text(3), subject: try row.text(4),
                summary: try row.text(5), people: try row.texts(6)
            )
        }
    }

    func activityKeys(of user: String) throws -> [(subject: String, id: String)] {
        try db.rows(
            """
            SELECT activity.subject, activity.id FROM activity_person
            JOIN activity ON activity.seq = activity_person.seq
            WHERE activity_person.user_id = $1
            ORDER BY activity_person.at, activity_person.seq
            """,
            [user]
        ).map { row in (try row.text(0), try row.text(1)) }
    }

    func insert(_ activity: ActivityRecord) throws {
        // The line and its people in one statement; each person once.
        try db.execute(
            """
            WITH line AS (
                INSERT INTO activity (id, at, actor, kind, subject, summary, snapshot) VALUES ($1, $2, $3, $4, $5, $6, $8) RETURNING seq, at
            )
            INSERT INTO activity_person (user_id, at, seq)
            SELECT DISTINCT person, line.at, line.seq FROM line CROSS JOIN unnest($7::text[]) AS person
            """,
            [activity.id, activity.at, activity.actor, activity.kind, activity.subject, activity.summary, activity.people, activity.snapshot]
        )
    }

    func deleteActivity(id: String, subject: String) throws {
        try db.execute(
            """
            WITH line AS (DELETE FROM activity WHERE subject = $1 AND id = $2 RETURNING seq)
            DELETE FROM activity_person WHERE seq IN (SELECT seq FROM line)
            """,
            [subject, id]
        )
    }

    func changes(ofExpense id: String) throws -> [ActivityRecord] {
        try db.rows(
            """
            SELECT activity.id, activity.at, activity.actor, activity.kind, activity.subject, activity.summary,
                   (SELECT array_agg(person.user_id ORDER BY person.user_id) FROM activity_person AS person WHERE person.seq = activity.seq),
                   activity.snapshot
            FROM activity WHERE subject = $1 ORDER BY seq
            """,
            [id]
        ).map { row in
            ActivityRecord(
                id: try row.text(0), at: try row.real(1), actor: try row.text(2), kind: try row.text(3), subject: try row.text(4),
                summary: try row.text(5), people: try row.texts(6), snapshot: try row.optionalText(7)
            )
        }
    }

    func spending(of user: String, from: String, through: String) throws -> (byCategory: [SpendingRecord], byMonth: [SpendingRecord]) {
        // The user's rows in the range, found in their list by day, summed by category, month and
        // currency (a sum past 64 bits is refused by the cast, as SQLite's sum() refuses it); the
        // two lists are added up from that.
        let rows = try db.rows(
            ExpensesQuery.spending,
            [user, from, through]
        )
        var byCategory: [[String]: Int64] = [:]
        var byMonth: [[String]: Int64] = [:]
        for row in rows {
            let (category, month, currency, total) = (try row.text(0), try row.text(1), try row.text(2), try row.integer(3))
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

    // MARK: - The whole ledger

    func forEachLedgerRow(
        expensePerson: (LedgerRow) throws -> Void, settlement: (SettlementRecord) throws -> Void, balance: (BalanceRecord) throws -> Void
    ) throws {
        // Through cursors, a batch at a time: memory does not grow with the ledger. The
        // expenses in the order of their key, each one's people together.
        try db.forEachRow(
            """
            SELECT expense.id, expense.amount, expense.currency, person.user_id,
                   person.paid, person.paid_position, person.part, person.part_position, expense.group_id
            FROM expense JOIN expense_person AS person ON person.expense_id = expense.id
            ORDER BY expense.id, person.user_id
            """
        ) { row in
            try expensePerson(LedgerRow(
                expense: try row.text(0), amount: try row.integer(1), currency: try row.text(2), user: try row.text(3),
                paid: try row.optionalInteger(4), paidPosition: try row.optionalInteger(5),
                part: try row.optionalInteger(6), partPosition: try row.optionalInteger(7), group: try row.optionalText(8)
            ))
        }
        try db.forEachRow("\(ExpensesQuery.settlementSelect) ORDER BY s.id") { row in try settlement(try SettlementRecord(row: row)) }
        try db.forEachRow("SELECT \(Self.balanceColumns) FROM balance ORDER BY user_low, user_high, currency") { row in
            try balance(try BalanceRecord(row: row))
        }
    }

    func forEachGroupBalance(_ body: (GroupBalanceRecord) throws -> Void) throws {
        try db.forEachRow("SELECT group_id, user_low, user_high, currency, amount FROM group_balance ORDER BY group_id, user_low, user_high, currency") {
            row in try body(try GroupBalanceRecord(row: row))
        }
    }

    // MARK: - Imports

    func importedKeys(of user: String, among keys: [String]) throws -> Set<String> {
        Set(try db.rows(
            """
            SELECT key FROM imported_entry WHERE user_id = $1 AND key = ANY($2)
            UNION SELECT expense_id FROM expense_person WHERE user_id = $1 AND expense_id = ANY($2)
            UNION SELECT id FROM settlement WHERE id = ANY($2) AND (from_user = $1 OR to_user = $1)
            """, [user, keys]
        ).map { try $0.text(0) })
    }

    func recordImport(of user: String, key: String, subject: String, at: Double) throws {
        _ = try db.execute("INSERT INTO imported_entry (user_id, key, subject, imported_at) VALUES ($1, $2, $3, $4)", [user, key, subject, at])
    }

    // MARK: - Linking a contact to an account

    func shareAnything(_ person: String, _ other: String) throws -> Bool {
        try db.row(
            """
            SELECT EXISTS (
                SELECT 1 FROM expense_person AS a JOIN expense_person AS b ON b.expense_id = a.expense_id AND b.user_id = $2
                WHERE a.user_id = $1
            ) OR EXISTS (
                SELECT 1 FROM settlement WHERE (from_user = $1 AND to_user = $2) OR (from_user = $2 AND to_user = $1)
            ) OR EXISTS (
                SELECT 1 FROM settlement_leg WHERE (creditor = $1 AND debtor = $2) OR (creditor = $2 AND debtor = $1)
            )
            """,
            [person, other]
        )?.boolean(0) ?? false
    }

    func renamePerson(from: String, to: String) throws {
        let statements = [
            "UPDATE expense_person SET user_id = $2 WHERE user_id = $1",
            "UPDATE expense SET created_by = $2 WHERE created_by = $1",
            // A deleted expense the two were both in could never be restored with them as one
            // person: it goes.
            """
            DELETE FROM deleted_expense WHERE id IN (
                SELECT a.expense_id FROM deleted_expense_person AS a
                JOIN deleted_expense_person AS b ON b.expense_id = a.expense_id AND b.user_id = $2
                WHERE a.user_id = $1
            )
            """,
            "UPDATE deleted_expense_person SET user_id = $2 WHERE user_id = $1",
            "UPDATE deleted_expense SET created_by = $2 WHERE created_by = $1",
            "UPDATE deleted_expense SET deleted_by = $2 WHERE deleted_by = $1",
            "UPDATE settlement SET from_user = $2 WHERE from_user = $1",
            "UPDATE settlement SET to_user = $2 WHERE to_user = $1",
            "UPDATE settlement SET created_by = $2 WHERE created_by = $1",
            "UPDATE settlement_leg SET creditor = $2 WHERE creditor = $1",
            "UPDATE settlement_leg SET debtor = $2 WHERE debtor = $1",
            "UPDATE activity SET actor = $2 WHERE actor = $1",
            "UPDATE expense_comment SET author = $2 WHERE author = $1",
            "UPDATE expense_series SET created_by = $2 WHERE created_by = $1",
            """
            UPDATE expense_series SET template = replace(template, '"' || $1 || '"', '"' || $2 || '"')
            WHERE id IN (SELECT series_id FROM series_person WHERE user_id = $1)
            """,
            """
            INSERT INTO series_person (series_id, user_id) SELECT series_id, $2 FROM series_person WHERE user_id = $1
            ON CONFLICT DO NOTHING
            """,
            "DELETE FROM series_person WHERE user_id = $1",
            // The expenses kept whole in their changes name the account too (ids are quoted
            // strings in them, and never part of another).
            """
            UPDATE activity SET snapshot = replace(snapshot, '"' || $1 || '"', '"' || $2 || '"')
            WHERE snapshot IS NOT NULL AND seq IN (SELECT seq FROM activity_person WHERE user_id = $1)
            """,
            // An activity can name both (an edit that swapped one for the other): it keeps one row.
            """
            UPDATE activity_person SET user_id = $2 WHERE user_id = $1 AND NOT EXISTS (
                SELECT 1 FROM activity_person AS kept WHERE kept.user_id = $2 AND kept.at = activity_person.at AND kept.seq = activity_person.seq
            )
            """,
            "DELETE FROM activity_person WHERE user_id = $1",
        ]
        for statement in statements { try db.execute(statement, [from, to]) }
    }
}

extension SettlementRecord {
    /// A row of `settlementSelect`.
    fileprivate init(row: SQLRow) throws {
        self.init(
            id: try row.text(0), from: try row.text(1), to: try row.text(2), amount: try row.integer(3), currency: try row.text(4),
            day: try row.text(5), createdBy: try row.text(6), createdAt: try row.real(7)
        )
        let (creditors, debtors, amounts) = (try row.texts(8), try row.texts(9), try row.integers(10))
        guard creditors.count == debtors.count, debtors.count == amounts.count else {
            throw ServerDatabaseError.damaged("the legs of payment \(id) do not line up")
        }
        legs = creditors.indices.map { Leg(creditor: creditors[$0], debtor: debtors[$0], amount: amounts[$0]) }
        group = try row.optionalText(11)
        conversion = Self.conversion(
            amount: try row.optionalInteger(12), currency: try row.optionalText(13), rateBase: try row.optionalText(14), rate: try row.optionalText(15),
            source: try row.optionalText(16)
        )
    }
}

extension BalanceRecord {
    fileprivate init(row: SQLRow) throws {
        self.init(low: try row.text(0), high: try row.text(1), currency: try row.text(2), amount: try row.integer(3))
    }
}

extension GroupBalanceRecord {
    fileprivate init(row: SQLRow) throws {
        self.init(group: try row.text(0), low: try row.text(1), high: try row.text(2), currency: try row.text(3), amount: try row.integer(4))
    }
}
