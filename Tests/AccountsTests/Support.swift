import AccountsData
import AccountsDataSQLite
import AccountsLive
import Foundation
import GRDB
import LocalStore
import Primitives

/// An accounts service on a private in-memory SQLite store, with what the tests look into.
struct AccountsFixture {
    let database: LocalDatabase
    let tokens: any SessionTokenStore
    let service: LiveAccountsService

    init(tokens: any SessionTokenStore = InMemorySessionTokenStore(), seed: UInt64 = 1) {
        database = LocalDatabase(.memory, migrations: AccountsSchema.registerMigrations(in:))
        self.tokens = tokens
        service = LiveAccountsService(
            store: SQLiteAccountsStore(database: database),
            tokens: tokens,
            hasher: PasswordHasher(cost: 4),
            random: SeededRandomSource(seed: seed),
            now: { Date(timeIntervalSince1970: 1_800_000_000) }
        )
    }

    func count(_ table: String) throws -> Int {
        try database.writer().read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? -1 }
    }

    func column(_ sql: String) throws -> [String] {
        try database.writer().read { db in try String.fetchAll(db, sql: sql) }
    }
}

/// A token store that refuses to save, to show a failing write leaves nothing behind.
struct FailingTokenStore: SessionTokenStore {
    struct Refused: Error {}
    func load() throws -> String? { nil }
    func save(_ token: String) throws { throw Refused() }
    func clear() throws {}
}
