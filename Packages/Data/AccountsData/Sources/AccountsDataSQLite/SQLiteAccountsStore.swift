import AccountsData
import GRDB
import LocalStore

/// The Accounts store on the embedded SQLite database.
public struct SQLiteAccountsStore: AccountsStore {
    private let database: LocalDatabase

    public init(database: LocalDatabase) {
        self.database = database
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any AccountsReading) throws -> T) async throws -> T {
        try await database.writer().read { db in try body(Transaction(db: db)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any AccountsWriting) throws -> T) async throws -> T {
        try await database.writer().write { db in try body(Transaction(db: db)) }
    }
}

/// The store's operations inside one GRDB transaction.
private struct Transaction: AccountsWriting {
    let db: Database

    func user(id: String) throws -> UserRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM user WHERE id = ?", arguments: [id]).map(UserRecord.init(row:))
    }

    func user(emailKey: String) throws -> UserRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM user WHERE email_key = ?", arguments: [emailKey])
            .map(UserRecord.init(row:))
    }

    func session(tokenHash: String) throws -> SessionRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM session WHERE token_hash = ?", arguments: [tokenHash])
            .map { SessionRecord(tokenHash: $0["token_hash"], userID: $0["user_id"], createdAt: $0["created_at"]) }
    }

    func insert(_ user: UserRecord) throws {
        do {
            try db.execute(
                sql: """
                    INSERT INTO user (id, email, email_key, display_name, password_hash, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [user.id, user.email, user.emailKey, user.displayName, user.passwordHash, user.createdAt]
            )
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE && error.message?.contains("email_key") == true
        {
            throw AccountsDataError.emailTaken
        }
    }

    func insert(_ session: SessionRecord) throws {
        try db.execute(
            sql: "INSERT INTO session (token_hash, user_id, created_at) VALUES (?, ?, ?)",
            arguments: [session.tokenHash, session.userID, session.createdAt]
        )
    }

    func deleteSession(tokenHash: String) throws {
        try db.execute(sql: "DELETE FROM session WHERE token_hash = ?", arguments: [tokenHash])
    }
}

extension UserRecord {
    fileprivate init(row: Row) {
        self.init(
            id: row["id"],
            email: row["email"],
            emailKey: row["email_key"],
            displayName: row["display_name"],
            passwordHash: row["password_hash"],
            createdAt: row["created_at"]
        )
    }
}
