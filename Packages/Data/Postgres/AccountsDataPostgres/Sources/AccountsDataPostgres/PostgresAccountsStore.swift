import DataChanges
import DataChangesPostgres
import AccountsData
import PostgresStore

/// The Accounts store on a PostgreSQL database (the server's), with the same rules as the SQLite
/// one: the unique email key refuses a second account as ``AccountsDataError/emailTaken``, any
/// other constraint as ``AccountsDataError/refused(_:)``.
public struct PostgresAccountsStore: AccountsStore {
    private let database: ServerDatabase

    public init(database: ServerDatabase) {
        self.database = database
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any AccountsReading) throws -> T) async throws -> T {
        try await refusals { try await database.read { try body(Transaction(db: $0)) } }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any AccountsWriting) throws -> T) async throws -> T {
        try await refusals {
            try await database.write(telling: nil) { db, noted in try body(NotingAccountsWriting(Transaction(db: db), noting: noted)) }
        }
    }

    /// Turns a constraint's refusal into a store error the domain can name, never "unavailable".
    private func refusals<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch ServerDatabaseError.constraint(let violation) {
            if violation.kind == .unique, violation.constraint == "account_email_key" { throw AccountsDataError.emailTaken }
            throw AccountsDataError.refused(violation.message)
        }
    }
}

/// The store's operations inside one transaction.
private struct Transaction: AccountsWriting {
    let db: ServerTransaction

    private static let userColumns = "id, email, email_key, display_name, friend_code, password_hash, created_at, email_verified_at"

    func user(id: String) throws -> UserRecord? {
        try db.row("SELECT \(Self.userColumns) FROM account WHERE id = $1", [id]).map(UserRecord.init(row:))
    }

    func user(emailKey: String) throws -> UserRecord? {
        try db.row("SELECT \(Self.userColumns) FROM account WHERE email_key = $1", [emailKey]).map(UserRecord.init(row:))
    }

    func user(friendCode: String) throws -> UserRecord? {
        try db.row("SELECT \(Self.userColumns) FROM account WHERE friend_code = $1", [friendCode]).map(UserRecord.init(row:))
    }

    func session(tokenHash: String) throws -> SessionRecord? {
        try db.row("SELECT token_hash, user_id, created_at, last_used_at, client FROM session WHERE token_hash = $1", [tokenHash])
            .map(SessionRecord.init(row:))
    }

