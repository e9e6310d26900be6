import FlowsAPIClient
import Primitives
import Sync

/// The pull of a flows-server, over HTTP, for the signed-in user: the server answers the
/// session's user's changes, whatever `user` says.
public struct RemoteSyncService: SyncService {
    let connection: APIConnection

    public init(connection: APIConnection) {
        self.connection = connection
    }

    public func changes(for user: UserID, after cursor: SyncCursor?, limit: Int) async throws(SyncError) -> SyncPage {
        try await connection.send(SyncAPI.pullChanges, PullRequest(after: cursor, limit: min(max(limit, 1), SyncPage.largestPage)))
    }

    public func push(_ operations: [SyncOperation], by user: UserID) async throws(SyncError) -> [SyncOutcome] {
        guard !operations.isEmpty else { return [] }
        return try await connection.send(SyncAPI.pushChanges, operations)
    }

    public func resend(_ entities: [SyncEntity], for user: UserID) async throws(SyncError) {
        guard !entities.isEmpty else { return }
        try await connection.send(SyncAPI.resendChanges, entities)
    }
}
