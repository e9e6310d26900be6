import DataChanges
import DataChangesSQLite
import FriendsData
import GRDB
import LocalStore

/// The Friends store on the embedded SQLite database.
public struct SQLiteFriendsStore: FriendsStore {
    private let database: LocalDatabase
    private let friendshipsChanged: PeopleChanged?

    /// - Parameter friendshipsChanged: told after each write whose friendships, requests or
    ///   blocks it changed.
    public init(database: LocalDatabase, friendshipsChanged: PeopleChanged? = nil) {
        self.database = database
        self.friendshipsChanged = friendshipsChanged
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any FriendsReading) throws -> T) async throws -> T {
        try database.read { db in try body(Transaction(db: db)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any FriendsWriting) throws -> T) async throws -> T {
        do {
            return try await database.write(telling: friendshipsChanged) { db, noted in
                let transaction = Transaction(db: db)
                return try body(noted.map { NotingFriendsWriting(transaction, noting: $0) } ?? transaction)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A constraint refusing a write is a refusal with its reason, not a broken store.
            throw FriendsDataError.refused(error.message ?? "a constraint of the store")
        }
    }

    public func friendIDs(of userID: String, among ids: [String]) async throws -> Set<String> {
        try database.read { db in try Transaction(db: db).friendIDs(of: userID, among: ids) }
    }
}

/// The store's operations inside one GRDB transaction.
private struct Transaction: FriendsWriting {
    let db: Database

    func friendships(of userID: String) throws -> [FriendshipRecord] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM friendship WHERE user_id = ?"), arguments: [userID]).map { row in
            FriendshipRecord(userID: row["user_id"], friendID: row["friend_id"], since: row["since"])
        }
    }

    func isFriend(_ userID: String, _ friendID: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM friendship WHERE user_id = ? AND friend_id = ?)"),
            arguments: [userID, friendID]
        ) ?? false
    }

    func contacts(ownerID: String) throws -> [ContactRecord] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM contact WHERE owner_id = ? AND removed = 0"), arguments: [ownerID])
            .map(ContactRecord.init(row:))
    }

    func contact(id: String) throws -> ContactRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM contact WHERE id = ?"), arguments: [id]).map(ContactRecord.init(row:))
    }

    func contacts(emailKey: String) throws -> [ContactRecord] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM contact WHERE email_key = ? AND removed = 0 AND linked_to IS NULL"),
            arguments: [emailKey]
        ).map(ContactRecord.init(row:))
    }

    func requests(from userID: String) throws -> [FriendRequestRecord] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM friend_request WHERE from_id = ?"), arguments: [userID]).map(FriendRequestRecord.init(row:))
    }

    func requests(to userID: String) throws -> [FriendRequestRecord] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM friend_request WHERE to_id = ? ORDER BY from_id"), arguments: [userID])
            .map(FriendRequestRecord.init(row:))
    }

    func request(from fromID: String, to toID: String) throws -> FriendRequestRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM friend_request WHERE from_id = ? AND to_id = ?"), arguments: [fromID, toID])
            .map(FriendRequestRecord.init(row:))
    }

    func blocks(by userID: String) throws -> [BlockRecord] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM friend_block WHERE user_id = ?"), arguments: [userID]).map { row in
            BlockRecord(userID: row["user_id"], blockedID: row["blocked_id"], since: row["since"])
        }
    }

    func blocked(among ids: [String], for userID: String) throws -> Set<String> {
        let statement = try db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM friend_block WHERE user_id = ?1 AND blocked_id = ?2)
                OR EXISTS (SELECT 1 FROM friend_block WHERE user_id = ?2 AND blocked_id = ?1)
            """)
        return Set(try ids.filter { try Bool.fetchOne(statement, arguments: [userID, $0]) ?? false })
    }

    func isClaimDeclined(contactID: String, accountID: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM friend_claim_declined WHERE contact_id = ? AND account_id = ?)"),
            arguments: [contactID, accountID]
        ) ?? false
    }

    func declineClaim(contactID: String, accountID: String) throws {
        try db.cachedStatement(sql: "INSERT INTO friend_claim_declined (contact_id, account_id) VALUES (?, ?) ON CONFLICT DO NOTHING")
            .execute(arguments: [contactID, accountID])
    }

    func friendIDs(of userID: String, among ids: [String]) throws -> Set<String> {
        let statement = try db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM friendship WHERE user_id = ?1 AND friend_id = ?2)
                OR EXISTS (SELECT 1 FROM contact WHERE id = ?2 AND owner_id = ?1 AND removed = 0 AND linked_to IS NULL)
            """)
        return Set(try ids.filter { try Bool.fetchOne(statement, arguments: [userID, $0]) ?? false })
    }

    func befriend(_ userID: String, _ friendID: String, since: Double) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO friendship (user_id, friend_id, since) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
        try statement.execute(arguments: [userID, friendID, since])
        try statement.execute(arguments: [friendID, userID, since])
    }

    func unfriend(_ userID: String, _ friendID: String) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM friendship WHERE user_id = ? AND friend_id = ?")
        try statement.execute(arguments: [userID, friendID])
        try statement.execute(arguments: [friendID, userID])
    }

    func insert(_ contact: ContactRecord) throws {
        try db.cachedStatement(sql: """
            INSERT INTO contact (id, owner_id, name, email, email_key, created_at, linked_to, removed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                contact.id, contact.ownerID, contact.name, contact.email, contact.emailKey, contact.createdAt, contact.linkedTo, contact.removed,
            ])
    }

    func setLinkedTo(_ accountID: String?, contactID: String) throws {
        try db.cachedStatement(sql: "UPDATE contact SET linked_to = ? WHERE id = ?").execute(arguments: [accountID, contactID])
    }

    func setName(_ name: String, contactID: String) throws {
        try db.cachedStatement(sql: "UPDATE contact SET name = ? WHERE id = ?").execute(arguments: [name, contactID])
    }

    func setRemoved(contactID: String) throws {
        try db.cachedStatement(sql: "UPDATE contact SET removed = 1 WHERE id = ?").execute(arguments: [contactID])
    }

    func deleteContact(id: String) throws {
        try db.cachedStatement(sql: "DELETE FROM contact WHERE id = ?").execute(arguments: [id])
    }

    func insert(_ request: FriendRequestRecord) throws {
        try db.cachedStatement(sql: """
            INSERT INTO friend_request (from_id, to_id, sent_at, contact_id) VALUES (?, ?, ?, ?)
            ON CONFLICT (from_id, to_id) DO UPDATE SET sent_at = excluded.sent_at, contact_id = excluded.contact_id
            """).execute(arguments: [request.fromID, request.toID, request.sentAt, request.contactID])
    }

    func deleteRequests(between userID: String, and otherID: String) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM friend_request WHERE from_id = ? AND to_id = ?")
        try statement.execute(arguments: [userID, otherID])
        try statement.execute(arguments: [otherID, userID])
    }

    func insert(_ block: BlockRecord) throws {
        try db.cachedStatement(sql: "INSERT INTO friend_block (user_id, blocked_id, since) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
            .execute(arguments: [block.userID, block.blockedID, block.since])
    }

    func deleteBlock(of blockedID: String, by userID: String) throws {
        try db.cachedStatement(sql: "DELETE FROM friend_block WHERE user_id = ? AND blocked_id = ?").execute(arguments: [userID, blockedID])
    }
}

extension ContactRecord {
    fileprivate init(row: Row) {
        self.init(
            id: row["id"], ownerID: row["owner_id"], name: row["name"], email: row["email"], emailKey: row["email_key"],
            createdAt: row["created_at"], linkedTo: row["linked_to"], removed: row["removed"]
        )
    }
}

extension FriendRequestRecord {
    fileprivate init(row: Row) {
        self.init(fromID: row["from_id"], toID: row["to_id"], sentAt: row["sent_at"], contactID: row["contact_id"])
    }
}
