import DataChangesPostgres
import Accounts
import AccountsDataPostgres
import AccountsLive
import AccountsData
import Expenses
import ExpensesDataPostgres
import ExpensesLive
import PostgresStore
import Primitives
import Testing

@Suite("PostgreSQL migrations", TestDatabase.required)
struct MigrationTests {
    @Test("every area's migrations apply once, in order; applying them again changes nothing")
    func twice() async throws {
        try await TestDatabase.withFresh { url in
            let first = ServerDatabase(url: url, migrations: allMigrations)
            try await first.migrate()
            let applied = try await first.appliedMigrations()
            #expect(applied == allMigrations.map(\.identifier))
            let recorded = try await rows(first)
            try await first.migrate()
            await first.shutdown()
            let second = ServerDatabase(url: url, migrations: allMigrations)
            try await second.migrate()
            #expect(try await rows(second) == recorded)
            #expect(try await second.appliedMigrations() == applied)
            await second.shutdown()
        }
    }

    @Test("servers starting at once take turns: each migration runs once")
    func concurrentStarts() async throws {
        try await TestDatabase.withFresh { url in
            let servers = (0..<4).map { _ in ServerDatabase(url: url, maximumConnections: 2, migrations: allMigrations) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for server in servers { group.addTask { try await server.migrate() } }
                try await group.waitForAll()
            }
            #expect(try await servers[0].appliedMigrations() == allMigrations.map(\.identifier))
            for server in servers { await server.shutdown() }
        }
    }

    @Test("a database migrated by a newer version is refused, saying so, and left as it is")
    func newerSchema() async throws {
        try await TestDatabase.withFresh { url in
            let current = ServerDatabase(url: url, migrations: allMigrations)
            try await current.migrate()
            _ = try await current.write { db in
                try db.execute("INSERT INTO schema_migrations (identifier, position, applied_at) VALUES ('accounts.postgres.v9.future', 99, 0)")
            }
            await current.shutdown()
            let older = ServerDatabase(url: url, migrations: allMigrations)
            await #expect(throws: ServerDatabaseError.newerSchema(database: url.description, unknownMigrations: ["accounts.postgres.v9.future"])) {
                try await older.migrate()
            }
            // Through the services it is an unavailable store, with the reason.
            let accounts = LiveAccountsService(store: PostgresAccountsStore(database: older), tokens: InMemorySessionTokenStore(), hasher: PasswordHasher(cost: 4), visibility: OwnAccountOnly())
            do {
                _ = try await accounts.signIn(email: "ada@example.com", password: "correct horse")
                Issue.record("a newer database was used")
            } catch AccountsError.storeUnavailable(let reason) {
                #expect(reason.contains("migrated by a newer version"))
                #expect(reason.contains("accounts.postgres.v9.future"))
            }
            #expect(try await older.appliedMigrations().count == allMigrations.count + 1)
            await older.shutdown()
        }
    }

    @Test("a migration that fails leaves nothing of itself and is tried again at the next use")
    func failing() async throws {
        try await TestDatabase.withFresh { url in
            let broken = ServerDatabase(url: url, migrations: [
                PostgresMigration("test.v1.good", statements: ["CREATE TABLE good (id INTEGER)"]),
                PostgresMigration("test.v2.broken", statements: ["CREATE TABLE half (id INTEGER)", "CREATE TABLE oops (id NO_SUCH_TYPE)"]),
            ])
            await #expect(throws: ServerDatabaseError.self) { try await broken.migrate() }
            await #expect(throws: ServerDatabaseError.self) { try await broken.read { _ in 1 } }
            #expect(try await broken.appliedMigrations() == ["test.v1.good"])
            let tables = try await broken.withoutTransaction { db in
                try db.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename").map { try $0.text(0) }
            }
            #expect(tables == ["good", "schema_migrations"])
            await broken.shutdown()
            let fixed = ServerDatabase(url: url, migrations: [
                PostgresMigration("test.v1.good", statements: ["CREATE TABLE good (id INTEGER)"]),
                PostgresMigration("test.v2.broken", statements: ["CREATE TABLE half (id INTEGER)"]),
            ])
            #expect(try await fixed.read { try $0.row("SELECT count(*) FROM half")?.integer(0) } == 0)
            await fixed.shutdown()
        }
    }
}

