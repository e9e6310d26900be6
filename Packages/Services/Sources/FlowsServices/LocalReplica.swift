import AccountsData
import AccountsLive
import DataChanges
import DataChangesSQLite
import Foundation
import LocalStore
import Primitives
import Sync
import SyncReplica

/// A user's replica of what they see on a server (docs/sync.md): the embedded store's own
/// schema and live services, written by the pulls, with how far it has pulled beside them. Its
/// services read as the embedded store's do; what they show is the server's, as of the last
/// pull.
public struct LocalReplica: Sendable {
    /// The live services on the replica's store: every read of the user's view.
    public let services: LocalServices
    /// How far the replica has pulled.
    public let state: any ReplicaStateStore
    /// The writes made on the replica for the server, in the order they were made.
    public let writes: any WriteQueueStore
    private let now: @Sendable () -> Date

    /// The replica kept in `place` (opened and migrated on first use). Its accounts service never
    /// signs anyone in: the session is the server's.
    public static func open(_ place: LocalDatabase.Place, now: @escaping @Sendable () -> Date = Date.init) -> LocalReplica {
        let database = LocalDatabase(place, migrations: ReplicaStateSchema.adding(to: LocalServices.registerMigrations))
        let services = LocalServices.live(stores: .sqlite(database), random: SystemRandomSource(), now: now) { store, visibility in
            LiveAccountsService(store: store, tokens: InMemorySessionTokenStore(), now: now, visibility: visibility)
        }
        return LocalReplica(
            services: services.on(database), state: SQLiteReplicaState(database: database), writes: SQLiteWriteQueue(database: database), now: now
        )
    }

    /// Pulls what changed for `user` on `server` (`sync`, the server's pull) into the replica.
    public func pull(for user: UserID, from server: any SyncService, pageSize: Int = SyncPage.largestPage) async throws(SyncError) -> PullReport {
        try await ReplicaPull(server: server, replica: services.replica, state: state, pageSize: pageSize, now: now).pull(for: user)
    }

    /// `user`'s writes made on the replica, written for the server as `operations` says.
    public func queue(writingAs operations: any QueuedOperations) -> ReplicaQueue {
        ReplicaQueue(store: writes, writers: services.replica, operations: operations, now: now)
    }

    /// How far the replica has pulled for `user`, without asking the server.
    public func state(of user: UserID) async throws(SyncError) -> ReplicaState? {
        do { return try await state.state(of: user.rawValue) } catch { throw .storeUnavailable("\(error)") }
    }
}
