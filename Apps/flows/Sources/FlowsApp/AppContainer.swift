import AppFlow
import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsRemote
import Expenses
import ExpensesRemote
import FlowsAPIClient
import FlowsServices
import Foundation
import Friends
import FriendsRemote
import Groups
import GroupsRemote
import LocalStore
import Preferences
import Primitives
import Rates
import RatesECB
import Sync
import SyncRemote
import SyncReplica

/// The composition root: the one place (with the tests) that knows which implementation serves
/// each abstraction.
///
/// It gives every flow what the flow declares it needs: `AppFlow.Dependencies` is composed of
/// every flow's needs, so a service a flow starts needing is added here and in that flow only.
public struct AppContainer: AppFlow.Dependencies {
    public let accounts: any AccountsService
    public let expenses: any ExpensesService
    public let friends: any FriendsService
    public let groups: any GroupsService
    /// The services of the areas built from the list (``AreaServices``), each also a property
    /// of its own (AppContainer+Areas.swift).
    public let areas: AreaServices
    /// The ECB's reference rates: those shipped, or a newer table kept with the store.
    public let rates: any RatesService
    /// Series of repeating expenses: the embedded store's service, or the server's through the contract.
    public var recurring: (any RecurringExpenses)? { expenses as? any RecurringExpenses }
    /// Colours the screens with the signed-in user's theme once the launcher attaches a renderer.
    public let terminalThemes: TerminalThemeManager
    public var themes: any ThemeManager { terminalThemes }
    /// Files the user names at a prompt (an avatar picture).
    public let files: any UserFiles = LocalUserFiles()
    /// The recount of the whole ledger (`flows verify`), when the container has one.
    public let verifier: (any LedgerVerifier)?
    /// The server's pull and push, when the container is a server's (docs/sync.md).
    public private(set) var sync: (any SyncService)?
    /// Where the replicas of this server's users are kept (one store each), when the container
    /// is a server's on this machine's folder.
    public private(set) var replicas: StoreLocation?
    /// The replicas the services read, when the container is a server's kept in them.
    private var serverReplicas: ServerReplicas?
    /// The store under the services, when the container was built on the embedded one.
    public private(set) var database: LocalDatabase?
    /// The services on the embedded store, when the container was built on them.
    private var local: LocalServices?
    /// The clock and the time zone that say what day it is for the user.
    private let now: @Sendable () -> Date
    /// The time zone given; nil for this machine's, read when first needed (reading it costs
    /// 0.7 ms, a tenth of a start, and most first screens show no day).
    private let givenTimeZone: TimeZone?
    /// The user's time zone: what day it is, and the day a change is shown on.
    public var timeZone: TimeZone { givenTimeZone ?? .current }
    public var today: Day { Day.today(at: now(), in: timeZone) }

    public init(
        accounts: any AccountsService, expenses: any ExpensesService, friends: any FriendsService, groups: any GroupsService,
        areas: AreaServices, rates: any RatesService = ECBRatesService(), now: @escaping @Sendable () -> Date = Date.init,
        timeZone: TimeZone? = nil, verifier: (any LedgerVerifier)? = nil
    ) {
        self.rates = rates
        self.groups = groups
        self.verifier = verifier
        self.now = now
        givenTimeZone = timeZone
        self.accounts = accounts
        self.expenses = expenses
        self.friends = friends
        self.areas = areas
        terminalThemes = TerminalThemeManager(preferences: areas.preferences)
    }

    /// The app on the embedded store in `location`, opened on first use.
    public static func live(location: StoreLocation) -> AppContainer {
        AppContainer(LocalServices.open(location), rates: ECBRatesService(directory: location.directory))
    }

    /// The app on a private in-memory store of the same implementation, with seeded randomness
    /// and a fixed clock (in UTC), so that every run is identical. bcrypt runs at its lowest cost.
    public static func inMemory(
        seed: UInt64 = 1,
        now: Date = Date(timeIntervalSince1970: 1_800_000_000),
        sessionTokens: any SessionTokenStore = InMemorySessionTokenStore()
    ) -> AppContainer {
        AppContainer(LocalServices.inMemory(seed: seed, now: now, sessionTokens: sessionTokens), now: { now }, timeZone: .gmt)
    }