@Suite("PostgreSQL migrations of the ledger", TestDatabase.required)
struct LedgerMigrationTests {
    @Test("expenses written when pairs followed ids keep them: places in id order where two came out ahead and two behind, nowhere else")
    func placesInIDOrder() async throws {
        let (ann, cy, dee) = (UserID(rawValue: "a-ann"), UserID(rawValue: "c-cy"), UserID(rawValue: "d-dee"))
        try await TestDatabase.withFresh { url in
            // Up to the migration before places in id order.
            let before = ServerDatabase(url: url, migrations: Array(ExpensesPostgresSchema.migrations.prefix(2)))
            try await before.migrate()
            #expect(try await before.appliedMigrations().last == "expenses.postgres.v2.activity-people-without-foreign-key")
            // The same trip and dinner as the SQLite store's test: see ExpensesTests.MigrationTests.
            _ = try await before.write { db in
                try db.execute("""
                    INSERT INTO expense (id, description, amount, currency, day, category, split_mode, created_by, created_at)
                    VALUES ('e-trip', 'Trip', 1000, 'EUR', '2026-03-01', 'travel', 'exact', 'a-ann', 1.0),
                           ('e-dinner', 'Dinner', 1001, 'EUR', '2026-03-02', 'food', 'equal', 'a-ann', 2.0)
                    """)
                try db.execute("""
                    INSERT INTO expense_person
                        (expense_id, user_id, day, created_at, category, currency, paid, paid_position, part, part_position, rule_value)
                    VALUES ('e-trip', 'c-cy', '2026-03-01', 1.0, 'travel', 'EUR', 600, 0, NULL, NULL, NULL),
                           ('e-trip', 'a-ann', '2026-03-01', 1.0, 'travel', 'EUR', 400, 1, NULL, NULL, NULL),
                           ('e-trip', 'b-bob', '2026-03-01', 1.0, 'travel', 'EUR', NULL, NULL, 300, 0, 300),
                           ('e-trip', 'd-dee', '2026-03-01', 1.0, 'travel', 'EUR', NULL, NULL, 700, 1, 700),
                           ('e-dinner', 'a-ann', '2026-03-02', 2.0, 'food', 'EUR', 1001, 0, NULL, NULL, NULL),
                           ('e-dinner', 'c-cy', '2026-03-02', 2.0, 'food', 'EUR', NULL, NULL, 500, 0, NULL),
                           ('e-dinner', 'b-bob', '2026-03-02', 2.0, 'food', 'EUR', NULL, NULL, 501, 1, NULL)
                    """)
                try db.execute("""
                    INSERT INTO balance (user_low, user_high, currency, amount)
                    VALUES ('a-ann', 'b-bob', 'EUR', 801), ('a-ann', 'd-dee', 'EUR', 100), ('c-cy', 'd-dee', 'EUR', 600),
                           ('a-ann', 'c-cy', 'EUR', 500)
                    """)
            }
            await before.shutdown()

            let database = ServerDatabase(url: url, migrations: PostgresChangeLog.migrations + ExpensesPostgresSchema.migrations)
            try await database.migrate()
            #expect(try await database.appliedMigrations().last == "expenses.postgres.v10.series")
            let store = PostgresExpensesStore(database: database)
            let service = LiveExpensesService(store: store, people: Everyone())
            let verifier = LiveLedgerVerifier(store: store)
            #expect(try await verifier.verify().isSound)
            let trip = try #require(try await service.expense(ExpenseID(rawValue: "e-trip"), for: ann))
            #expect(trip.payers.map(\.user) == [ann, cy])
            let dinner = try #require(try await service.expense(ExpenseID(rawValue: "e-dinner"), for: ann))
            #expect(dinner.split.parts.map { "\($0.user) \($0.amount.minorUnits)" } == ["c-cy 500", "b-bob 501"])
            try await service.delete(trip, by: ann)
            try await service.delete(dinner, by: ann)
            #expect(try await service.balances(of: ann) == [])
            #expect(try await service.balances(of: dee) == [])
            #expect(try await verifier.verify().isSound)
            await database.shutdown()
        }
    }
}

/// The migrations table as it stands, row by row.
private func rows(_ database: ServerDatabase) async throws -> [String] {
    try await database.read { db in
        try db.rows("SELECT identifier, position, applied_at FROM schema_migrations ORDER BY position").map {
            "\(try $0.text(0)) \(try $0.integer(1)) \(try $0.real(2))"
        }
    }
}
