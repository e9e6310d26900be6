import Accounts
import AccountsData
import AccountsDataPostgres
import AccountsLive
import DataChanges
import DataChangesPostgres
import DataChangesSQLite
import Expenses
import ExpensesData
import ExpensesDataPostgres
import Foundation
import FlowsServices
import Friends
import FriendsData
import FriendsDataPostgres
import Groups
import GroupsData
import GroupsDataPostgres
import LocalStore
import PostgresStore
import Primitives
import Sync
import SyncLive
import Synchronization

/// The domain services flows-server serves, shared by every request, and the one thing made
/// per request: the accounts service of the request's own session.
///
/// The accounts service keeps the session it signed in or found (so that signing out or
/// changing the password knows which one is the caller's). Sharing one between requests would
/// mix their sessions, so every request that touches a session gets its own, on the same store,
/// holding only that request's token.
public struct ServerServices: Sendable {
    /// Look-ups and account settings, which never touch a session.
    public let accounts: any AccountsService
    /// Accounts' names, as a pull tells them with its changes.
    public let names: any AccountNames
    /// The lines of activity a pull tells of.
    public let syncSource: any ExpensesSyncSource
    public let friends: any FriendsService
    public let expenses: any ExpensesService
    public let groups: any GroupsService
    /// The services of the areas built from the list (``AreaServices``), each also a property
    /// of its own (ServerServices+Areas.swift).
    public let areas: AreaServices
    /// What changed for each user since their last pull, from the stores' change log, and the
    /// pushes of their replicas.
    public let sync: any SyncService
    /// The operations a push applies, recorded as the server's routes are registered.
    let pushed = PushedOperations()
    /// The change log the stores write and pulls read, pruned by the server's round.
    public let changeLog: any ChangeLogStore
    /// The recount of the whole ledger: the operator's, never a user's (no endpoint serves it).
    public let verifier: any LedgerVerifier
    /// A fresh accounts service keeping its session in `tokens` (which holds the request's
    /// token, or none).
    public let sessions: @Sendable (_ tokens: any SessionTokenStore) -> any AccountsService
    /// Whether the store answers, for readiness: asked of the store at most once a second
    /// (``ReadinessProbe``).
    let probe: @Sendable () async -> Bool
    /// Closes the store; after it, requests fail as "store unavailable".
    public let close: @Sendable () async -> Void
    /// The clock sessions are timed by (tests move it).
    public let now: @Sendable () -> Date
    /// Tells whose balances the services' writes changed.
    public let balanceChanges: PeopleChanges
    /// Tells whose friendships, friend requests or blocks the services' writes changed.
    public let friendshipChanges: PeopleChanges
    /// Tells whose groups the services' writes changed (made, changed, joined or left).
    public let groupChanges: PeopleChanges
    /// The database every server on it shares (PostgreSQL), where they count sign-in attempts
    /// together; nil for a store of one server's own.
    let shared: ServerDatabase?

    public init(
        services: LocalServices,
        changeLog: any ChangeLogStore,
        sessions: @escaping @Sendable (_ tokens: any SessionTokenStore) -> any AccountsService,
        probe: @escaping @Sendable () async -> Bool,
        close: @escaping @Sendable () async -> Void = {},
        now: @escaping @Sendable () -> Date = Date.init,
        balanceChanges: PeopleChanges = PeopleChanges(),
        friendshipChanges: PeopleChanges = PeopleChanges(),
        groupChanges: PeopleChanges = PeopleChanges(),
        shared: ServerDatabase? = nil
    ) {
        accounts = services.accounts
        names = services.names
        syncSource = services.syncSource
        friends = services.friends
        expenses = services.expenses
        groups = services.groups
        areas = services.areas
        self.changeLog = changeLog
        sync = LiveSyncService(
            log: changeLog, expenses: services.expenses, lines: services.syncSource, friends: services.friends, groups: services.groups, accounts: services.accounts,
            names: services.names, preferences: services.preferences, operations: pushed
        )
        verifier = services.verifier
        self.sessions = sessions
        let readiness = ReadinessProbe(probe: probe)
        self.probe = { await readiness.ready() }
        self.close = close
        self.now = now
        self.balanceChanges = balanceChanges
        self.friendshipChanges = friendshipChanges
        self.groupChanges = groupChanges
        self.shared = shared
    }

    /// The services on the embedded SQLite store: one file (`.file`), for one machine, or a
    /// private in-memory database (`.memory`) for tests and trials.
    ///
    /// - Parameters:
    ///   - fast: bcrypt at its lowest cost, seeded randomness: for tests only.
    ///   - now: the clock (tests move it to end sessions).
    ///   - verification: sends the codes that prove emails; nil: no emails verified.
    public static func sqlite(
        _ place: LocalDatabase.Place, fast: Bool = false, now: @escaping @Sendable () -> Date = Date.init,
        verification: (any VerificationCodeSender)? = nil
    ) -> ServerServices {
        let database = LocalDatabase(place, migrations: ChangeLogSchema.adding(to: LocalServices.registerMigrations), keepsChangeLog: true)
        let changes = Changes()
        return live(
            stores: .sqlite(
                database, balancesChanged: changes.balances.publish, friendshipsChanged: changes.friendships.publish,
                groupsChanged: changes.groups.publish
            ), changeLog: SQLiteChangeLog(database: database), changes: changes,
            fast: fast, now: now, verification: verification, probe: { (try? database.writer()) != nil }, close: {}
        )
    }

