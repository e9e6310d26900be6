import DataChanges
import DataChangesPostgres
import FriendsData
import PostgresStore

/// The Friends store on a PostgreSQL database (the server's), with the same rules and orders as
/// the SQLite one: a constraint refusing a write is ``FriendsDataError/refused(_:)``.
///
/// Whom users may name (``friendIDs(of:among:)``, asked before every expense is added and
/// whenever accounts are shown) is read for all who ask at once in one statement
/// (``Gathering``).
public struct PostgresFriendsStore: FriendsStore {
    private let database: ServerDatabase
    private let namable: Gathering<Question, Set<String>>
    private let friendshipsChanged: PeopleChanged?

    /// - Parameters:
    ///   - readers: how many statements answering whom users may name run at once.
    ///   - friendshipsChanged: told after each write whose friendships, requests or blocks it
    ///     changed.
    public init(database: ServerDatabase, readers: Int = 2, friendshipsChanged: PeopleChanged? = nil) {
        self.database = database
        self.friendshipsChanged = friendshipsChanged
        namable = Gathering(servers: readers, limit: .init(count: Question.largestBatch, budget: Question.idBudget, cost: \.ids.count)) { questions in
            do {
                let pairs = try await database.read { try Transaction(db: $0).namable(questions) }
                return questions.map { question in .success(Set(question.ids.filter { pairs.contains(Pair(owner: question.userID, id: $0)) })) }
            } catch {
                return questions.map { _ in .failure(error) }
            }
        }
    }

    public func friendIDs(of userID: String, among ids: [String]) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        return try await namable.ask(Question(userID: userID, ids: ids))
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any FriendsReading) throws -> T) async throws -> T {
        try await database.read { try body(Transaction(db: $0)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any FriendsWriting) throws -> T) async throws -> T {
        do {
            return try await database.write(telling: friendshipsChanged) { db, noted in
                try body(NotingFriendsWriting(Transaction(db: db), noting: noted))
            }
        } catch ServerDatabaseError.constraint(let violation) {
            // A constraint refusing a write is a refusal with its reason, not a broken store.
            throw FriendsDataError.refused(violation.message)
        }
    }
}

/// Whom a user asks about naming.
private struct Question: Sendable {
    /// The most questions one statement answers.
    static let largestBatch = 256
    /// The most ids one statement asks about, unless a single question has more.
    static let idBudget = 10_000

    let userID: String
    let ids: [String]
}

/// A user, and someone they may name.
private struct Pair: Hashable {
    let owner: String
    let id: String
}

/// The store's operations inside one transaction. Lists come in the order of their keys, as
/// SQLite's tables without row ids give them.
private struct Transaction: FriendsWriting {
    let db: ServerTransaction

    private static let contactColumns = "id, owner_id, name, email, email_key, created_at, linked_to, removed"

    func friendships(of userID: String) throws -> [FriendshipRecord] {
        try db.rows("SELECT user_id, friend_id, since FROM friendship WHERE user_id = $1 ORDER BY friend_id", [userID]).map { row in
            FriendshipRecord(userID: try row.text(0), friendID: try row.text(1), since: try row.real(2))
        }
    }

    func isFriend(_ userID: String, _ friendID: String) throws -> Bool {
        try db.row("SELECT 1 FROM friendship WHERE user_id = $1 AND friend_id = $2", [userID, friendID]) != nil
    }

    func contacts(ownerID: String) throws -> [ContactRecord] {
        try db.rows("SELECT \(Self.contactColumns) FROM contact WHERE owner_id = $1 AND NOT removed ORDER BY id", [ownerID])
            .map(ContactRecord.init(row:))
    }

    func contact(id: String) throws -> ContactRecord? {
        try db.row("SELECT \(Self.contactColumns) FROM contact WHERE id = $1", [id]).map(ContactRecord.init(row:))
    }

    func contacts(emailKey: String) throws -> [ContactRecord] {
        try db.rows(
            "SELECT \(Self.contactColumns) FROM contact WHERE email_key = $1 AND NOT removed AND linked_to IS NULL ORDER BY id", [emailKey]
        ).map(ContactRecord.init(row:))
    }

    func requests(from userID: String) throws -> [FriendRequestRecord] {
        try db.rows("SELECT from_id, to_id, sent_at, contact_id FROM friend_request WHERE from_id = $1 ORDER BY to_id", [userID])
            .map(FriendRequestRecord.init(row:))
    }

    func requests(to userID: String) throws -> [FriendRequestRecord] {
        try db.rows("SELECT from_id, to_id, sent_at, contact_id FROM friend_request WHERE to_id = $1 ORDER BY from_id", [userID])
            .map(FriendRequestRecord.init(row:))
    }

    func request(from fromID: String, to toID: String) throws -> FriendRequestRecord? {
        try db.row("SELECT from_id, to_id, sent_at, contact_id FROM friend_request WHERE from_id = $1 AND to_id = $2", [fromID, toID])
            .map(FriendRequestRecord.init(row:))
    }

