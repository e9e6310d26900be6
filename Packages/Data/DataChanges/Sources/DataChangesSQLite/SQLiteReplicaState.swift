import DataChanges
import GRDB
import LocalStore

/// The table a replica keeps its ``ReplicaState`` in, beside the embedded store's own.
public enum ReplicaStateSchema {
    /// Registers the replica's migrations, oldest first (a replica's store only).
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("replica.v1.state") { db in
            try db.execute(sql: """
                -- caught_up: a pull reached the server's last page since the replica began.
                CREATE TABLE replica_state (
                    person TEXT PRIMARY KEY NOT NULL,
                    cursor TEXT NOT NULL,
                    pulled_at REAL NOT NULL,
                    caught_up INTEGER NOT NULL CHECK (caught_up IN (0, 1))
                ) STRICT;
                """)
        }
    }

    /// `migrations`, then the replica's (its state, and its queue of writes): a replica's store.
    public static func adding(
        to migrations: @escaping @Sendable (inout DatabaseMigrator) -> Void
    ) -> @Sendable (inout DatabaseMigrator) -> Void {
        { migrator in
            migrations(&migrator)
            registerMigrations(in: &migrator)
            WriteQueueSchema.registerMigrations(in: &migrator)
        }
    }
}

/// A replica's ``ReplicaState`` on its SQLite store.
public struct SQLiteReplicaState: ReplicaStateStore {
    private let database: LocalDatabase

    public init(database: LocalDatabase) {
        self.database = database
    }

    public func state(of person: String) async throws -> ReplicaState? {
        try database.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT cursor, pulled_at, caught_up FROM replica_state WHERE person = ?"), arguments: [person]).map {
                ReplicaState(cursor: $0[0], pulledAt: $0[1], caughtUp: $0[2])
            }
        }
    }

    public func save(_ state: ReplicaState, of person: String) async throws {
        try database.write { db in
            // Cursors only grow: a pull that finished behind another (another process's) leaves
            // the newer one.
            if let kept = try String.fetchOne(db.cachedStatement(sql: "SELECT cursor FROM replica_state WHERE person = ?"), arguments: [person]),
                let old = LogPosition(kept), let new = LogPosition(state.cursor), new < old
            {
                return
            }
            try db.cachedStatement(sql: """
                INSERT INTO replica_state (person, cursor, pulled_at, caught_up) VALUES (?, ?, ?, ?)
                ON CONFLICT (person) DO UPDATE SET cursor = excluded.cursor, pulled_at = excluded.pulled_at, caught_up = excluded.caught_up
                """).execute(arguments: [person, state.cursor, state.pulledAt, state.caughtUp])
        }
    }

    public func erase() async throws {
        try database.write { db in
            // Every table of the store but the record of its migrations and the writes still to
            // push (what the user did is never lost; the pull brings what they did, once
            // pushed); children before parents is not needed, with the foreign keys checked at
            // the end of the transaction.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master
                    WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('grdb_migrations', 'write_queue') ORDER BY name
                    """
            )
            for table in tables { try db.execute(sql: "DELETE FROM \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\"") }
        }
    }
}
