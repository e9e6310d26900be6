import DataChanges
import DataChangesPostgres
import PostgresStore
import PreferencesData

/// The Preferences store on a PostgreSQL database (the server's).
public struct PostgresPreferencesStore: PreferencesStore {
    private let database: ServerDatabase

    public init(database: ServerDatabase) {
        self.database = database
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any PreferencesReading) throws -> T) async throws -> T {
        try await database.read { try body(Transaction(db: $0)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any PreferencesWriting) throws -> T) async throws -> T {
        try await database.write(telling: nil) { db, noted in try body(NotingPreferencesWriting(Transaction(db: db), noting: noted)) }
    }
}

/// The store's operations inside one transaction.
private struct Transaction: PreferencesWriting {
    let db: ServerTransaction

    func preferences(userID: String) throws -> PreferencesRecord? {
        try db.row("SELECT user_id, theme, default_currency FROM preference WHERE user_id = $1", [userID]).map { row in
            PreferencesRecord(userID: try row.text(0), theme: try row.text(1), defaultCurrency: try row.text(2))
        }
    }

    func save(_ record: PreferencesRecord) throws {
        try db.execute(
            """
            INSERT INTO preference (user_id, theme, default_currency) VALUES ($1, $2, $3)
            ON CONFLICT (user_id) DO UPDATE SET theme = excluded.theme, default_currency = excluded.default_currency
            """,
            [record.userID, record.theme, record.defaultCurrency]
        )
    }
}