    func blocks(by userID: String) throws -> [BlockRecord] {
        try db.rows("SELECT user_id, blocked_id, since FROM friend_block WHERE user_id = $1 ORDER BY blocked_id", [userID]).map { row in
            BlockRecord(userID: try row.text(0), blockedID: try row.text(1), since: try row.real(2))
        }
    }

    func blocked(among ids: [String], for userID: String) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        return Set(try db.rows("""
            SELECT q.id FROM unnest($1::text[]) AS q (id)
            WHERE EXISTS (SELECT 1 FROM friend_block WHERE user_id = $2 AND blocked_id = q.id)
               OR EXISTS (SELECT 1 FROM friend_block WHERE user_id = q.id AND blocked_id = $2)
            """, [ids, userID]).map { try $0.text(0) })
    }

    func isClaimDeclined(contactID: String, accountID: String) throws -> Bool {
        try db.row("SELECT 1 FROM friend_claim_declined WHERE contact_id = $1 AND account_id = $2", [contactID, accountID]) != nil
    }

    func declineClaim(contactID: String, accountID: String) throws {
        try db.execute(
            "INSERT INTO friend_claim_declined (contact_id, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [contactID, accountID]
        )
    }

    /// The pairs of `questions` where the user may name the other: friends, or their own
    /// contact (not removed, not being linked). One statement for all of them.
    func namable(_ questions: [Question]) throws -> Set<Pair> {
        var owners: [String] = []
        var ids: [String] = []
        for question in questions {
            for id in question.ids {
                owners.append(question.userID)
                ids.append(id)
            }
        }
        return Set(try db.rows("""
            SELECT q.owner, q.id FROM unnest($1::text[], $2::text[]) AS q (owner, id)
            WHERE EXISTS (SELECT 1 FROM friendship WHERE user_id = q.owner AND friend_id = q.id)
               OR EXISTS (SELECT 1 FROM contact WHERE id = q.id AND owner_id = q.owner AND NOT removed AND linked_to IS NULL)
            """, [owners, ids]).map { Pair(owner: try $0.text(0), id: try $0.text(1)) })
    }

    func befriend(_ userID: String, _ friendID: String, since: Double) throws {
        try db.execute(
            "INSERT INTO friendship (user_id, friend_id, since) VALUES ($1, $2, $3), ($2, $1, $3) ON CONFLICT DO NOTHING",
            [userID, friendID, since]
        )
    }

    func unfriend(_ userID: String, _ friendID: String) throws {
        try db.execute(
            "DELETE FROM friendship WHERE (user_id = $1 AND friend_id = $2) OR (user_id = $2 AND friend_id = $1)", [userID, friendID]
        )
    }

    func insert(_ contact: ContactRecord) throws {
        try db.execute(
            "INSERT INTO contact (\(Self.contactColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [contact.id, contact.ownerID, contact.name, contact.email, contact.emailKey, contact.createdAt, contact.linkedTo, contact.removed]
        )
    }

    func setLinkedTo(_ accountID: String?, contactID: String) throws {
        try db.execute("UPDATE contact SET linked_to = $1 WHERE id = $2", [accountID, contactID])
    }

    func setName(_ name: String, contactID: String) throws {
        try db.execute("UPDATE contact SET name = $1 WHERE id = $2", [name, contactID])
    }

    func setRemoved(contactID: String) throws {
        try db.execute("UPDATE contact SET removed = true WHERE id = $1", [contactID])
    }

    func deleteContact(id: String) throws {
        try db.execute("DELETE FROM contact WHERE id = $1", [id])
    }

    func insert(_ request: FriendRequestRecord) throws {
        try db.execute("""
            INSERT INTO friend_request (from_id, to_id, sent_at, contact_id) VALUES ($1, $2, $3, $4)
            ON CONFLICT (from_id, to_id) DO UPDATE SET sent_at = excluded.sent_at, contact_id = excluded.contact_id
            """, [request.fromID, request.toID, request.sentAt, request.contactID])
    }

    func deleteRequests(between userID: String, and otherID: String) throws {
        try db.execute(
            "DELETE FROM friend_request WHERE (from_id = $1 AND to_id = $2) OR (from_id = $2 AND to_id = $1)", [userID, otherID]
        )
    }

    func insert(_ block: BlockRecord) throws {
        try db.execute(
            "INSERT INTO friend_block (user_id, blocked_id, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [block.userID, block.blockedID, block.since]
        )
    }

    func deleteBlock(of blockedID: String, by userID: String) throws {
        try db.execute("DELETE FROM friend_block WHERE user_id = $1 AND blocked_id = $2", [userID, blockedID])
    }
}

extension ContactRecord {
    fileprivate init(row: SQLRow) throws {
        self.init(
            id: try row.text(0), ownerID: try row.text(1), name: try row.text(2), email: try row.optionalText(3),
            emailKey: try row.optionalText(4), createdAt: try row.real(5), linkedTo: try row.optionalText(6), removed: try row.boolean(7)
        )
    }
}

extension FriendRequestRecord {
    fileprivate init(row: SQLRow) throws {
        self.init(fromID: try row.text(0), toID: try row.text(1), sentAt: try row.real(2), contactID: try row.optionalText(3))
    }
}
