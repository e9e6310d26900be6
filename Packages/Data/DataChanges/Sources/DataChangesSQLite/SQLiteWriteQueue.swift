import DataChanges
import Foundation
import GRDB
import LocalStore

/// The table a replica keeps its writes for the server in, beside ``ReplicaStateSchema``'s.
public enum WriteQueueSchema {
    /// Registers the queue's migrations, oldest first (a replica's store only).
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("replica.v2.write-queue") { db in
            try db.execute(sql: """
                -- seq: the order the writes were made in. path, query, provisional: JSON.
                -- outcome: NULL while the write waits; refused or conflict once answered so.
                CREATE TABLE write_queue (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    person TEXT NOT NULL,
                    key TEXT NOT NULL UNIQUE,
                    operation TEXT NOT NULL,
                    path TEXT NOT NULL,
                    query TEXT NOT NULL,
                    body BLOB,
                    version INTEGER,
                    made REAL NOT NULL,
                    summary TEXT NOT NULL,
                    provisional TEXT NOT NULL,
                    outcome TEXT CHECK (outcome IN ('refused', 'conflict')),
                    status INTEGER,
                    reason TEXT
                ) STRICT;
                CREATE INDEX write_queue_person ON write_queue (person, seq);
                """)
        }
    }
}

/// A replica's writes for the server, on its SQLite store.
public struct SQLiteWriteQueue: WriteQueueStore {
    private let database: LocalDatabase

    public init(database: LocalDatabase) {
        self.database = database
    }

    public func append(_ write: QueuedWriteRecord, of person: String) async throws {
        try database.write { db in
            try db.cachedStatement(sql: """
                INSERT INTO write_queue (person, key, operation, path, query, body, version, made, summary, provisional, outcome, status, reason)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    person, write.key, write.operation, try Self.json(write.path), try Self.json(write.query), write.body.map { Data($0) },
                    write.version, write.made, write.summary, try Self.json(write.provisional), write.outcome, write.status, write.reason,
                ])
        }
    }

    public func writes(of person: String) async throws -> [QueuedWriteRecord] {
        try database.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT key, operation, path, query, body, version, made, summary, provisional, outcome, status, reason
                    FROM write_queue WHERE person = ? ORDER BY seq
                    """),
                arguments: [person]
            ).map { row in
                let body: Data? = row[4]
                return QueuedWriteRecord(
                    key: row[0], operation: row[1], path: try Self.decode(row[2]), query: try Self.decode(row[3]), body: body.map { [UInt8]($0) },
                    version: row[5], made: row[6], summary: row[7], provisional: try Self.decode(row[8]), outcome: row[9], status: row[10],
                    reason: row[11]
                )
            }
        }
    }

    public func update(_ write: QueuedWriteRecord) async throws {
        try database.write { db in
            try db.cachedStatement(sql: "UPDATE write_queue SET provisional = ?, outcome = ?, status = ?, reason = ? WHERE key = ?")
                .execute(arguments: [try Self.json(write.provisional), write.outcome, write.status, write.reason, write.key])
        }
    }

    public func remove(_ key: String) async throws {
        try database.write { db in try db.cachedStatement(sql: "DELETE FROM write_queue WHERE key = ?").execute(arguments: [key]) }
    }

    private static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func decode<T: Decodable>(_ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
