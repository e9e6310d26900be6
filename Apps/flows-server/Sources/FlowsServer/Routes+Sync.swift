import Foundation
import FlowsWire
import Sync
import SyncRemote

extension EndpointRoutes {
    /// Sync's operations (``SyncAPI``), each one call of the service. A pull without a cursor
    /// logs everything the user sees again: it counts against the user's limit of those first.
    func sync(_ sync: any SyncService, limits: RequestLimits) throws {
        // Each page written out as it goes, the next made while it travels (``PagesAhead``).
        let pull = SyncAPI.pullChanges
        let pages = PagesAhead()
        let written = Endpoint<PullRequest, Data, SyncError>(
            pull.id, pull.method, pull.path, status: pull.status, request: pull.request, response: .written, problems: pull.problems
        )
        try serve(written) { asked, user in
            if asked.after == nil { _ = try await limits.firstPulls.claim("user " + user.rawValue, refusing: "Too many pulls without a cursor") }
            let limit = asked.limit
            return try await pages.page(for: user, after: asked.after, limit: limit) { cursor in
                let page = try await sync.changes(for: user, after: cursor, limit: limit)
                return PagesAhead.Written(bytes: try pull.response.write(page) ?? Data(), cursor: page.cursor, more: page.more)
            }.bytes
        }
        try serve(SyncAPI.pushChanges) { operations, user in try await sync.push(operations, by: user) }
        try serve(SyncAPI.resendChanges) { entities, user in try await sync.resend(entities, for: user) }
    }
}
