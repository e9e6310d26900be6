import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsLive
import Expenses
import ExpensesDataSQLite
import ExpensesLive
import Foundation
import GRDB
import LocalStore
import Preferences
import PreferencesDataSQLite
import PreferencesLive
import Primitives

/// The app's services on the embedded store, wired in one place: every area's migrations and
/// the live implementation of each service. The `flows` app builds its container on it, and so
/// can any other Swift tool (see docs/embedding.md).
public struct LocalServices: Sendable {
    public let accounts: any AccountsService
    public let expenses: any ExpensesService
    public let preferences: any PreferencesService

    public init(accounts: any AccountsService, expenses: any ExpensesService, preferences: any PreferencesService) {
        self.accounts = accounts
        self.expenses = expenses
        self.preferences = preferences
    }

    /// The services on the store in `location` (opened and migrated on first use), with the
    /// current session kept in its session file.
    public static func open(_ location: StoreLocation) -> LocalServices {
        let database = LocalDatabase(.file(location.databaseFile), migrations: registerMigrations)
        let accounts = LiveAccountsService(store: SQLiteAccountsStore(database: database), tokens: FileSessionTokenStore(location: location))
        return LocalServices(
            accounts: accounts,
            expenses: LiveExpensesService(store: SQLiteExpensesStore(database: database), people: AccountsPeople(accounts: accounts)),
            preferences: LivePreferencesService(store: SQLitePreferencesStore(database: database))
        )
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
        return LocalServices(
            accounts: accounts,
            expenses: LiveExpensesService(
                store: SQLiteExpensesStore(database: database), people: AccountsPeople(accounts: accounts), random: random, now: { now }
            ),
            preferences: LivePreferencesService(store: SQLitePreferencesStore(database: database))
        )
    }

    /// Every area's migrations, in the order they run: what opens a store of the app.
    public static let registerMigrations: @Sendable (inout DatabaseMigrator) -> Void = { migrator in
        AccountsSchema.registerMigrations(in: &migrator)
        ExpensesSchema.registerMigrations(in: &migrator)
        PreferencesSchema.registerMigrations(in: &migrator)
    }
}

/// Expenses know who exists from the accounts: one answer to "who is this?" in the whole app.
public struct AccountsPeople: PeopleDirectory {
    let accounts: any AccountsService

    public init(accounts: any AccountsService) {
        self.accounts = accounts
    }

    public func unknown(among people: Set<UserID>) async throws -> Set<UserID> {
        people.subtracting(try await accounts.existing(among: people))
    }
}
