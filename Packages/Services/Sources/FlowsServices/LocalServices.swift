import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsLive
import DataChanges
import Expenses
import ExpensesData
import ExpensesDataSQLite
import ExpensesLive
import Foundation
import Friends
import FriendsData
import FriendsDataSQLite
import FriendsLive
import GRDB
import Groups
import GroupsData
import GroupsDataSQLite
import GroupsLive
import LocalStore
import Primitives
import Sync

/// The app's services on the embedded store, wired in one place: every area's migrations and
/// the live implementation of each service. The `flows` app builds its container on it, and so
/// can any other Swift tool (see docs/embedding.md).
public struct LocalServices: Sendable {
    public let accounts: any AccountsService
    public let expenses: any ExpensesService
    public let friends: any FriendsService
    public let groups: any GroupsService
    /// The services of the areas built from the list in Packages/Services/areas.txt (each also
    /// as a property of its own: `preferences`).
    public let areas: AreaServices
    /// The recount of the whole ledger (`flows verify`): the store's owner's, not a user's.
    public let verifier: any LedgerVerifier
    /// The store these services share, for tools that inspect it whole (tests, `flows test
    /// --explore`); nil for services put together by hand.
    public private(set) var database: LocalDatabase?
    /// The names of accounts as the services show them (what a server's pull tells with its
    /// changes).
    public let names: any AccountNames
    /// What a pull into these services' store writes with, when the store is a replica of a
    /// server's (docs/sync.md).
    public let replica: ReplicaWriters
    /// The lines of activity a server's pull tells of.
    public let syncSource: any ExpensesSyncSource
    /// An in-memory app's seeded randomness and the session it keeps, for ``snapshot()``.
    private var seeded: (random: SeededRandomSource, sessionTokens: any SessionTokenStore)?

    public init(
        accounts: any LiveAccounts, expenses: any ExpensesService & ExpensesReplica & ExpensesSyncSource, friends: any FriendsService & FriendsReplica,
        groups: any GroupsService & GroupsReplica, areas: AreaServices, verifier: any LedgerVerifier
    ) {
        self.verifier = verifier
        self.accounts = accounts
        self.expenses = expenses
        self.friends = friends
        self.groups = groups
        self.areas = areas
        names = accounts
        syncSource = expenses
        replica = ReplicaWriters(accounts: accounts, friends: friends, expenses: expenses, groups: groups, preferences: areas.preferences)
    }

    /// The services on the store in `location` (opened and migrated on first use), with the
    /// current session kept in its session file. Passwords are hashed by `hasher`: bcrypt at
    /// cost 12 unless a tool asks for less (a test's throwaway store).
    public static func open(_ location: StoreLocation, hasher: PasswordHasher = PasswordHasher()) -> LocalServices {
        let database = LocalDatabase(.file(location.databaseFile), migrations: registerMigrations)
        return wired(database: database, random: SystemRandomSource(), now: Date.init) { store, visibility in
            LiveAccountsService(
                store: store,
                tokens: FileSessionTokenStore(location: location),
                hasher: hasher,
                visibility: visibility
            )
        }
    }

    /// The services on a private in-memory store of the same implementation, with seeded
    /// randomness and a fixed clock, so that every run is identical. The store starts as a copy
    /// of one migrated once per process, and passwords are hashed by
    /// ``PasswordHasher/fixtures`` (bcrypt's lowest cost, each password once per process).
    public static func inMemory(
        seed: UInt64 = 1,
        now: Date = Date(timeIntervalSince1970: 1_800_000_000),
        sessionTokens: any SessionTokenStore = InMemorySessionTokenStore()
    ) -> LocalServices {
        let database = LocalDatabase(.memory, migrations: registerMigrations)
        let random = SeededRandomSource(seed: seed)
        var services = wired(database: database, random: random, now: { now }) { store, visibility in
            LiveAccountsService(
                store: store,
                tokens: sessionTokens,
                hasher: .fixtures,
                random: random,
                now: { now },
                visibility: visibility
            )
        }
        services.seeded = (random, sessionTokens)
        return services
    }

