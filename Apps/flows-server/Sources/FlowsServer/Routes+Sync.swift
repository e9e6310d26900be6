import Sync
import SyncRemote

extension EndpointRoutes {
    /// Sync's operations (``SyncAPI``), each one call of the service. A pull without a cursor
    /// logs everything the user sees again: it counts against the user's limit of those first.
    func sync(_ sync: any SyncService, limits: RequestLimits) throws {
        try serve(SyncAPI.pullChanges) { pull, user in
            if pull.after == nil { _ = try await limits.firstPulls.claim("user " + user.rawValue, refusing: "Too many pulls without a cursor") }
            return try await sync.changes(for: user, after: pull.after, limit: pull.limit)
        }
        try serve(SyncAPI.pushChanges) { operations, user in try await sync.push(operations, by: user) }
        try serve(SyncAPI.resendChanges) { entities, user in try await sync.resend(entities, for: user) }
    }
}
