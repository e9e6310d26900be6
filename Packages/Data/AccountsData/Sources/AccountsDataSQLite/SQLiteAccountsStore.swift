import AccountsData
import DataChanges
import DataChangesSQLite
import Foundation
import GRDB
import LocalStore

/// The Accounts store on the embedded SQLite database.
public struct SQLiteAccountsStore: AccountsStore {
    private let database: LocalDatabase

    public init(database: LocalDatabase) {
        self.database = database
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any AccountsReading) throws -> T) async throws -> T {
        try database.read { db in try body(Transaction(db: db)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any AccountsWriting) throws -> T) async throws -> T {
        // What a write changed is noted only where the store keeps a change log.
        try await database.write(telling: nil) { db, noted in
            let transaction = Transaction(db: db)
            return try body(noted.map { NotingAccountsWriting(transaction, noting: $0) } ?? transaction)
        }
    }
}

/// The store's operations inside one GRDB transaction.
private struct Transaction: AccountsWriting {
    let db: Database

    func user(id: String) throws -> UserRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE id = ?"), arguments: [id]).map(UserRecord.init(row:))
    }

    func user(emailKey: String) throws -> UserRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE email_key = ?"), arguments: [emailKey])
            .map(UserRecord.init(row:))
    }

    func user(friendCode: String) throws -> UserRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE friend_code = ?"), arguments: [friendCode]).map(UserRecord.init(row:))
    }

    func session(tokenHash: String) throws -> SessionRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM session WHERE token_hash = ?"), arguments: [tokenHash]).map(SessionRecord.init(row:))
    }

    func existingUserIDs(among ids: [String]) throws -> Set<String> {
        var found: Set<String> = []
        for id in ids where try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM user WHERE id = ?"), arguments: [id]) != nil {
            found.insert(id)
        }
        return found
    }

    func sessions(userID: String) throws -> [SessionRecord] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM session WHERE user_id = ? ORDER BY created_at, token_hash"), arguments: [userID])
            .map(SessionRecord.init(row:))
    }

    func insert(_ user: UserRecord) throws {
        try refusals {
            try db.cachedStatement(
                sql: """
                    INSERT INTO user (id, email, email_key, display_name, friend_code, password_hash, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [user.id, user.email, user.emailKey, user.displayName, user.friendCode, user.passwordHash, user.createdAt]
            )
        }
    }

    func insert(_ session: SessionRecord) throws {
        try refusals {
            try db.cachedStatement(sql: "INSERT INTO session (token_hash, user_id, created_at, last_used_at, client) VALUES (?, ?, ?, ?, ?)").execute(
                arguments: [session.tokenHash, session.userID, session.createdAt, session.lastUsedAt, session.client]
            )
        }
    }

    func deleteSession(tokenHash: String) throws {
        try db.cachedStatement(sql: "DELETE FROM session WHERE token_hash = ?").execute(arguments: [tokenHash])
    }

    func touchSession(tokenHash: String, at time: Double) throws {
        try db.cachedStatement(sql: "UPDATE session SET last_used_at = ? WHERE token_hash = ?").execute(arguments: [time, tokenHash])
    }

    func deleteSessions(userID: String, unusedSince time: Double) throws {
        try db.cachedStatement(sql: "DELETE FROM session WHERE user_id = ? AND last_used_at < ?").execute(arguments: [userID, time])
    }

    func avatar(userID: String) throws -> AvatarRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM avatar WHERE user_id = ?"), arguments: [userID]).map { row in
            AvatarRecord(
                userID: row["user_id"], kind: row["kind"], colour: row["colour"], format: row["format"], width: row["width"],
                height: row["height"], bytes: (row["bytes"] as Data?).map { [UInt8]($0) }
            )
        }
    }

    func saveAvatar(_ avatar: AvatarRecord?, userID: String) throws {
        try db.cachedStatement(sql: "DELETE FROM avatar WHERE user_id = ?").execute(arguments: [userID])
        guard let avatar else { return }
        try refusals {
            try db.cachedStatement(sql: "INSERT INTO avatar (user_id, kind, colour, format, width, height, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)").execute(
                arguments: [userID, avatar.kind, avatar.colour, avatar.format, avatar.width, avatar.height, avatar.bytes.map { Data($0) }]
            )
        }
    }

    func deleteSessions(userID: String, except tokenHash: String?) throws {
        try db.cachedStatement(sql: "DELETE FROM session WHERE user_id = ? AND token_hash IS NOT ?").execute(arguments: [userID, tokenHash])
    }

    func updateDisplayName(userID: String, to name: String) throws {
        try refusals { try db.cachedStatement(sql: "UPDATE user SET display_name = ? WHERE id = ?").execute(arguments: [name, userID]) }
    }

    func updateEmail(userID: String, to email: String, key: String) throws {
        try refusals { try db.cachedStatement(sql: "UPDATE user SET email = ?, email_key = ? WHERE id = ?").execute(arguments: [email, key, userID]) }
    }

    func updateFriendCode(userID: String, to code: String) throws {
        try refusals { try db.cachedStatement(sql: "UPDATE user SET friend_code = ? WHERE id = ?").execute(arguments: [code, userID]) }
    }

    func updatePasswordHash(userID: String, to hash: String) throws {
        try refusals { try db.cachedStatement(sql: "UPDATE user SET password_hash = ? WHERE id = ?").execute(arguments: [hash, userID]) }
    }

    func emailVerification(userID: String) throws -> EmailVerificationRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM email_verification WHERE user_id = ?"), arguments: [userID]).map { row in
            EmailVerificationRecord(
                userID: row["user_id"], emailKey: row["email_key"], codeHash: row["code_hash"], sentAt: row["sent_at"], triesLeft: row["tries_left"]
            )
        }
    }

    func setEmailVerified(userID: String, at time: Double?) throws {
        try db.cachedStatement(sql: "UPDATE user SET email_verified_at = ? WHERE id = ?").execute(arguments: [time, userID])
    }

    func saveEmailVerification(_ record: EmailVerificationRecord) throws {
        try refusals {
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO email_verification (user_id, email_key, code_hash, sent_at, tries_left) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: [record.userID, record.emailKey, record.codeHash, record.sentAt, record.triesLeft])
        }
    }

    func takeEmailVerificationTry(userID: String) throws -> Int? {
        try Int.fetchOne(
            db.cachedStatement(sql: "UPDATE email_verification SET tries_left = tries_left - 1 WHERE user_id = ? AND tries_left > 0 RETURNING tries_left"),
            arguments: [userID]
        )
    }

    func deleteEmailVerification(userID: String) throws {
        try db.cachedStatement(sql: "DELETE FROM email_verification WHERE user_id = ?").execute(arguments: [userID])
    }

    /// Turns a constraint's refusal into a store error the domain can name, never "unavailable".
    private func refusals(_ work: () throws -> Void) throws {
        do {
            try work()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE, error.message?.contains("email_key") == true {
                throw AccountsDataError.emailTaken
            }
            throw AccountsDataError.refused(error.message ?? "a constraint of the store")
        }
    }
}

extension SessionRecord {
    fileprivate init(row: Row) {
        self.init(tokenHash: row["token_hash"], userID: row["user_id"], createdAt: row["created_at"], lastUsedAt: row["last_used_at"], client: row["client"])
    }
}

extension UserRecord {
    fileprivate init(row: Row) {
        self.init(
            id: row["id"],
            email: row["email"],
            emailKey: row["email_key"],
            displayName: row["display_name"],
            friendCode: row["friend_code"],
            passwordHash: row["password_hash"],
            createdAt: row["created_at"],
            emailVerifiedAt: row["email_verified_at"]
        )
    }
}