    func existingUserIDs(among ids: [String]) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        return Set(try db.rows("SELECT id FROM account WHERE id = ANY($1)", [ids]).map { try $0.text(0) })
    }

    func sessions(userID: String) throws -> [SessionRecord] {
        try db.rows(
            "SELECT token_hash, user_id, created_at, last_used_at, client FROM session WHERE user_id = $1 ORDER BY created_at, token_hash", [userID]
        ).map(SessionRecord.init(row:))
    }

    func insert(_ user: UserRecord) throws {
        try db.execute(
            """
            INSERT INTO account (id, email, email_key, display_name, friend_code, password_hash, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [user.id, user.email, user.emailKey, user.displayName, user.friendCode, user.passwordHash, user.createdAt]
        )
    }

    func insert(_ session: SessionRecord) throws {
        try db.execute(
            "INSERT INTO session (token_hash, user_id, created_at, last_used_at, client) VALUES ($1, $2, $3, $4, $5)",
            [session.tokenHash, session.userID, session.createdAt, session.lastUsedAt, session.client]
        )
    }

    func deleteSession(tokenHash: String) throws {
        try db.execute("DELETE FROM session WHERE token_hash = $1", [tokenHash])
    }

    func touchSession(tokenHash: String, at time: Double) throws {
        try db.execute("UPDATE session SET last_used_at = $1 WHERE token_hash = $2", [time, tokenHash])
    }

    func deleteSessions(userID: String, unusedSince time: Double) throws {
        try db.execute("DELETE FROM session WHERE user_id = $1 AND last_used_at < $2", [userID, time])
    }

    func deleteSessions(userID: String, except tokenHash: String?) throws {
        try db.execute("DELETE FROM session WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2", [userID, tokenHash])
    }

    func avatar(userID: String) throws -> AvatarRecord? {
        try db.row("SELECT user_id, kind, colour, format, width, height, bytes FROM avatar WHERE user_id = $1", [userID]).map { row in
            AvatarRecord(
                userID: try row.text(0), kind: try row.text(1), colour: try row.optionalText(2), format: try row.optionalText(3),
                width: try row.optionalInteger(4).flatMap(Int.init(exactly:)), height: try row.optionalInteger(5).flatMap(Int.init(exactly:)),
                bytes: try row.optionalBytes(6)
            )
        }
    }

    func saveAvatar(_ avatar: AvatarRecord?, userID: String) throws {
        try db.execute("DELETE FROM avatar WHERE user_id = $1", [userID])
        guard let avatar else { return }
        try db.execute(
            "INSERT INTO avatar (user_id, kind, colour, format, width, height, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [userID, avatar.kind, avatar.colour, avatar.format, avatar.width, avatar.height, avatar.bytes.map(SQLValue.bytes) ?? .null]
        )
    }

    func updateDisplayName(userID: String, to name: String) throws {
        try db.execute("UPDATE account SET display_name = $1 WHERE id = $2", [name, userID])
    }

    func updateEmail(userID: String, to email: String, key: String) throws {
        try db.execute("UPDATE account SET email = $1, email_key = $2 WHERE id = $3", [email, key, userID])
    }

    func updateFriendCode(userID: String, to code: String) throws {
        try db.execute("UPDATE account SET friend_code = $1 WHERE id = $2", [code, userID])
    }

    func updatePasswordHash(userID: String, to hash: String) throws {
        try db.execute("UPDATE account SET password_hash = $1 WHERE id = $2", [hash, userID])
    }

    func emailVerification(userID: String) throws -> EmailVerificationRecord? {
        try db.row("SELECT user_id, email_key, code_hash, sent_at, tries_left FROM email_verification WHERE user_id = $1", [userID]).map { row in
            EmailVerificationRecord(
                userID: try row.text(0), emailKey: try row.text(1), codeHash: try row.text(2), sentAt: try row.real(3), triesLeft: Int(clamping: try row.integer(4))
            )
        }
    }

    func setEmailVerified(userID: String, at time: Double?) throws {
        try db.execute("UPDATE account SET email_verified_at = $1 WHERE id = $2", [time, userID])
    }

    func saveEmailVerification(_ record: EmailVerificationRecord) throws {
        try db.execute(
            """
            INSERT INTO email_verification (user_id, email_key, code_hash, sent_at, tries_left) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (user_id) DO UPDATE SET email_key = EXCLUDED.email_key, code_hash = EXCLUDED.code_hash,
                sent_at = EXCLUDED.sent_at, tries_left = EXCLUDED.tries_left
            """,
            [record.userID, record.emailKey, record.codeHash, record.sentAt, record.triesLeft]
        )
    }

    func takeEmailVerificationTry(userID: String) throws -> Int? {
        try db.row("UPDATE email_verification SET tries_left = tries_left - 1 WHERE user_id = $1 AND tries_left > 0 RETURNING tries_left", [userID])
            .map { Int(clamping: try $0.integer(0)) }
    }

    func deleteEmailVerification(userID: String) throws {
        try db.execute("DELETE FROM email_verification WHERE user_id = $1", [userID])
    }
}

extension SessionRecord {
    fileprivate init(row: SQLRow) throws {
        self.init(tokenHash: try row.text(0), userID: try row.text(1), createdAt: try row.real(2), lastUsedAt: try row.real(3), client: try row.text(4))
    }
}

extension UserRecord {
    fileprivate init(row: SQLRow) throws {
        self.init(
            id: try row.text(0), email: try row.text(1), emailKey: try row.text(2), displayName: try row.text(3),
            friendCode: try row.text(4), passwordHash: try row.text(5), createdAt: try row.real(6), emailVerifiedAt: try row.optionalReal(7)
        )
    }
}
