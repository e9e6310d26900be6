import DataChangesPostgres
import Accounts
import AccountsData
import AccountsDataPostgres
import AccountsLive
import Expenses
import ExpensesData
import ExpensesDataPostgres
import ExpensesLive
import FlowsServer
import FlowsServices
import Foundation
import Friends
import FriendsDataPostgres
import FriendsLive
import PostgresStore
import Preferences
import PreferencesDataPostgres
import PreferencesLive
import Primitives
import Synchronization

/// Every PostgreSQL migration of a server, in the order it runs them.
let allMigrations = ServerServices.postgresMigrations

/// A clock the test moves by hand; it starts where `LocalServices.inMemory` stands still.
final class TestClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { time.withLock { $0 } }

    func advance(seconds: Double) {
        time.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// The app's services on a PostgreSQL database, wired as `LocalServices.inMemory` wires them on
/// SQLite (one seeded random source, a clock, bcrypt at its lowest cost), so the same steps give
/// the same ids on both.
struct PostgresWorld {
    let database: ServerDatabase
    let services: LocalServices
    let tokens: InMemorySessionTokenStore
    let clock: TestClock

    init(url: DatabaseURL, seed: UInt64 = 1, clock: TestClock = TestClock(), maximumConnections: Int = 8) {
        let database = ServerDatabase(url: url, maximumConnections: maximumConnections, migrations: allMigrations)
        let tokens = InMemorySessionTokenStore()
        self.database = database
        self.clock = clock
        self.tokens = tokens
        let random = SeededRandomSource(seed: seed)
        let now: @Sendable () -> Date = { clock.now }
        // The server's own stores and wiring, with the test's clock, seed and session.
        services = LocalServices.live(stores: ServerServices.postgresStores(database), random: random, now: now) { store, visibility in
            LiveAccountsService(store: store, tokens: tokens, hasher: PasswordHasher(cost: 4), random: random, now: now, visibility: visibility)
        }
    }

    /// Runs `test` on the services over a fresh database, and shuts the database down after.
    static func run<T>(seed: UInt64 = 1, _ test: (PostgresWorld) async throws -> T) async throws -> T {
        try await TestDatabase.withFresh { url in
            let world = PostgresWorld(url: url, seed: seed)
            do {
                let result = try await test(world)
                await world.database.shutdown()
                return result
            } catch {
                await world.database.shutdown()
                throw error
            }
        }
    }
}

/// A ledger alone on a fresh database (with the change log every PostgreSQL store writes), with
/// everyone known: for the Expenses store's own tests.
struct PostgresLedger {
    let database: ServerDatabase
    let store: PostgresExpensesStore
    let service: LiveExpensesService

    static func run<T>(maximumConnections: Int = 8, _ test: (PostgresLedger) async throws -> T) async throws -> T {
        try await TestDatabase.withFresh { url in
            let database = ServerDatabase(url: url, maximumConnections: maximumConnections, migrations: PostgresChangeLog.migrations + ExpensesPostgresSchema.migrations)
            let store = PostgresExpensesStore(database: database)
            let ledger = PostgresLedger(
                database: database, store: store,
                service: LiveExpensesService(
                    store: store, people: Everyone(), random: SystemRandomSource(), now: { Date(timeIntervalSince1970: 1_800_000_000) }
                )
            )
            do {
                let result = try await test(ledger)
                await database.shutdown()
                return result
            } catch {
                await database.shutdown()
                throw error
            }
        }
    }
}

/// Everyone may name everyone but those whose id starts with "unknown".
struct Everyone: PeopleDirectory {
    func strangers(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID> {
        people.filter { $0.rawValue.hasPrefix("unknown") }
    }

    func blocked(among people: Set<UserID>, for user: UserID) async throws -> Set<UserID> {
        []
    }
}

func eur(_ units: Int64) -> Money { Money(minorUnits: units, currency: .eur) }

/// An expense of `amount` paid by the payers given, split by `rule` among `participants`.
func draft(
    _ amount: Money, paidBy payers: [(UserID, Int64)], among participants: [UserID], rule: SplitRule = .equal,
    description: String = "Dinner", day: String = "2026-11-22", category: Category = .food, note: String? = nil
) throws -> ExpenseDraft {
    ExpenseDraft(
        description: description, amount: amount, day: try Day(day), category: category,
        payers: payers.map { Payer(user: $0.0, amount: Money(minorUnits: $0.1, currency: amount.currency)) },
        participants: participants, rule: rule, note: note
    )
}
