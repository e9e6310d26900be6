import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsLive
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
import LocalStore
import Preferences
import PreferencesData
import PreferencesDataSQLite
import PreferencesLive
import Primitives
import Synchronization

/// The app's services on the embedded store, wired in one place: every area's migrations and
/// the live implementation of each service. The `flows` app builds its container on it, and so
/// can any other Swift tool (see docs/embedding.md).
public struct LocalServices: Sendable {
    public let accounts: any AccountsService
    public let expenses: any ExpensesService
    public let friends: any FriendsService
    public let preferences: any PreferencesService
    /// The recount of the whole ledger (`flows verify`): the store's owner's, not a user's.
    public let verifier: any LedgerVerifier
    /// The store these services share, for tools that inspect it whole (tests, `flows test
    /// --explore`); nil for services put together by hand.
    public private(set) var database: LocalDatabase?

    public init(
        accounts: any AccountsService, expenses: any ExpensesService, friends: any FriendsService, preferences: any PreferencesService,
        verifier: any LedgerVerifier
    ) {
        self.verifier = verifier
        self.accounts = accounts
        self.expenses = expenses
        self.friends = friends
        self.preferences = preferences
    }

    /// The services on the store in `location` (opened and migrated on first use), with the
    /// current session kept in its session file.
    public static func open(_ location: StoreLocation) -> LocalServices {
        let database = LocalDatabase(.file(location.databaseFile), migrations: registerMigrations)
        let accounts = LiveAccountsService(store: SQLiteAccountsStore(database: database), tokens: FileSessionTokenStore(location: location))
        return wired(database: database, accounts: accounts, random: SystemRandomSource(), now: Date.init)
    }

    /// The services on a private in-memory store of the same implementation, with seeded
    /// randomness and a fixed clock, so that every run is identical. bcrypt runs at its lowest
    /// cost.
    public static func inMemory(
        seed: UInt64 = 1,
        now: Date = Date(timeIntervalSince1970: 1_800_000_000),
        sessionTokens: any SessionTokenStore = InMemorySessionTokenStore()
    ) -> LocalServices {
        let database = LocalDatabase(.memory, migrations: registerMigrations)
        let random = SeededRandomSource(seed: seed)
        let accounts = LiveAccountsService(
            store: SQLiteAccountsStore(database: database),
            tokens: sessionTokens,
            hasher: PasswordHasher(cost: 4),
            random: random,
            now: { now }
        )
        return wired(database: database, accounts: accounts, random: random, now: { now })
    }

    /// The other areas' services around the accounts, on the embedded store.
    private static func wired(
        database: LocalDatabase, accounts: any AccountsService, random: any RandomSource, now: @escaping @Sendable () -> Date
    ) -> LocalServices {
        var services = live(
            accounts: accounts,
            expensesStore: SQLiteExpensesStore(database: database),
            friendsStore: SQLiteFriendsStore(database: database),
            preferencesStore: SQLitePreferencesStore(database: database),
            random: random,
            now: now
        )
        services.database = database
        return services
    }

    /// The live services of every area around `accounts`, on any implementation of the stores
    /// (the embedded store's, or flows-server's database).
    ///
    /// Friends read balances and move a linked contact's expenses through a ledger of their own
    /// (the same store; neither names new people, so it needs no one's contacts), and the app's
    /// ledger knows people from the accounts and the contacts.
    public static func live(
        accounts: any AccountsService,
        expensesStore: any ExpensesStore,
        friendsStore: any FriendsStore,
        preferencesStore: any PreferencesStore,
        random: any RandomSource,
        now: @escaping @Sendable () -> Date
    ) -> LocalServices {
        let remembered = RememberedAccounts(accounts)
        let ledger = LiveExpensesService(store: expensesStore, people: AccountsPeople(accounts: remembered), random: random, now: now)
        let friends = LiveFriendsService(
            store: friendsStore, accounts: accounts, expenses: ledger, merging: ledger, random: random, now: now
        )
        return LocalServices(
            accounts: accounts,
            expenses: LiveExpensesService(store: expensesStore, people: KnownPeople(accounts: remembered, friends: friends), random: random, now: now),
            friends: friends,
            preferences: LivePreferencesService(store: preferencesStore),
            verifier: LiveLedgerVerifier(store: expensesStore)
        )
    }

    /// Every area's migrations, in the order they run: what opens a store of the app.
    public static let registerMigrations: @Sendable (inout DatabaseMigrator) -> Void = { migrator in
        AccountsSchema.registerMigrations(in: &migrator)
        ExpensesSchema.registerMigrations(in: &migrator)
        PreferencesSchema.registerMigrations(in: &migrator)
        FriendsSchema.registerMigrations(in: &migrator)
    }
}

/// Expenses know who exists from the accounts: one answer to "who is this?" in the whole app.
public struct AccountsPeople: PeopleDirectory {
    let accounts: RememberedAccounts

    public init(accounts: any AccountsService) {
        self.init(accounts: RememberedAccounts(accounts))
    }

    init(accounts: RememberedAccounts) {
        self.accounts = accounts
    }

    public func unknown(among people: Set<UserID>) async throws -> Set<UserID> {
        people.subtracting(try await accounts.existing(among: people))
    }
}

/// Everyone expenses can name: accounts and contacts.
public struct KnownPeople: PeopleDirectory {
    let accounts: RememberedAccounts
    let friends: any FriendsService

    public init(accounts: any AccountsService, friends: any FriendsService) {
        self.init(accounts: RememberedAccounts(accounts), friends: friends)
    }

    init(accounts: RememberedAccounts, friends: any FriendsService) {
        self.accounts = accounts
        self.friends = friends
    }

    public func unknown(among people: Set<UserID>) async throws -> Set<UserID> {
        let withoutAccount = people.subtracting(try await accounts.existing(among: people))
        guard !withoutAccount.isEmpty else { return [] }
        return withoutAccount.subtracting(try await friends.contacts(among: withoutAccount))
    }
}

/// Who has an account and who has none, as far as found so far: the accounts service is asked
/// only about the others. Both answers are for good: an account is never deleted, and an id
/// without one never gets one (a new account gets a new random id; a contact linked to an
/// account takes the account's). Every expense added between friends would otherwise ask the
/// store again who they are. (Whether someone is a contact is not remembered: a linked contact
/// goes.)
final class RememberedAccounts: Sendable {
    private let accounts: any AccountsService
    private let known = Mutex<(found: Set<UserID>, absent: Set<UserID>)>(([], []))
    /// Past this many of either, that memory starts over.
    private let capacity: Int

    init(_ accounts: any AccountsService, capacity: Int = 100_000) {
        self.accounts = accounts
        self.capacity = capacity
    }

    /// The ones among `people` that have an account.
    func existing(among people: Set<UserID>) async throws -> Set<UserID> {
        let (found, unasked) = known.withLock { known in
            (people.intersection(known.found), people.subtracting(known.found).subtracting(known.absent))
        }
        guard !unasked.isEmpty else { return found }
        let existing = try await accounts.existing(among: unasked)
        let absent = unasked.subtracting(existing)
        known.withLock { known in
            if known.found.count + existing.count > capacity { known.found.removeAll(keepingCapacity: true) }
            if known.absent.count + absent.count > capacity { known.absent.removeAll(keepingCapacity: true) }
            known.found.formUnion(existing)
            known.absent.formUnion(absent)
        }
        return found.union(existing)
    }
}
