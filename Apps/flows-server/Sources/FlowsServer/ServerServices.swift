import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsLive
import Expenses
import ExpensesDataSQLite
import Foundation
import FlowsServices
import Friends
import FriendsDataSQLite
import LocalStore
import Preferences
import PreferencesDataSQLite
import Primitives

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
    public let friends: any FriendsService
    public let expenses: any ExpensesService
    public let preferences: any PreferencesService
    /// The recount of the whole ledger: the operator's, never a user's (no endpoint serves it).
    public let verifier: any LedgerVerifier
    /// A fresh accounts service keeping its session in `tokens` (which holds the request's
    /// token, or none).
    public let sessions: @Sendable (_ tokens: any SessionTokenStore) -> any AccountsService
    /// Whether the store answers, for readiness.
    let probe: @Sendable () async -> Bool
    /// Closes the store; after it, requests fail as "store unavailable".
    let close: @Sendable () async -> Void

    public init(
        services: LocalServices,
        sessions: @escaping @Sendable (_ tokens: any SessionTokenStore) -> any AccountsService,
        probe: @escaping @Sendable () async -> Bool,
        close: @escaping @Sendable () async -> Void = {}
    ) {
        accounts = services.accounts
        friends = services.friends
        expenses = services.expenses
        preferences = services.preferences
        verifier = services.verifier
        self.sessions = sessions
        self.probe = probe
        self.close = close
    }

    /// The services on the embedded SQLite store: one file (`.file`), for one machine, or a
    /// private in-memory database (`.memory`) for tests and trials.
    ///
    /// - Parameters:
    ///   - fast: bcrypt at its lowest cost, seeded randomness: for tests only.
    ///   - now: the clock (tests move it to end sessions).
    public static func sqlite(
        _ place: LocalDatabase.Place, fast: Bool = false, now: @escaping @Sendable () -> Date = Date.init
    ) -> ServerServices {
        let database = LocalDatabase(place, migrations: LocalServices.registerMigrations)
        let random: any RandomSource = fast ? SeededRandomSource(seed: 1) : SystemRandomSource()
        let hasher = fast ? PasswordHasher(cost: 4) : PasswordHasher()
        let accountsStore = SQLiteAccountsStore(database: database)
        let sessions: @Sendable (any SessionTokenStore) -> any AccountsService = { tokens in
            LiveAccountsService(store: accountsStore, tokens: tokens, hasher: hasher, random: random, now: now)
        }
        let services = LocalServices.live(
            accounts: sessions(InMemorySessionTokenStore()),
            expensesStore: SQLiteExpensesStore(database: database),
            friendsStore: SQLiteFriendsStore(database: database),
            preferencesStore: SQLitePreferencesStore(database: database),
            random: random,
            now: now
        )
        return ServerServices(services: services, sessions: sessions) {
            (try? database.writer()) != nil
        }
    }
}