    /// Where an in-memory app is: every row of its store, the position of its seeded randomness
    /// and the session it keeps. Taken once a fixture has been set up, it puts another fresh
    /// in-memory app where the set-up left this one (``restore(_:)``), without running it again:
    /// what either does next is the same.
    public struct Snapshot: Sendable {
        let rows: StoreSnapshot
        let randomPosition: UInt64
        let sessionToken: String?
    }

    /// Where these services are, when they are an in-memory app's (``inMemory(seed:now:sessionTokens:)``);
    /// nil for any other.
    public func snapshot() throws -> Snapshot? {
        guard let database, let seeded else { return nil }
        return Snapshot(rows: try database.snapshot(), randomPosition: seeded.random.position, sessionToken: try seeded.sessionTokens.load())
    }

    /// Puts a fresh in-memory app (one that has served nothing yet: its accounts service keeps
    /// no session of its own) where `snapshot` was taken. Does nothing to services that are not
    /// an in-memory app's.
    public func restore(_ snapshot: Snapshot) throws {
        guard let database, let seeded else { return }
        try database.restore(snapshot.rows)
        seeded.random.position = snapshot.randomPosition
        if let token = snapshot.sessionToken { try seeded.sessionTokens.save(token) } else { try seeded.sessionTokens.clear() }
    }

    /// The other areas' services around the accounts, on the embedded store.
    private static func wired(
        database: LocalDatabase, random: any RandomSource, now: @escaping @Sendable () -> Date,
        accounts: (_ store: any AccountsStore, _ visibility: any AccountVisibility) -> any LiveAccounts
    ) -> LocalServices {
        live(stores: .sqlite(database), random: random, now: now, accounts: accounts).on(database)
    }

    /// These services, as the ones on `database`.
    func on(_ database: LocalDatabase) -> LocalServices {
        var services = self
        services.database = database
        return services
    }

    /// Every area's store, on one database: what the live services are built on. The embedded
    /// store's are ``sqlite(_:balancesChanged:)``; flows-server makes the same on PostgreSQL.
    public struct Stores: Sendable {
        public var accounts: any AccountsStore
        public var expenses: any ExpensesStore
        public var friends: any FriendsStore
        public var groups: any GroupsStore
        /// The stores of the areas built from the list (``AreaServices``).
        public var areas: AreaServices.Stores

        public init(
            accounts: any AccountsStore, expenses: any ExpensesStore, friends: any FriendsStore, groups: any GroupsStore,
            areas: AreaServices.Stores
        ) {
            self.accounts = accounts
            self.expenses = expenses
            self.friends = friends
            self.groups = groups
            self.areas = areas
        }

        /// Every area's store on the embedded store `database`; `balancesChanged` hears whose
        /// balances each write changed, `friendshipsChanged` whose friendships, requests or blocks,
        /// `groupsChanged` whose groups.
        public static func sqlite(
            _ database: LocalDatabase, balancesChanged: PeopleChanged? = nil, friendshipsChanged: PeopleChanged? = nil,
            groupsChanged: PeopleChanged? = nil
        ) -> Stores {
            Stores(
                accounts: SQLiteAccountsStore(database: database),
                expenses: SQLiteExpensesStore(database: database, balancesChanged: balancesChanged),
                friends: SQLiteFriendsStore(database: database, friendshipsChanged: friendshipsChanged),
                groups: SQLiteGroupsStore(database: database, groupsChanged: groupsChanged),
                areas: .sqlite(database)
            )
        }
    }

