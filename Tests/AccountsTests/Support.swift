import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsLive
import Foundation
import GRDB
import LocalStore
import Primitives
import Synchronization

/// An accounts service on a private in-memory SQLite store, with what the tests look into.
struct AccountsFixture {
    let database: LocalDatabase
    let tokens: any SessionTokenStore
    let service: LiveAccountsService
    let clock = TestClock()

    init(
        tokens: any SessionTokenStore = InMemorySessionTokenStore(), seed: UInt64 = 1, database: LocalDatabase? = nil,
        visibility: any AccountVisibility = OwnAccountOnly(), verification: (any VerificationCodeSender)? = nil
    ) {
        self.database = database ?? LocalDatabase(.memory, migrations: AccountsSchema.registerMigrations(in:))
        self.tokens = tokens
        self.verification = verification
        service = Self.service(on: self.database, tokens: tokens, seed: seed, clock: clock, visibility: visibility, verification: verification)
    }

    let verification: (any VerificationCodeSender)?

    /// Another service on the same store and clock: another process, in effect.
    func process(tokens: any SessionTokenStore, seed: UInt64) -> LiveAccountsService {
        Self.service(on: database, tokens: tokens, seed: seed, clock: clock, visibility: OwnAccountOnly(), verification: verification)
    }

    private static func service(
        on database: LocalDatabase, tokens: any SessionTokenStore, seed: UInt64, clock: TestClock, visibility: any AccountVisibility,
        verification: (any VerificationCodeSender)?
    ) -> LiveAccountsService {
        LiveAccountsService(
            store: SQLiteAccountsStore(database: database),
            tokens: tokens,
            hasher: PasswordHasher(cost: 4),
            random: SeededRandomSource(seed: seed),
            now: { clock.now },
            visibility: visibility,
            verification: verification
        )
    }

    func count(_ table: String) throws -> Int {
        try database.writer().read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? -1 }
    }

    func column(_ sql: String) throws -> [String] {
        try database.writer().read { db in try String.fetchAll(db, sql: sql) }
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { time.withLock { $0 } }

    func advance(days: Double) {
        advance(seconds: days * 24 * 60 * 60)
    }

    func advance(seconds: Double) {
        time.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A token store that refuses to save, to show a failing write leaves nothing behind.
struct FailingTokenStore: SessionTokenStore {
    struct Refused: Error {}
    func load() throws -> String? { nil }
    func save(_ token: String) throws { throw Refused() }
    func clear() throws {}
}