    /// The app on the flows-server at `server`, for the user signed in there, kept in a replica
    /// of what they see (docs/sync.md): every read the replica holds is answered on this
    /// machine, every write goes to the server and is then pulled in. The session's token, the
    /// user it is for and each user's replica are kept in a private folder of their own per
    /// server, beside the embedded store in `location` (which is not opened). Without
    /// `replicated`, every service is the server's over HTTP, and the replicas are only kept
    /// (what `flows sync` pulls into).
    public static func remote(server: URL, location: StoreLocation, replicated: Bool = true) -> AppContainer {
        let servers = StoreLocation(directory: location.directory.appendingPathComponent("servers"))
        let sessions = StoreLocation(directory: servers.directory.appendingPathComponent(serverFolder(server)))
        let tokens = FileSessionTokenStore(location: sessions)
        // Private folders, each; one that cannot be made is reported when a session is kept.
        try? servers.prepare()
        try? sessions.prepare()
        let replicas = StoreLocation(directory: sessions.directory.appendingPathComponent("replicas"))
        var container = remote(
            server: server, tokens: tokens, rates: ECBRatesService(directory: location.directory), replicas: .folder(replicas),
            keptUser: PrivateFile(url: sessions.directory.appendingPathComponent("user")), replicated: replicated
        )
        container.replicas = replicas
        return container
    }

    /// The app on the flows-server at `server`, keeping the session's token in `tokens`: every
    /// service over HTTP, or, with `replicasInMemory`, kept in a replica in memory as
    /// ``remote(server:location:)`` keeps one on disk.
    public static func remote(
        server: URL, tokens: any SessionTokenStore, rates: any RatesService = ECBRatesService(), now: @escaping @Sendable () -> Date = Date.init,
        timeZone: TimeZone? = nil, replicasInMemory: Bool = false, transport: (any APIConnection.Transport)? = nil
    ) -> AppContainer {
        remote(
            server: server, tokens: tokens, rates: rates, now: now, timeZone: timeZone, replicas: replicasInMemory ? .memory : nil, keptUser: nil,
            replicated: replicasInMemory, transport: transport
        )
    }

    private static func remote(
        server: URL, tokens: any SessionTokenStore, rates: any RatesService, now: @escaping @Sendable () -> Date = Date.init, timeZone: TimeZone? = nil,
        replicas place: ServerReplicas.Place?, keptUser: PrivateFile?, replicated: Bool, transport: (any APIConnection.Transport)? = nil
    ) -> AppContainer {
        let connection = APIConnection(
            server: server, token: { try? tokens.load() }, transport: transport, userAgent: "flows/\(FlowsCLI.version) (command line)",
            writeKey: { WriteKey.current }
        )
        let sync = RemoteSyncService(connection: connection)
        let (accounts, expenses) = (RemoteAccountsService(connection: connection, tokens: tokens), RemoteExpensesService(connection: connection))
        let (friends, groups) = (RemoteFriendsService(connection: connection), RemoteGroupsService(connection: connection))
        var container: AppContainer
        let replicas = place.map { ServerReplicas(place: $0, sync: sync, operations: RemoteQueuedOperations(), tokens: tokens, keptUser: keptUser, now: now) }
        if let replicas, replicated {
            container = AppContainer(
                accounts: ReplicatedAccounts(server: accounts, replicas: replicas), expenses: ReplicatedExpenses(server: expenses, replicas: replicas),
                friends: ReplicatedFriends(server: friends, replicas: replicas), groups: ReplicatedGroups(server: groups, replicas: replicas),
                areas: .remote(connection, replicas: replicas), rates: rates, now: now, timeZone: timeZone
            )
        } else {
            container = AppContainer(
                accounts: accounts, expenses: expenses, friends: friends, groups: groups, areas: .remote(connection, replicas: nil), rates: rates,
                now: now, timeZone: timeZone
            )
        }
        container.sync = sync
        container.serverReplicas = replicas
        return container
    }

    /// How up to date the replica the screens read is, and the writes made on it for the
    /// server (the Sync screen's); nil for a container that keeps none.
    public var replicaChanges: (any ReplicaChanges)? { serverReplicas.map { ContainerReplicaChanges(container: self, replicas: $0) } }

    /// Brings the replica of the user signed in on this machine up to date with the server, as a
    /// sync does: what a change made elsewhere waits for before a screen shows it. Nothing for a
    /// container that keeps no replica, or with nobody signed in.
    public func pullReplica() async {
        guard let serverReplicas, let user = serverReplicas.keptUser() else { return }
        await serverReplicas.pull(for: user.id)
    }