    /// The live services of every area on `stores` (the embedded store's, or flows-server's
    /// database), around the accounts service `accounts` builds on the accounts store and the
    /// visibility it is given: ``FriendsVisibility`` on the friends' store, so that each user
    /// sees their friends' accounts, and the friends list finds them. The areas built from the
    /// list are given what the list says (``AreaServices``).
    ///
    /// Friends read balances and move a linked contact's expenses through a ledger of their own
    /// (the same store; it never records an expense or a payment, so it lets no one be named),
    /// and the app's ledger lets each user name their friends and contacts, and within a group
    /// its members. Groups read their balances from a ledger of their own too, and linking a
    /// contact moves both what they owe and the groups they are in.
    public static func live(
        stores: Stores, random: any RandomSource, now: @escaping @Sendable () -> Date,
        accounts makeAccounts: (_ store: any AccountsStore, _ visibility: any AccountVisibility) -> any LiveAccounts
    ) -> LocalServices {
        let (expensesStore, friendsStore, groupsStore) = (stores.expenses, stores.friends, stores.groups)
        let accounts = makeAccounts(stores.accounts, FriendsVisibility(store: friendsStore))
        let ledger = LiveExpensesService(store: expensesStore, people: NoOneToName(), random: random, now: now)
        let people = FriendsPeople(store: friendsStore)
        let groups = LiveGroupsService(store: groupsStore, people: people, ledger: ledger, random: random, now: now)
        let friends = LiveFriendsService(
            store: friendsStore, accounts: accounts, expenses: ledger, merging: MergingInTurn([ledger, groups]), random: random, now: now
        )
        let expenses = LiveExpensesService(store: expensesStore, people: people, groups: groups, random: random, now: now)
        let areas = AreaServices.live(
            stores: stores.areas, random: random, now: now, people: people, accounts: accounts, expenses: expenses, friends: friends, groups: groups
        )
        return LocalServices(
            accounts: accounts, expenses: expenses, friends: friends, groups: groups, areas: areas, verifier: LiveLedgerVerifier(store: expensesStore)
        )
    }

    /// Every area's migrations, in the order of the list of areas: what opens a store of the app.
    public static let registerMigrations: @Sendable (inout DatabaseMigrator) -> Void = { migrator in
        AreaServices.registerMigrations(in: &migrator)
    }
}

/// An accounts service the live services are built around: it names accounts for the other
/// areas, and writes what a replica pulls.
public typealias LiveAccounts = AccountsService & AccountNames & AccountsReplica

/// Expenses let a user name the people the friends area says are theirs: the accounts they are
/// friends with and their own contacts. One answer, in the whole app, to "whom may I name?".
public struct FriendsPeople: PeopleDirectory {
    let store: any FriendsStore

    public init(store: any FriendsStore) {
        self.store = store
    }

    /// The store's friends of the user among `people` count their own contacts too.
    public func strangers(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID> {
        guard !people.isEmpty else { return [] }
        return people.subtracting(try await store.friendIDs(of: user.rawValue, among: people.map(\.rawValue)).map(UserID.init(rawValue:)))
    }

    public func blocked(among people: Set<UserID>, for user: UserID) async throws -> Set<UserID> {
        let (ids, me) = (people.map(\.rawValue), user.rawValue)
        return Set(try await store.read { try $0.blocked(among: ids, for: me) }.map(UserID.init(rawValue:)))
    }
}

/// Accounts show a user the emails and friend codes of their friends (``AccountVisibility``),
/// from the friends area's store: the one answer, in the whole app, to "whose account may I
/// see in full?". (The store's answer counts the user's own contacts too, which have no account
/// to show.)
public struct FriendsVisibility: AccountVisibility {
    let store: any FriendsStore

    public init(store: any FriendsStore) {
        self.store = store
    }

    public func shown(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID> {
        guard !people.isEmpty else { return [] }
        return Set(try await store.friendIDs(of: user.rawValue, among: people.map(\.rawValue)).map(UserID.init(rawValue:)))
    }
}

/// Makes two people one in each area in turn: the ledger's expenses and balances, then the
/// groups they are in. Each is a transaction of its own; each is safe to run again, so a link
/// that failed part-way is finished by linking again.
struct MergingInTurn: PersonMerging {
    let areas: [any PersonMerging]

    init(_ areas: [any PersonMerging]) {
        self.areas = areas
    }

    func merge(_ contact: UserID, into account: UserID) async throws(ExpensesError) {
        for area in areas { try await area.merge(contact, into: account) }
    }
}

/// The directory of a ledger that records no expense or payment (the one friends read balances
/// from): no one may be named through it.
public struct NoOneToName: PeopleDirectory {
    public init() {}

    public func strangers(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID> {
        people
    }

    public func blocked(among people: Set<UserID>, for user: UserID) async throws -> Set<UserID> {
        []
    }
}
