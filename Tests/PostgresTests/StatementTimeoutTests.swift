import PostgresStore
import Testing

@Suite("PostgreSQL statements have a time limit", TestDatabase.required)
struct StatementTimeoutTests {
    @Test("a statement past the limit is cancelled and fails as the store unavailable; the connection serves on")
    func cancelled() async throws {
        try await TestDatabase.withFresh { url in
            let database = ServerDatabase(url: url, maximumConnections: 1, statementTimeout: .milliseconds(200))
            await #expect(throws: ServerDatabaseError.self) {
                _ = try await database.read { db in try db.rows("SELECT pg_sleep(3)").count }
            }
            let answer = try await database.read { db in try db.rows("SELECT 1")[0].integer(0) }
            #expect(answer == 1)
            // Migrations run without it: one that takes longer still completes.
            let slow = ServerDatabase(
                url: url, maximumConnections: 1, migrations: [PostgresMigration("slow", statements: ["SELECT pg_sleep(0.5)"])], statementTimeout: .milliseconds(200)
            )
            try await slow.migrate()
            await slow.shutdown()
            await database.shutdown()
        }
    }
}