    /// The services on a PostgreSQL database, shared by every server that names it. Every
    /// area's migrations run before the first request (each once, whichever server is first).
    public static func postgres(
        _ url: DatabaseURL, maximumConnections: Int = 16, statementTimeout: Duration? = .seconds(5), fast: Bool = false,
        now: @escaping @Sendable () -> Date = Date.init, verification: (any VerificationCodeSender)? = nil
    ) -> ServerServices {
        let database = ServerDatabase(
            url: url, maximumConnections: maximumConnections, migrations: postgresMigrations, statementTimeout: statementTimeout
        )
        let changes = Changes()
        return live(
            stores: postgresStores(
                database, balancesChanged: changes.balances.publish, friendshipsChanged: changes.friendships.publish,
                groupsChanged: changes.groups.publish
            ),
            changeLog: PostgresChangeLog(database: database), changes: changes,
            fast: fast, now: now, verification: verification,
            probe: {
                do {
                    try await database.migrate()
                    try await database.checkReady()
                    return true
                } catch {
                    return false
                }
            },
            close: { await database.shutdown() }, shared: database
        )
    }

    /// Every area's store on the PostgreSQL `database`; `balancesChanged` hears whose balances
    /// each write changed, `friendshipsChanged` whose friendships, requests or blocks,
    /// `groupsChanged` whose groups.
    public static func postgresStores(
        _ database: ServerDatabase, balancesChanged: PeopleChanged? = nil, friendshipsChanged: PeopleChanged? = nil,
        groupsChanged: PeopleChanged? = nil
    ) -> LocalServices.Stores {
        LocalServices.Stores(
            accounts: PostgresAccountsStore(database: database),
            expenses: PostgresExpensesStore(database: database, balancesChanged: balancesChanged),
            friends: PostgresFriendsStore(database: database, friendshipsChanged: friendshipsChanged),
            groups: PostgresGroupsStore(database: database, groupsChanged: groupsChanged),
            areas: .postgres(database)
        )
    }

    /// Every area's PostgreSQL migrations, in the order of the list of areas, then the server's own.
    public static let postgresMigrations = areaMigrations
        + PostgresChangeLog.migrations
        + SharedAttemptLimiter.migrations
        + SharedIdempotencyKeys.migrations

    /// The live services on the stores given.
    private static func live(
        stores: LocalServices.Stores, changeLog: any ChangeLogStore, changes: Changes,
        fast: Bool, now: @escaping @Sendable () -> Date, verification: (any VerificationCodeSender)?, probe: @escaping @Sendable () async -> Bool, close: @escaping @Sendable () async -> Void,
        shared: ServerDatabase? = nil
    ) -> ServerServices {
        let random: any RandomSource = fast ? SeededRandomSource(seed: 1) : SystemRandomSource()
        let hasher = fast ? PasswordHasher(cost: 4) : PasswordHasher()
        let (store, friends) = (stores.accounts, stores.friends)
        let account: @Sendable (any SessionTokenStore, any AccountVisibility) -> LiveAccountsService = { tokens, visibility in
            LiveAccountsService(
                store: store, tokens: tokens, hasher: hasher, random: random, now: now, visibility: visibility,
                client: { RequestScope.origin?.clientDescription ?? "flows-server" }, verification: verification
            )
        }
        let sessions: @Sendable (any SessionTokenStore) -> any AccountsService = { account($0, FriendsVisibility(store: friends)) }
        let services = LocalServices.live(stores: stores, random: random, now: now) { _, visibility in
            account(InMemorySessionTokenStore(), visibility)
        }
        return ServerServices(
            services: services, changeLog: changeLog, sessions: sessions, probe: probe, close: close, now: now, balanceChanges: changes.balances,
            friendshipChanges: changes.friendships, groupChanges: changes.groups, shared: shared
        )
    }
}

/// The relays of one set of services' stores.
private struct Changes {
    let balances = PeopleChanges()
    let friendships = PeopleChanges()
    let groups = PeopleChanges()
}

/// Passes on whose data a store's writes changed (their balances, friendships or groups) to
/// whoever keeps or shows answers made from them: the server's caches, which drop them, and
/// the people's open web pages, which read again.
public final class PeopleChanges: Sendable {
    private let observers = Mutex<[@Sendable (Set<UserID>) -> Void]>([])

    public init() {}

    /// Tells `observer` of every change from now on.
    public func observe(_ observer: @escaping @Sendable (Set<UserID>) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Tells every observer that the data of `people` changed.
    public func publish(_ people: Set<String>) {
        let everyone = Set(people.map(UserID.init(rawValue:)))
        for observer in observers.withLock({ $0 }) { observer(everyone) }
    }
}
