import Dispatch
import PostgresStore
import Synchronization
import Testing

@Suite("PostgresStore: transactions on a PostgreSQL database", TestDatabase.required)
struct ServerDatabaseTests {
    struct Refusal: Error, Equatable {}

    /// A database with one table, `counter (name TEXT PRIMARY KEY, value BIGINT CHECK (value >= 0))`.
    static func withCounter<T>(connections: Int = 4, _ test: (ServerDatabase) async throws -> T) async throws -> T {
        try await TestDatabase.withFresh { url in
            let database = ServerDatabase(url: url, maximumConnections: connections, migrations: [
                PostgresMigration("test.v1.counter", statements: [
                    "CREATE TABLE counter (name TEXT PRIMARY KEY, value BIGINT NOT NULL CHECK (value >= 0))",
                    "INSERT INTO counter VALUES ('hits', 0)",
                ]),
            ])
            do {
                let result = try await test(database)
                await database.shutdown()
                return result
            } catch {
                await database.shutdown()
                throw error
            }
        }
    }

    static func value(_ database: ServerDatabase) async throws -> Int64 {
        try await database.read { try $0.row("SELECT value FROM counter WHERE name = 'hits'")?.integer(0) ?? -1 }
    }

    @Test("a write commits; a throw in its body rolls it back and reaches the caller unchanged")
    func commitAndRollback() async throws {
        try await Self.withCounter { database in
            let changed = try await database.write { try $0.execute("UPDATE counter SET value = value + $1", [5]) }
            #expect(changed == 1)
            await #expect(throws: Refusal()) {
                try await database.write { db in
                    try db.execute("UPDATE counter SET value = value + 1")
                    throw Refusal()
                }
            }
            let value = try await Self.value(database)
            #expect(value == 5)
        }
    }

    @Test("values travel as parameters: text with quotes, NULL, bytes, numbers and lists come back as they went")
    func parameters() async throws {
        try await Self.withCounter { database in
            let row = try await database.read { db in
                try db.row("SELECT $1::text, $2::text, $3::bytea, $4::bigint, $5::float8, $6::bool, $7::text[]", [
                    "Robert'); DROP TABLE counter;--", String?.none, SQLValue.bytes([0, 1, 255]), Int64.min, 0.1, true, ["b", "a"],
                ]).map { row in
                    [
                        try row.text(0), String(describing: try row.optionalText(1)), "\(try row.optionalBytes(2) ?? [])",
                        "\(try row.integer(3))", "\(try row.real(4))", "\(try row.boolean(5))", "\(try row.texts(6))",
                    ]
                }
            }
            #expect(row == ["Robert'); DROP TABLE counter;--", "nil", "[0, 1, 255]", "-9223372036854775808", "0.1", "true", "[\"b\", \"a\"]"])
            let value = try await Self.value(database)
            #expect(value == 0)
        }
    }

    @Test("a value of the wrong type, or a column that is not there, is a damaged store, not a crash")
    func damaged() async throws {
        try await Self.withCounter { database in
            do {
                _ = try await database.read { try $0.row("SELECT name FROM counter")?.integer(0) }
                Issue.record("a text was read as a number")
            } catch ServerDatabaseError.damaged(let reason) {
                #expect(reason.hasPrefix("column name"))
            }
            await #expect(throws: ServerDatabaseError.damaged("a row of 1 columns has no column 3")) {
                try await database.read { try $0.row("SELECT name FROM counter")?.text(3) }
            }
            await #expect(throws: ServerDatabaseError.damaged("column x is NULL")) {
                try await database.read { try $0.row("SELECT NULL::text AS x")?.text(0) }
            }
        }
    }

    @Test("constraints refuse with their kind and name; other errors keep their SQLSTATE")
    func constraints() async throws {
        try await Self.withCounter { database in
            do {
                _ = try await database.write { try $0.execute("INSERT INTO counter VALUES ('hits', 1)") }
                Issue.record("a duplicate key was taken")
            } catch ServerDatabaseError.constraint(let violation) {
                #expect(violation.kind == .unique)
                #expect(violation.constraint == "counter_pkey")
                #expect(violation.table == "counter")
            }
            do {
                _ = try await database.write { try $0.execute("UPDATE counter SET value = -1") }
                Issue.record("a negative value was taken")
            } catch ServerDatabaseError.constraint(let violation) {
                #expect(violation.kind == .check)
                #expect(violation.constraint == "counter_value_check")
                #expect(violation.message.contains("counter_value_check"))
            }
            await #expect(throws: ServerDatabaseError.outOfRange("bigint out of range")) {
                try await database.write { try $0.execute("UPDATE counter SET value = value + $1 + $1", [Int64.max]) }
            }
            do {
                _ = try await database.read { try $0.rows("SELECT * FROM no_such_table").count }
                Issue.record("a missing table was read")
            } catch ServerDatabaseError.rejected(let state, let message) {
                #expect(state == "42P01")
                #expect(message.contains("no_such_table"))
            }
            // A read is read-only.
            await #expect(throws: ServerDatabaseError.self) { try await database.read { try $0.execute("UPDATE counter SET value = 1") } }
            let value = try await Self.value(database)
            #expect(value == 0)
        }
    }

    @Test("a body that swallows a statement's error cannot commit what came before it")
    func swallowedError() async throws {
        try await Self.withCounter { database in
            await #expect(throws: ServerDatabaseError.self) {
                try await database.write { db in
                    try db.execute("UPDATE counter SET value = 7")
                    _ = try? db.execute("INSERT INTO counter VALUES ('hits', 1)")
                }
            }
            let value = try await Self.value(database)
            #expect(value == 0)
        }
    }

    @Test("a read sees one snapshot: a write committed meanwhile is not in it")
    func snapshot() async throws {
        try await Self.withCounter { database in
            // A read like the one below, which teaches the database that reads beginning with
            // this statement go on: they begin in a transaction from then on (the one below,
            // which waits between its statements, runs once).
            _ = try await database.read { db in
                _ = try db.row("SELECT value FROM counter")
                return try db.row("SELECT 1")?.integer(0)
            }
            let readStarted = Flag()
            let written = DispatchSemaphore(value: 0)
            async let seen = database.read { db in
                let before = try db.row("SELECT value FROM counter")?.integer(0)
                readStarted.raise()
                written.wait()
                let after = try db.row("SELECT value FROM counter")?.integer(0)
                return [before, after]
            }
            await readStarted.raised()
            _ = try await database.write { try $0.execute("UPDATE counter SET value = 9") }
            written.signal()
            #expect(try await seen == [0, 0])
            #expect(try await Self.value(database) == 9)
        }
    }

    @Test("a write that fails to serialize with a concurrent one is run again, and both land")
    func retry() async throws {
        try await Self.withCounter { database in
            let firstRead = Flag()
            let secondDone = DispatchSemaphore(value: 0)
            let attempts = Atomic<Int>(0)
            // The first writer reads, waits for the second to commit, then writes what it read
            // plus one: PostgreSQL refuses that write (40001), and the database runs the body again.
            async let first: Void = database.write { db in
                let attempt = attempts.add(1, ordering: .relaxed).newValue
                let value = try db.row("SELECT value FROM counter WHERE name = 'hits'")?.integer(0) ?? 0
                if attempt == 1 {
                    firstRead.raise()
                    secondDone.wait()
                }
                try db.execute("UPDATE counter SET value = $1 WHERE name = 'hits'", [value + 1])
            }
            await firstRead.raised()
            _ = try await database.write { try $0.execute("UPDATE counter SET value = value + 1 WHERE name = 'hits'") }
            secondDone.signal()
            try await first
            #expect(attempts.load(ordering: .relaxed) == 2)
            #expect(try await Self.value(database) == 2)
        }
    }

    @Test("a write that keeps conflicting is given up after its attempts, as a conflict")
    func givenUp() async throws {
        try await TestDatabase.withFresh { url in
            let database = ServerDatabase(url: url, maximumConnections: 2, writeAttempts: 3)
            let attempts = Atomic<Int>(0)
            await #expect(throws: ServerDatabaseError.conflict(attempts: 3)) {
                try await database.write { db in
                    attempts.add(1, ordering: .relaxed)
                    // What PostgreSQL says when a transaction cannot be serialized.
                    try db.execute("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = 'serialization_failure'; END $$")
                }
            }
            #expect(attempts.load(ordering: .relaxed) == 3)
            await database.shutdown()
        }
    }

    @Test("a read of one statement runs on its own; one that goes on runs again in a transaction, and reads like it begin in one")
    func singleStatementReads() async throws {
        try await Self.withCounter { database in
            let runs = Mutex(0)
            // One statement: no transaction, one run.
            #expect(try await database.read { db -> Int64? in
                runs.withLock { $0 += 1 }
                return try db.row("SELECT value + 1 FROM counter")?.integer(0)
            } == 1)
            #expect(runs.withLock { $0 } == 1)
            // Two: run again in a transaction, with both answers from it.
            let twoStatements: @Sendable (ServerTransaction) throws -> [Int64?] = { db in
                runs.withLock { $0 += 1 }
                return [try db.row("SELECT value + 2 FROM counter")?.integer(0), try db.row("SELECT value + 3 FROM counter")?.integer(0)]
            }
            #expect(try await database.read(twoStatements) == [2, 3])
            #expect(runs.withLock { $0 } == 3)
            // Learned: its first statement does not run on its own again (the body starts over
            // there, in a transaction, before any round trip).
            #expect(try await database.read(twoStatements) == [2, 3])
            #expect(runs.withLock { $0 } == 5)
            // A body that swallows the signal to go on is run again all the same.
            #expect(try await database.read { db -> Int64? in
                runs.withLock { $0 += 1 }
                let first = try db.row("SELECT value + 4 FROM counter")?.integer(0)
                _ = try? db.row("SELECT 1")
                return first
            } == 4)
            #expect(runs.withLock { $0 } == 7)
            // Only a SELECT runs outside a transaction: anything else in a read meets the READ
            // ONLY transaction's refusal.
            await #expect(throws: ServerDatabaseError.self) {
                try await database.read { try $0.execute("UPDATE counter SET value = 5") }
            }
            await #expect(throws: ServerDatabaseError.self) {
                try await database.read { try $0.row("WITH changed AS (UPDATE counter SET value = 5 RETURNING value) SELECT value FROM changed")?.integer(0) }
            }
            #expect(try await Self.value(database) == 0)
            // A cursor needs a transaction: a read that begins with one is run in one.
            let values = try await database.read { db -> [Int64] in
                var values: [Int64] = []
                try db.forEachRow("SELECT n FROM generate_series(1, 3) AS n ORDER BY n") { values.append(try $0.integer(0)) }
                return values
            }
            #expect(values == [1, 2, 3])
        }
    }

    @Test("a whole table is read through a cursor, a batch at a time, in order")
    func cursor() async throws {
        try await Self.withCounter { database in
            let values = try await database.read { db in
                var values: [Int64] = []
                try db.forEachRow("SELECT n FROM generate_series(1, $1::int) AS n ORDER BY n", [2_500], batch: 1_000) { values.append(try $0.integer(0)) }
                return values
            }
            #expect(values == Array(1...2_500))
        }
    }

    @Test("the readiness probe answers within its timeout; a database shut down is not ready")
    func readiness() async throws {
        try await Self.withCounter { database in
            try await database.checkReady(timeout: .seconds(2))
            try await database.checkReady(timeout: .seconds(2))
        }
        let database = ServerDatabase(url: try TestDatabase.serverURL())
        try await database.checkReady()
        await database.shutdown()
        await #expect(throws: ServerDatabaseError.unavailable("it was shut down")) { try await database.checkReady() }
    }

    @Test("a database let go without a shutdown closes its idle connection rather than dropping it open")
    func letGo() async throws {
        try await TestDatabase.withFresh { url in
            var database: ServerDatabase? = ServerDatabase(url: url, maximumConnections: 1)
            let one = try await database?.read { try $0.row("SELECT 1")?.integer(0) }
            #expect(one == 1)
            database = nil
            // The server sees the connection go.
            let admin = ServerDatabase(url: url, maximumConnections: 1)
            var others: Int64 = -1
            for _ in 0..<100 where others != 0 {
                others = try await admin.withoutTransaction { db in
                    try db.row("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")?.integer(0) ?? -1
                }
                if others != 0 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(others == 0)
            await admin.shutdown()
        }
    }

    @Test("a wrong password, or a database that does not exist, is unavailable with the server's reason")
    func wrongCredentials() async throws {
        var url = try TestDatabase.serverURL()
        url.password = "not the password"
        let wrongPassword = ServerDatabase(url: url, maximumConnections: 1)
        do {
            _ = try await wrongPassword.read { _ in 1 }
            Issue.record("a wrong password was let in")
        } catch ServerDatabaseError.unavailable(let reason) {
            #expect(reason.contains("password authentication failed"))
        }
        await wrongPassword.shutdown()
        let missing = ServerDatabase(url: try TestDatabase.serverURL().database("no_such_database"), maximumConnections: 1)
        do {
            _ = try await missing.read { _ in 1 }
            Issue.record("a missing database was opened")
        } catch ServerDatabaseError.unavailable(let reason) {
            #expect(reason.contains("no_such_database"))
        }
        await missing.shutdown()
    }
}

/// Raised on a database thread, awaited by a test without blocking Swift's threads.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    func raise() { value.store(true, ordering: .releasing) }

    func raised() async {
        while !value.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(2)) }
    }
}
