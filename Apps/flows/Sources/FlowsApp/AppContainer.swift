import AppFlow
import Accounts
import AccountsDataSQLite
import AccountsData
import AccountsLive
import Expenses
import ExpensesDataSQLite
import ExpensesLive
import Foundation
import GRDB
import LocalStore
import Primitives

/// The composition root: the one place (with the tests) that knows which implementation serves
/// each abstraction.
///
/// It gives every flow what the flow declares it needs: `AppFlow.Dependencies` is composed of
/// every flow's needs, so a service a flow starts needing is added here and in that flow only.
public struct AppContainer: AppFlow.Dependencies {
    public let accounts: any AccountsService
    public let expenses: any ExpensesService

    public init(accounts: any AccountsService, expenses: any ExpensesService) {
        self.accounts = accounts
        self.expenses = expenses
    }

    /// The app on the embedded store in `location`, opened on first use.
    public static func live(location: StoreLocation) -> AppContainer {
        let database = LocalDatabase(.file(location.databaseFile), migrations: registerMigrations)
        let accounts = LiveAccountsService(store: SQLiteAccountsStore(database: database), tokens: FileSessionTokenStore(location: location))
        return AppContainer(
            accounts: accounts,
            expenses: LiveExpensesService(store: SQLiteExpensesStore(database: database), people: AccountsPeople(accounts: accounts))
        )
    }

    /// The app on a private in-memory store of the same implementation, with seeded randomness
    /// and a fixed clock, so that every run is identical. bcrypt runs at its lowest cost.
    public static func inMemory(
        seed: UInt64 = 1,
        now: Date = Date(timeIntervalSince1970: 1_800_000_000),
        sessionTokens: any SessionTokenStore = InMemorySessionTokenStore()
    ) -> AppContainer {
        let database = LocalDatabase(.memory, migrations: registerMigrations)
        let random = SeededRandomSource(seed: seed)
        let accounts = LiveAccountsService(
            store: SQLiteAccountsStore(database: database),
            tokens: sessionTokens,
            hasher: PasswordHasher(cost: 4),
            random: random,
            now: { now }
        )
        return AppContainer(
            accounts: accounts,
            expenses: LiveExpensesService(
                store: SQLiteExpensesStore(database: database), people: AccountsPeople(accounts: accounts), random: random, now: { now }
            )
        )
    }

    /// Every area's migrations, in the order they must run.
    static let registerMigrations: @Sendable (inout DatabaseMigrator) -> Void = { migrator in
        AccountsSchema.registerMigrations(in: &migrator)
        ExpensesSchema.registerMigrations(in: &migrator)
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
