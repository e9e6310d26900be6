@testable import ExpensesDataPostgres
import DataChangesPostgres
import PostgresStore
import Testing

/// How PostgreSQL runs the ledger's reads on a large ledger: a user with 1,000 friends, 100,000
/// expenses and as many activity lines, among 100,000 balances of other people. Every list and
/// balance of a user is read through an index, never by scanning a table.
@Suite("Expenses on PostgreSQL at scale", TestDatabase.required)
struct ExpensesScaleTests {
    @Test("a user's balances, activity, lists, payments, shared expenses and a month's report are index lookups")
    func indexed() async throws {
        let reads: [(name: String, query: String, values: [SQLValue])] = [
            ("balances of a user", ExpensesQuery.balancesOfUser, [.text("u-0")]),
            ("a page of activity", ExpensesQuery.activityPage, [.text("u-0"), .integer(10), .integer(0)]),
            ("a later page of activity", ExpensesQuery.activityPage, [.text("u-0"), .integer(10), .integer(500)]),
            ("a page of expenses", ExpensesQuery.expensesOfUser, [.text("u-0"), .integer(20), .integer(40)]),
            ("a page shared with a friend", ExpensesQuery.sharedExpenses, [.text("u-0"), .text("f-7"), .integer(10), .integer(0)]),
            ("a page of deleted expenses", ExpensesQuery.deletedExpensesOfUser, [.text("u-0"), .integer(10), .integer(0)]),
            ("a page of payments", ExpensesQuery.settlementsOfUser, [.text("u-0"), .integer(10), .integer(0)]),
            ("recent people", ExpensesQuery.recentPeople, [.text("u-0"), .integer(500)]),
            ("a month's report", ExpensesQuery.spending, [.text("u-0"), .text("2026-03-01"), .text("2026-03-31")]),
        ]
        try await Self.withLargeLedger { database in
            for read in reads {
                let query = read.query, values = read.values
                let plan = try await database.read { db in try db.rows("EXPLAIN \(query)", values).map { try $0.text(0) } }
                let text = plan.joined(separator: "\n")
                #expect(!text.contains("Seq Scan"), "\(read.name):\n\(text)")
                #expect(text.contains("Index"), "\(read.name):\n\(text)")
            }
        }
    }

    /// A large ledger, filled by SQL.
    static func withLargeLedger(_ test: (ServerDatabase) async throws -> Void) async throws {
        try await TestDatabase.withFresh { url in
            let database = ServerDatabase(url: url, maximumConnections: 2, migrations: PostgresChangeLog.migrations + ExpensesPostgresSchema.migrations, statementTimeout: nil)
            do {
                try await database.migrate()
                try await database.write { db in
                    for statement in Self.filling { try db.execute(statement) }
                }
                _ = try await database.withoutTransaction { try $0.execute("ANALYZE") }
                try await test(database)
            } catch {
                await database.shutdown()
                throw error
            }
            await database.shutdown()
        }
    }

    /// `u-0` shares expense `e-N` with friend `f-(N mod 1000)`, on days over three years; the
    /// friends pay one another, and `u-0` one payment in twenty.
    static let filling = [
        """
        INSERT INTO expense (id, description, amount, currency, day, category, split_mode, created_by, created_at)
        SELECT 'e-' || n, 'Expense ' || n, 1000, 'EUR', to_char(date '2024-01-01' + (n % 1000), 'YYYY-MM-DD'), 'food', 'equal', 'u-0', n
        FROM generate_series(1, 100000) AS n
        """,
        """
        INSERT INTO expense_person (expense_id, user_id, day, created_at, category, currency, paid, paid_position, part, part_position)
        SELECT 'e-' || n, 'u-0', to_char(date '2024-01-01' + (n % 1000), 'YYYY-MM-DD'), n, 'food', 'EUR', 1000, 0, 500, 0
        FROM generate_series(1, 100000) AS n
        UNION ALL
        SELECT 'e-' || n, 'f-' || (n % 1000), to_char(date '2024-01-01' + (n % 1000), 'YYYY-MM-DD'), n, 'food', 'EUR', NULL, NULL, 500, 1
        FROM generate_series(1, 100000) AS n
        """,
        "INSERT INTO balance SELECT 'f-' || n, 'u-0', 'EUR', 50000 FROM generate_series(0, 999) AS n",
        "INSERT INTO balance SELECT 'g-' || n, 'h-' || n, 'EUR', 100 FROM generate_series(1, 100000) AS n",
        "INSERT INTO activity (id, at, actor, kind, subject, summary) SELECT 'a-' || n, n, 'u-0', 'added', 'e-' || n, 'Expense' FROM generate_series(1, 100000) AS n",
        "INSERT INTO activity_person SELECT 'u-0', seq, seq FROM activity UNION ALL SELECT 'f-' || (seq % 1000), seq, seq FROM activity",
        """
        INSERT INTO settlement (id, from_user, to_user, amount, currency, day, created_by, created_at)
        SELECT 's-' || n, 'f-' || (n % 1000), CASE WHEN n % 20 = 0 THEN 'u-0' ELSE 'f-' || ((n + 1) % 1000) END, 100, 'EUR',
               to_char(date '2024-01-01' + (n % 1000), 'YYYY-MM-DD'), 'f-' || (n % 1000), n
        FROM generate_series(1, 20000) AS n
        """,
        """
        INSERT INTO settlement_leg (settlement_id, position, creditor, debtor, amount)
        SELECT 's-' || n, p, 'f-' || (n % 1000), 'g-' || p, 50 FROM generate_series(1, 20000, 10) AS n, generate_series(0, 1) AS p
        """,
        """
        INSERT INTO deleted_expense (id, description, amount, currency, day, category, split_mode, created_by, created_at, deleted_by, deleted_at)
        SELECT 'd-' || n, 'Gone ' || n, 1000, 'EUR', '2025-01-01', 'food', 'equal', 'u-0', n, 'u-0', n FROM generate_series(1, 5000) AS n
        """,
        """
        INSERT INTO deleted_expense_person (expense_id, user_id, deleted_at, part, part_position)
        SELECT 'd-' || n, 'u-0', n, 1000, 0 FROM generate_series(1, 5000) AS n
        """,
    ]
}