    /// A sync of `user`'s replica: the writes made offline pushed, then what changed pulled
    /// (docs/sync.md); nil for a container that keeps no replica.
    public func syncReplica(of user: UserID) async -> Result<SyncReport, SyncError>? {
        await serverReplicas?.sync(for: user)
    }

    /// What a write the server found in conflict (an edit made from an older version) is,
    /// in words: `Bob Stone changed Dinner while you were offline: the amount (30.00 EUR → 36.00
    /// EUR). Yours: the description (Dinner → Team dinner).`; nil for any other write.
    public func explanation(of write: QueuedWrite, for user: UserID) async -> String? {
        guard let (queue, reads) = await replicaQueue(of: user) else { return nil }
        return await queue.conflict(of: write, in: reads, for: user).map { $0.conflict.explanation(who: $0.who) }
    }

    /// `user`'s writes made on the replica that the server has not applied, oldest first, each
    /// with the server's reason (people named as the replica knows them) and, for an edit in
    /// conflict, both changes; none for a container that keeps no replica. Asks no server.
    public func pendingWrites(of user: UserID) async throws(SyncError) -> [PendingWrite] {
        guard let queue = writeQueue(of: user) else { return [] }
        var pending: [PendingWrite] = []
        for write in try await queue.writes(of: user) {
            var reason: String?
            if let refusal = write.refusal { reason = await naming(refusal.reason, for: user) }
            pending.append(PendingWrite(
                key: write.operation.key, operation: write.operation.operation, summary: write.summary, made: write.made, outcome: write.refusal?.kind,
                reason: reason, explanation: await explanation(of: write, for: user)
            ))
        }
        return pending
    }

    /// `user`'s queue of writes for the server, and the reads of their replica; nil for a
    /// container that keeps no replica, or one not to be opened.
    private func replicaQueue(of user: UserID) async -> (queue: ReplicaQueue, reads: ReplicaReads)? {
        guard let serverReplicas, let queue = serverReplicas.queue(for: user), let reads = await serverReplicas.reads(for: user) else { return nil }
        return (queue, reads)
    }

    /// `reason`, the server's words for a write it refused, with each person it names by id
    /// named as `user`'s replica knows them ("Not among your friends or contacts: Bob Stone.");
    /// an id the replica has no name for stays as it is.
    public func naming(_ reason: String, for user: UserID) async -> String {
        let id = #/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/#
        let named = Set(reason.matches(of: id).map { UserID(rawValue: String($0.output)) })
        guard !named.isEmpty, let reads = await serverReplicas?.reads(for: user),
            let names = try? await reads.friends.names(of: named, for: user), !names.isEmpty
        else { return reason }
        return reason.replacing(id) { match in names[UserID(rawValue: String(match.output))]?.value ?? String(match.output) }
    }

    /// Applies the author's side of conflict `key` on top of the expense as it is now (each part
    /// they changed as they left it, every other as it is), as a new edit from its current
    /// version, then forgets the conflict; nil when `key` is no conflict of `user`'s.
    public func applyMine(_ key: String, for user: UserID) async throws(ExpensesError) -> Expense? {
        guard let (queue, reads) = await replicaQueue(of: user), let write = (try? await queue.writes(of: user))?.first(where: { $0.operation.key == key }),
            let (conflict, _) = await queue.conflict(of: write, in: reads, for: user)
        else { return nil }
        let edited = try await expenses.edit(conflict.theirs.id, to: conflict.mineOnTop, from: conflict.theirs.version, by: user)
        _ = try? await queue.drop(key, for: user)
        return edited
    }

    /// A sync of the replica of the user signed in on this machine, when writes made offline wait
    /// in it; nothing otherwise, or for a container that keeps no replica.
    public func pushWaitingWrites() async {
        guard let serverReplicas, let user = serverReplicas.keptUser(), let queue = serverReplicas.queue(for: user.id),
            await queue.isWaiting(for: user.id)
        else { return }
        await serverReplicas.sync(for: user.id)
    }

