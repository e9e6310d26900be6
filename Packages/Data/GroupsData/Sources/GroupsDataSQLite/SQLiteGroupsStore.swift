import DataChanges
import DataChangesSQLite
import GRDB
import GroupsData
import LocalStore

/// The Groups store on the embedded SQLite database.
public struct SQLiteGroupsStore: GroupsStore {
    private let database: LocalDatabase
    private let groupsChanged: PeopleChanged?

    /// - Parameter groupsChanged: told after each write whose groups it changed.
    public init(database: LocalDatabase, groupsChanged: PeopleChanged? = nil) {
        self.database = database
        self.groupsChanged = groupsChanged
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any GroupsReading) throws -> T) async throws -> T {
        try database.read { db in try body(Transaction(db: db)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any GroupsWriting) throws -> T) async throws -> T {
        do {
            return try await database.write(telling: groupsChanged) { db, noted in
                let transaction = Transaction(db: db)
                return try body(noted.map { NotingGroupsWriting(transaction, noting: $0) } ?? transaction)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A constraint refusing a write is a refusal with its reason, not a broken store.
            throw GroupsDataError.refused(error.message ?? "a constraint of the store")
        }
    }
}

/// The store's operations inside one GRDB transaction.
private struct Transaction: GroupsWriting {
    let db: Database

    func group(id: String) throws -> GroupRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM group_ WHERE id = ?"), arguments: [id]).map { row in
            GroupRecord(
                id: row["id"], name: row["name"], kind: row["kind"], currency: row["currency"], simplifyDebts: row["simplify_debts"],
                archived: row["archived"], createdBy: row["created_by"], createdAt: row["created_at"]
            )
        }
    }

    func members(of group: String) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT user_id FROM group_member WHERE group_id = ? ORDER BY position"), arguments: [group])
    }

    func groupIDs(of user: String) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT group_id FROM group_member WHERE user_id = ? ORDER BY group_id"), arguments: [user])
    }

    func members(of group: String, among users: [String]) throws -> Set<String> {
        let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM group_member WHERE group_id = ? AND user_id = ?)")
        return Set(try users.filter { try Bool.fetchOne(statement, arguments: [group, $0]) ?? false })
    }

    func insert(_ group: GroupRecord) throws {
        try db.cachedStatement(sql: """
            INSERT INTO group_ (id, name, kind, currency, simplify_debts, archived, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                group.id, group.name, group.kind, group.currency, group.simplifyDebts, group.archived, group.createdBy, group.createdAt,
            ])
    }

    func update(_ group: GroupRecord) throws {
        try db.cachedStatement(sql: "UPDATE group_ SET name = ?, kind = ?, currency = ?, simplify_debts = ?, archived = ? WHERE id = ?")
            .execute(arguments: [group.name, group.kind, group.currency, group.simplifyDebts, group.archived, group.id])
    }

    func addMember(_ user: String, to group: String, at: Double) throws {
        try db.cachedStatement(sql: """
            INSERT INTO group_member (group_id, user_id, position, added_at)
            SELECT ?1, ?2, coalesce(max(position) + 1, 0), ?3 FROM group_member WHERE group_id = ?1
            ON CONFLICT DO NOTHING
            """).execute(arguments: [group, user, at])
    }

    func removeMember(_ user: String, from group: String) throws {
        try db.cachedStatement(sql: "DELETE FROM group_member WHERE group_id = ? AND user_id = ?").execute(arguments: [group, user])
    }

    func renameMember(from: String, to: String) throws {
        try db.execute(sql: """
            UPDATE OR IGNORE group_member SET user_id = :to WHERE user_id = :from;
            DELETE FROM group_member WHERE user_id = :from;
            UPDATE group_ SET created_by = :to WHERE created_by = :from;
            """, arguments: ["from": from, "to": to])
    }
}
