import GRDB
import Synchronization

/// In-memory databases migrated once per process, one per set of migrations, and the
/// connections of in-memory stores that are done with, kept for the next store of their schema.
///
/// A new in-memory store is a copy of its template (SQLite's backup), which costs a fraction of
/// running the migrations again; better still, it takes a connection an earlier store left, with
/// its rows replaced by the template's (``StoreSnapshot``): that connection keeps every statement
/// it prepared, where a copy would prepare each one again (parsing SQL is most of what a
/// harness's short run costs).
final class MigratedTemplates: Sendable {
    static let shared = MigratedTemplates()

    /// A migrated database and its rows.
    struct Template: Sendable {
        let queue: DatabaseQueue
        let rows: StoreSnapshot
    }

    /// The templates by the identifiers of their migrations, in order.
    private let templates = Mutex<[[String]: Template]>([:])
    /// Connections left by in-memory stores, by the identifiers of their migrations.
    private let idle = Mutex<[[String]: [LocalDatabase.Connection]]>([:])
    /// The most connections kept per schema: as many as stores are open at once in a busy run.
    private let mostIdle = 16

    /// The template of `migrator`'s schema, made by `migrate` on a new in-memory database the
    /// first time it is asked for. A failed migration is not kept: the next call tries again.
    func template(
        for migrator: DatabaseMigrator, configuration: Configuration, migrate: (DatabaseQueue) throws(LocalStoreError) -> Void
    ) throws(LocalStoreError) -> Template {
        try templates.withLock { templates throws(LocalStoreError) in
            if let found = templates[migrator.migrations] { return found }
            let template: Template
            do {
                let queue = try DatabaseQueue(configuration: configuration)
                try migrate(queue)
                template = Template(queue: queue, rows: try queue.read { try StoreSnapshot($0) })
            } catch let error as LocalStoreError {
                throw error
            } catch {
                throw .cannotOpen("an in-memory database", reason: FileProblem.reason(error))
            }
            templates[migrator.migrations] = template
            return template
        }
    }

    /// A connection an in-memory store of `migrator`'s schema left, if one is idle: one that
    /// holds the rows of snapshot `rows` still, when there is one.
    func recycled(for migrator: DatabaseMigrator, holding rows: UInt64) -> LocalDatabase.Connection? {
        idle.withLock { idle in
            guard var connections = idle[migrator.migrations], !connections.isEmpty else { return nil }
            let index = connections.lastIndex { $0.memory?.rows == rows } ?? connections.count - 1
            let connection = connections.remove(at: index)
            idle[migrator.migrations] = connections
            return connection
        }
    }

    /// Keeps the connection of an in-memory store that is done with, for the next store of its
    /// schema, when it is as it was opened but for its rows: no transaction open, the same
    /// schema, no temporary tables or attached databases, foreign keys enforced.
    func keep(_ connection: LocalDatabase.Connection, for migrator: DatabaseMigrator) {
        guard let memory = connection.memory else { return }
        // Reentrant: the store may be let go of inside one of its own transactions (the last
        // reference held by the work it runs), and then the transaction is still open here.
        let clean = try? connection.queue.unsafeReentrantWrite { db -> Bool in
            guard !db.isInsideTransaction else { return false }
            let version = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA schema_version"))
            let temporary = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM sqlite_temp_master"))
            let attached = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM pragma_database_list WHERE name NOT IN ('main', 'temp')"))
            let foreignKeys = try Bool.fetchOne(db.cachedStatement(sql: "PRAGMA foreign_keys"))
            return version == memory.schemaVersion && temporary == 0 && attached == 0 && foreignKeys == true
        }
        guard clean == true else { return }
        idle.withLock { idle in
            if idle[migrator.migrations, default: []].count < mostIdle { idle[migrator.migrations, default: []].append(connection) }
        }
    }
}
