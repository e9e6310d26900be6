import DataChanges
import GRDB
import LocalStore

/// The change log of a server's SQLite store (docs/sync.md): one row a person and entity, written
/// by every area's store in the same transaction as the change. One write runs at a time, so a
/// row's number is its commit order and a position's transaction is always 0.
public enum ChangeLogSchema {
    /// Registers the log's migrations, oldest first (a server's store only).
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("changes.v1.change-log") { db in
            try db.execute(sql: """
                -- AUTOINCREMENT: a number is never used again, even after the newest rows are
                -- pruned, so positions only grow. `at`: when it was written (seconds since 1970,
                -- UTC), for pruning.
                CREATE TABLE sync_change (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    person TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    entity TEXT NOT NULL,
                    at REAL NOT NULL
                ) STRICT;
                -- Each person's rows are one range of the index, in order.
                CREATE INDEX sync_change_person ON sync_change(person, seq);
                -- The newest row pruned: a reader's position before it has missed rows.
                CREATE TABLE sync_change_pruned (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    seq INTEGER NOT NULL
                ) STRICT;
                """)
        }
    }

    /// `migrations`, then the log's: a server's store.
    public static func adding(
        to migrations: @escaping @Sendable (inout DatabaseMigrator) -> Void
    ) -> @Sendable (inout DatabaseMigrator) -> Void {
        { migrator in
            migrations(&migrator)
            registerMigrations(in: &migrator)
        }
    }
}

extension LocalDatabase {
    /// Runs `work` in a write transaction, as ``write(_:)`` does, with a note of whom it concerns
    /// and what it changed when someone is told (`observer`) or this database keeps a change
    /// log (nil otherwise). The changes noted are logged in the same transaction; `observer` is
    /// told afterwards, whether the write went through or not.
    public func write<T>(telling observer: PeopleChanged?, _ work: (Database, ChangedPeople?) throws -> T) async throws -> T {
        try await ChangedPeople.watching(observer, logging: keepsChangeLog) { noted in
            try write { db in
                let result = try work(db, noted)
                if keepsChangeLog, let noted { try SQLiteChangeLog.append(noted.takeChanges(), in: db) }
                return result
            }
        }
    }
}

/// The change log read and written on SQLite.
public struct SQLiteChangeLog: ChangeLogStore {
    private let database: LocalDatabase

    public init(database: LocalDatabase) {
        self.database = database
    }

    /// Writes `changes` inside the transaction of `db`, each once (a write that noted one twice
    /// logs it once).
    public static func append(_ changes: [Change], in db: Database) throws {
        var seen = Set<Change>()
        let statement = try db.cachedStatement(
            sql: "INSERT INTO sync_change (person, kind, entity, at) VALUES (?, ?, ?, (julianday('now') - 2440587.5) * 86400.0)"
        )
        for change in changes where seen.insert(change).inserted {
            try statement.execute(arguments: [change.person, change.kind.rawValue, change.id])
        }
    }

    public func changes(for audience: [String], after position: LogPosition, limit: Int) async throws -> [LoggedChange] {
        guard !audience.isEmpty else { return [] }
        return try database.read { db in
            // The highest number ever given (AUTOINCREMENT keeps it even once its row is pruned).
            let given = try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'sync_change'")) ?? 0
            guard position.transaction == 0, position.sequence <= given else { throw ChangeLogError.ahead }
            if position != .start, let pruned = try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sync_change_pruned")),
                position.sequence < pruned
            {
                throw ChangeLogError.expired
            }
            // Each of the audience's rows are one range of the index: the first `limit` of each
            // range, then the first `limit` of those, so a page reads at most `limit` rows an
            // audience however many follow (one `IN` would read them all, to sort them).
            let range = "SELECT seq, kind, entity FROM sync_change WHERE person = ? AND seq > ? ORDER BY seq LIMIT ?"
            let sql = audience.count == 1
                ? range
                : "SELECT seq, kind, entity FROM (\(Array(repeating: "SELECT * FROM (\(range))", count: audience.count).joined(separator: " UNION ALL "))) ORDER BY seq LIMIT ?"
            var arguments: [any DatabaseValueConvertible] = []
            for person in audience { arguments += [person, position.sequence, max(0, limit)] }
            if audience.count > 1 { arguments.append(max(0, limit)) }
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)).map { row in
                LoggedChange(position: LogPosition(transaction: 0, sequence: row["seq"]), kind: Change.Kind(rawValue: row["kind"]), id: row["entity"])
            }
        }
    }

    public func prune(before cutoff: Double) async throws -> Int {
        try database.write { db in
            // Rows are numbered in the order they were written, so those before the cutoff are
            // the first ones.
            guard let newest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM sync_change WHERE at < ?"), arguments: [cutoff]) else {
                return 0
            }
            try db.cachedStatement(sql: "DELETE FROM sync_change WHERE seq <= ?").execute(arguments: [newest])
            let pruned = db.changesCount
            try db.cachedStatement(
                sql: "INSERT INTO sync_change_pruned (id, seq) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET seq = max(seq, ?1)"
            ).execute(arguments: [newest])
            return pruned
        }
    }

    public func horizon() async throws -> LogPosition {
        // One write at a time: every write to come numbers its rows after the last one.
        try database.read { db in
            LogPosition(transaction: 0, sequence: try Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(seq), 0) FROM sync_change")) ?? 0)
        }
    }

    public func newest(for person: String) async throws -> LogPosition? {
        try database.read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM sync_change WHERE person = ?"), arguments: [person])
                .map { LogPosition(transaction: 0, sequence: $0) }
        }
    }

    public func log(_ changes: [Change]) async throws {
        guard !changes.isEmpty else { return }
        try database.write { db in try Self.append(changes, in: db) }
    }
}
