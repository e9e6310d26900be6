import Sync
import SyncRemote

extension EndpointRoutes {
    /// Sync's operations (``SyncAPI``), each one call of the service.
    func sync(_ sync: any SyncService) throws {
        try serve(SyncAPI.pullChanges) { pull, user in try await sync.changes(for: user, after: pull.after, limit: pull.limit) }
        try serve(SyncAPI.pushChanges) { operations, user in try await sync.push(operations, by: user) }
    }
}
