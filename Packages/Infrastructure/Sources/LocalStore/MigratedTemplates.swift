import GRDB
import Synchronization

/// In-memory databases migrated once per process, one per set of migrations: each new in-memory
/// store of that schema is a copy of its template (SQLite's backup), which costs a fraction of
/// running the migrations again.
final class MigratedTemplates: Sendable {
    static let shared = MigratedTemplates()

    /// The templates by the identifiers of their migrations, in order.
    private let templates = Mutex<[[String]: DatabaseQueue]>([:])

    /// The template of `migrator`'s schema, made by `migrate` on a new in-memory database the
    /// first time it is asked for. A failed migration is not kept: the next call tries again.
    func template(
        for migrator: DatabaseMigrator, configuration: Configuration, migrate: (DatabaseQueue) throws(LocalStoreError) -> Void
    ) throws(LocalStoreError) -> DatabaseQueue {
        try templates.withLock { templates throws(LocalStoreError) in
            if let found = templates[migrator.migrations] { return found }
            let queue: DatabaseQueue
            do {
                queue = try DatabaseQueue(configuration: configuration)
            } catch {
                throw .cannotOpen("an in-memory database", reason: FileProblem.reason(error))
            }
            try migrate(queue)
            templates[migrator.migrations] = queue
            return queue
        }
    }
}