    /// Syncs the replica of the user signed in on this machine every `interval` until the task
    /// is cancelled (docs/sync.md): while the app is open, writes made offline go once the server
    /// is back, and changes made elsewhere come in. After a sync that pushed or pulled anything,
    /// or that found the server gone or back, `changed` is called: the screen open reads again.
    /// A sync already running (a write's pull) is joined, not run twice. Nil for a container that
    /// keeps no replica.
    public func syncingInBackground(every interval: Duration, changed: @escaping @Sendable () -> Void = {}) -> Task<Void, Never>? {
        guard let serverReplicas else { return nil }
        return Task.detached(priority: .utility) {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let user = serverReplicas.keptUser() else { continue }
                // What the screens say of the replica: whether it is offline or failing, and what waits.
                let told = { (status: ReplicaStatus?) in
                    [status?.offlineSince == nil ? 0 : 1, status?.failure == nil ? 0 : 1, status?.waiting ?? 0, status?.notSynced ?? 0]
                }
                let before = told(await serverReplicas.status(of: user.id))
                let result = await serverReplicas.sync(for: user.id)
                guard !Task.isCancelled else { return }
                if case .success(let report) = result, report.push.pushed + report.push.refused + report.push.conflicts + report.pull.changes > 0 {
                    changed()
                } else if told(await serverReplicas.status(of: user.id)) != before {
                    changed()
                }
            }
        }
    }

    /// How often the app open on a terminal syncs (``syncingInBackground(every:)``):
    /// `FLOWS_SYNC_EVERY` seconds (0: never), else every 30 seconds.
    public static func backgroundSyncInterval(in environment: [String: String]) -> Duration? {
        guard let text = environment["FLOWS_SYNC_EVERY"] else { return .seconds(30) }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else { return nil }
        return .milliseconds(Int64((seconds * 1_000).rounded()))
    }

    /// The user of the session kept on this machine for this container's server, as last seen
    /// signed in; nil for none, or a container that keeps no replica.
    public var keptUser: User? { serverReplicas?.keptUser() }

    /// `user`'s writes made on the replica for the server; nil for a container that keeps none.
    public func writeQueue(of user: UserID) -> ReplicaQueue? {
        serverReplicas?.queue(for: user)
    }

    /// The replica of `user`'s view of this container's server; nil for a container that keeps
    /// none, or whose folder cannot be made.
    public func replica(of user: UserID) -> LocalReplica? {
        serverReplicas?.replica(of: user)
    }

    /// A folder name for a server: its host and port, in characters any file system takes.
    static func serverFolder(_ server: URL) -> String {
        let name = "\(server.host ?? "server")-\(server.port ?? (server.scheme == "https" ? 443 : 80))"
        return String(name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
    }

    private init(
        _ services: LocalServices, rates: any RatesService = ECBRatesService(), now: @escaping @Sendable () -> Date = Date.init, timeZone: TimeZone? = nil
    ) {
        self.init(
            accounts: services.accounts, expenses: services.expenses, friends: services.friends, groups: services.groups,
            areas: services.areas, rates: rates, now: now, timeZone: timeZone, verifier: services.verifier
        )
        database = services.database
        local = services
    }

    /// Where an in-memory container is (``LocalServices/snapshot()``); nil for any other.
    public func snapshot() throws -> LocalServices.Snapshot? {
        try local?.snapshot()
    }

    /// Puts a fresh in-memory container where `snapshot` was taken (``LocalServices/restore(_:)``).
    public func restore(_ snapshot: LocalServices.Snapshot) throws {
        try local?.restore(snapshot)
    }
}

/// A container's replica as the Sync screen deals with it: its status, the writes made on it,
/// and what its author does with them.
struct ContainerReplicaChanges: ReplicaChanges {
    let container: AppContainer
    let replicas: ServerReplicas

    func status(of user: UserID) async -> ReplicaStatus? {
        await replicas.status(of: user)
    }

    func writes(of user: UserID) async throws(SyncError) -> [PendingWrite] {
        try await container.pendingWrites(of: user)
    }

    func sync(for user: UserID) async -> Result<SyncReport, SyncError> {
        await replicas.sync(for: user) ?? .failure(.storeUnavailable("the folder of this server's replicas cannot be made"))
    }

    func drop(_ key: String, for user: UserID) async throws(SyncError) -> Bool {
        guard let queue = container.writeQueue(of: user) else { return false }
        return try await queue.drop(key, for: user)
    }

    func applyMine(_ key: String, for user: UserID) async throws(ExpensesError) -> Expense? {
        try await container.applyMine(key, for: user)
    }
}
