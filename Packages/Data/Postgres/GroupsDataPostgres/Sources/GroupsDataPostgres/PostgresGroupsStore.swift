import DataChanges
import DataChangesPostgres
import GroupsData
import PostgresStore

/// The Groups store on a PostgreSQL database (the server's), with the same rules and orders as
/// the SQLite one: a constraint refusing a write is ``GroupsDataError/refused(_:)``.
public struct PostgresGroupsStore: GroupsStore {
    private let database: ServerDatabase
    private let groupsChanged: PeopleChanged?

    /// - Parameter groupsChanged: told after each write whose groups it changed.
    public init(database: ServerDatabase, groupsChanged: PeopleChanged? = nil) {
        self.database = database
        self.groupsChanged = groupsChanged
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any GroupsReading) throws -> T) async throws -> T {
        try await database.read { try body(Transaction(db: $0)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any GroupsWriting) throws -> T) async throws -> T {
        do {
            return try await database.write(telling: groupsChanged) { db, noted in
                try body(NotingGroupsWriting(Transaction(db: db), noting: noted))
            }
        } catch ServerDatabaseError.constraint(let violation) {
            // A constraint refusing a write is a refusal with its reason, not a broken store.
            throw GroupsDataError.refused(violation.message)
        }
    }
}

/// The store's operations inside one transaction.
private struct Transaction: GroupsWriting {
    let db: ServerTransaction

    func group(id: String) throws -> GroupRecord? {
        try db.row(
            "SELECT id, name, kind, currency, simplify_debts, archived, created_by, created_at FROM group_ WHERE id = $1", [id]
        ).map { row in
            GroupRecord(
                id: try row.text(0), name: try row.text(1), kind: try row.text(2), currency: try row.text(3),
                simplifyDebts: try row.boolean(4), archived: try row.boolean(5), createdBy: try row.text(6), createdAt: try row.real(7)
            )
        }
    }

    func members(of group: String) throws -> [String] {
        try db.rows("SELECT user_id FROM group_member WHERE group_id = $1 ORDER BY position", [group]).map { try $0.text(0) }
    }

    func groupIDs(of user: String) throws -> [String] {
        try db.rows("SELECT group_id FROM group_member WHERE user_id = $1 ORDER BY group_id", [user]).map { try $0.text(0) }
    }

    func members(of group: String, among users: [String]) throws -> Set<String> {
        guard !users.isEmpty else { return [] }
        return Set(try db.rows("SELECT user_id FROM group_member WHERE group_id = $1 AND user_id = ANY($2)", [group, users]).map { try $0.text(0) })
    }

    func insert(_ group: GroupRecord) throws {
        try db.execute(
            """
            INSERT INTO group_ (id, name, kind, currency, simplify_debts, archived, created_by, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """,
            [group.id, group.name, group.kind, group.currency, group.simplifyDebts, group.archived, group.createdBy, group.createdAt]
        )
    }

    func update(_ group: GroupRecord) throws {
        try db.execute(
            "UPDATE group_ SET name = $2, kind = $3, currency = $4, simplify_debts = $5, archived = $6 WHERE id = $1",
            [group.id, group.name, group.kind, group.currency, group.simplifyDebts, group.archived]
        )
    }

    func addMember(_ user: String, to group: String, at: Double) throws {
        // Two members added at once take the same place: the second fails to serialize (or
        // breaks the unique place), and its write runs again after the first.
        try db.execute(
            """
            INSERT INTO group_member (group_id, user_id, position, added_at)
            SELECT $1, $2, coalesce(max(position) + 1, 0), $3 FROM group_member WHERE group_id = $1
            ON CONFLICT (group_id, user_id) DO NOTHING
            """,
            [group, user, at]
        )
    }

    func removeMember(_ user: String, from group: String) throws {
        try db.execute("DELETE FROM group_member WHERE group_id = $1 AND user_id = $2", [group, user])
    }

    func renameMember(from: String, to: String) throws {
        try db.execute(
            """
            UPDATE group_member SET user_id = $2 WHERE user_id = $1 AND NOT EXISTS (
                SELECT 1 FROM group_member AS kept WHERE kept.group_id = group_member.group_id AND kept.user_id = $2
            )
            """,
            [from, to]
        )
        try db.execute("DELETE FROM group_member WHERE user_id = $1", [from])
        try db.execute("UPDATE group_ SET created_by = $2 WHERE created_by = $1", [from, to])
    }
}
