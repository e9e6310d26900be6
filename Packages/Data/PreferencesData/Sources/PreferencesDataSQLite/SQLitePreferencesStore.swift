import DataChanges
import DataChangesSQLite
import GRDB
import LocalStore
import PreferencesData

/// The Preferences store on the embedded SQLite database.
public struct SQLitePreferencesStore: PreferencesStore {
    private let database: LocalDatabase

    public init(database: LocalDatabase) {
        self.database = database
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any PreferencesReading) throws -> T) async throws -> T {
        try database.read { db in try body(Transaction(db: db)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any PreferencesWriting) throws -> T) async throws -> T {
        // What a write changed is noted only where the store keeps a change log.
        try await database.write(telling: nil) { db, noted in
            let transaction = Transaction(db: db)
            return try body(noted.map { NotingPreferencesWriting(transaction, noting: $0) } ?? transaction)
        }
    }
}

/// The store's operations inside one GRDB transaction.
private struct Transaction: PreferencesWriting {
    let db: Database

    func preferences(userID: String) throws -> PreferencesRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM preference WHERE user_id = ?"), arguments: [userID]).map { row in
            PreferencesRecord(userID: row["user_id"], theme: row["theme"], defaultCurrency: row["default_currency"])
        }
    }

    func save(_ record: PreferencesRecord) throws {
        try db.cachedStatement(sql: """
            INSERT INTO preference (user_id, theme, default_currency) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET theme = excluded.theme, default_currency = excluded.default_currency
            """).execute(arguments: [record.userID, record.theme, record.defaultCurrency])
    }
}
