import Foundation
import GRDB
import Synchronization

/// Every row of every table of a store, as values: what ``LocalDatabase/restore(_:)`` puts back
/// into a store of the same schema, without touching the schema. A connection that is restored
/// keeps its prepared statements, where a copy of the database (SQLite's backup) would make it
/// prepare every one again.
///
/// Rows keep their rowids (where a table has them), and AUTOINCREMENT counters are put back
/// too, so what is inserted after a restore is numbered as it would have been in the store the
/// snapshot was taken of. Generated columns are left to SQLite. A restore that makes a trigger
/// write (a trigger that only refuses rows is fine) is refused: it would not put back the rows
/// as they were.
public struct StoreSnapshot: Sendable {
    struct Table: Sendable {
        /// `DELETE FROM` the table, and `INSERT INTO` it with a place for each column read
        /// (`rowid` first where the table has one).
        var delete: String
        var insert: String
        var rows: [StatementArguments]
    }

    /// Each table after the tables its foreign keys name: the order rows go back in (and are
    /// deleted in reverse).
    var tables: [Table]
    /// The AUTOINCREMENT counters (`sqlite_sequence`), put back once every table is, since
    /// inserting into those tables moves them.
    var sequences: Table?
    /// The schema the rows fit: the text of every table, index, view and trigger.
    var schema: String
    /// Which snapshot this is, in the process: a store put back from it and not written to
    /// since holds its rows already.
    let id: UInt64

    private static let taken = Atomic<UInt64>(0)

    /// How many rows the snapshot holds.
    public var rowCount: Int { tables.reduce(0) { $0 + $1.rows.count } }

    /// Reads every row of `db`'s main schema.
    init(_ db: Database) throws {
        id = Self.taken.add(1, ordering: .relaxed).newValue
        schema = try Self.schema(of: db)
        let listed = try Row.fetchAll(db, sql: """
            SELECT name, wr FROM pragma_table_list
            WHERE schema = 'main' AND type = 'table' AND substr(name, 1, 7) != 'sqlite_'
            ORDER BY name
            """)
        var parents: [String: Set<String>] = [:]
        var rowids: [String: Bool] = [:]
        for table in listed {
            let name: String = table[0]
            let withoutRowid: Bool = table[1]
            rowids[name] = !withoutRowid
            parents[name] = Set(try String.fetchAll(db, sql: "SELECT \"table\" FROM pragma_foreign_key_list(?)", arguments: [name]))
                .subtracting([name])
        }
        tables = try Self.parentsFirst(parents).map { name in
            // The columns a row is written with: not generated ones (hidden 2 and 3), and the
            // rowid too, unless a column of its own is called that.
            var columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid", arguments: [name])
            if rowids[name] == true, !columns.contains(where: { $0.lowercased() == "rowid" }) { columns.insert("rowid", at: 0) }
            return try Self.table(name, columns: columns, in: db)
        }
        let hasSequences = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'sqlite_sequence'") ?? false
        sequences = hasSequences ? try Self.table("sqlite_sequence", columns: ["name", "seq"], in: db) : nil
    }

    /// The rows of `name`, read by `columns`, and the statements that put them back.
    private static func table(_ name: String, columns: [String], in db: Database) throws -> Table {
        let quoted = Self.quoted(name)
        let list = columns.map(Self.quoted).joined(separator: ", ")
        let rows = try Row.fetchAll(db, sql: "SELECT \(list) FROM \(quoted)").map { StatementArguments(Array($0.databaseValues)) }
        let places = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return Table(delete: "DELETE FROM \(quoted)", insert: "INSERT INTO \(quoted) (\(list)) VALUES (\(places))", rows: rows)
    }

    /// Table names with every table after its parents; tables in a cycle of foreign keys (none
    /// in the app's schema) come last, by name.
    static func parentsFirst(_ parents: [String: Set<String>]) -> [String] {
        var order: [String] = []
        var placed: Set<String> = []
        var remaining = parents.keys.sorted()
        while !remaining.isEmpty {
            let ready = remaining.filter { parents[$0, default: []].subtracting(placed).allSatisfy { parents[$0] == nil } }
            guard !ready.isEmpty else {
                order += remaining
                break
            }
            order += ready
            placed.formUnion(ready)
            remaining.removeAll { placed.contains($0) }
        }
        return order
    }

    /// Replaces every row of `db` with the snapshot's, inside the caller's transaction; the
    /// caller has made sure the schema is the snapshot's.
    func restore(into db: Database) throws {
        // Every row a statement of the restore changes itself, against every row changed: the
        // difference is what triggers wrote.
        let before = db.totalChangesCount
        var own = 0
        func run(_ statement: Statement) throws {
            try statement.execute()
            own += db.changesCount
        }
        func insert(_ table: Table) throws {
            guard !table.rows.isEmpty else { return }
            let insert = try db.cachedStatement(sql: table.insert)
            for row in table.rows {
                insert.setUncheckedArguments(row)
                try run(insert)
            }
        }
        for table in tables.reversed() { try run(db.cachedStatement(sql: table.delete)) }
        for table in tables { try insert(table) }
        // The counters last: inserting into their tables has just moved them.
        if let sequences {
            try run(db.cachedStatement(sql: sequences.delete))
            try insert(sequences)
        }
        guard db.totalChangesCount - before == own else {
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "a trigger wrote while the store's rows were put back")
        }
    }

    /// The text of every table, index, view and trigger of `db`'s main schema.
    static func schema(of db: Database) throws -> String {
        try String.fetchAll(db.cachedStatement(sql: "SELECT type || ' ' || name || ' ' || ifnull(sql, '') FROM sqlite_master ORDER BY type, name"))
            .joined(separator: "\n")
    }

    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
