import Foundation
import GRDB
import LocalStore
import Testing

/// In-memory stores: each starts as its migrated template, whatever store came before it on the
/// same connection, and a snapshot puts every row back.
@Suite("In-memory stores and snapshots")
struct InMemoryStoreTests {
    /// A schema of its own per test (the connections kept between stores are kept per schema):
    /// a parent and a child table, a table numbered by its hidden rowid, one by an INTEGER
    /// PRIMARY KEY, one by AUTOINCREMENT, one without rowid, one with a generated column, and a
    /// trigger that only refuses rows. `extra` adds to it.
    private func store(_ name: String, extra: String = "") -> LocalDatabase {
        LocalDatabase(.memory) { migrator in
            migrator.registerMigration("in-memory-store-tests.\(name)") { db in
                try db.execute(sql: """
                    CREATE TABLE parent (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parent(id) ON DELETE CASCADE);
                    CREATE TABLE note (text TEXT NOT NULL);
                    CREATE TABLE numbered (seq INTEGER PRIMARY KEY, text TEXT NOT NULL);
                    CREATE TABLE counted (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL);
                    CREATE TABLE kv (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID;
                    CREATE TABLE doubled (a INTEGER NOT NULL, b INTEGER GENERATED ALWAYS AS (a * 2));
                    CREATE TRIGGER parent_named BEFORE INSERT ON parent WHEN new.name = '' BEGIN SELECT RAISE(ABORT, 'a name'); END;
                    \(extra)
                    """)
            }
        }
    }

    private func rowids(_ database: LocalDatabase, _ table: String) throws -> [Int64] {
        try database.read { try Int64.fetchAll($0, sql: "SELECT rowid FROM \(table) ORDER BY rowid") }
    }

    @Test("a restore puts back every row of every table, rowids included, and nothing else")
    func restore() throws {
        let database = store("restore")
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO parent VALUES ('p1', 'Ada'), ('p2', 'Bob');
                INSERT INTO child VALUES ('c1', 'p1'), ('c2', 'p2');
                INSERT INTO note VALUES ('first'), ('second'), ('third');
                DELETE FROM note WHERE text = 'first';
                INSERT INTO numbered (seq, text) VALUES (7, 'seven');
                INSERT INTO kv VALUES ('k', x'00ff');
                INSERT INTO counted (text) VALUES ('a'), ('b'), ('c');
                DELETE FROM counted WHERE text = 'c';
                INSERT INTO doubled (a) VALUES (21);
                """)
        }
        let snapshot = try database.snapshot()
        let before = try database.contents()
        #expect(before.contains("21 | 42"))
        #expect(snapshot.rowCount == 2 + 2 + 2 + 1 + 1 + 2 + 1 + 1)  // the migration's own row too
        try database.write { db in
            try db.execute(sql: """
                DELETE FROM parent WHERE id = 'p1';
                INSERT INTO parent VALUES ('p3', 'Cy');
                INSERT INTO child VALUES ('c3', 'p3');
                DELETE FROM note;
                INSERT INTO note VALUES ('other');
                UPDATE numbered SET text = 'changed';
                INSERT INTO kv VALUES ('k2', NULL);
                INSERT INTO counted (text) VALUES ('d'), ('e');
                DELETE FROM doubled;
                """)
        }
        #expect(try database.contents() != before)

        try database.restore(snapshot)
        #expect(try database.contents() == before)
        #expect(try rowids(database, "note") == [2, 3])
        // A store that holds the snapshot's rows still is left as it is.
        let count = try database.changeCount()
        try database.restore(snapshot)
        #expect(try database.changeCount() == count)
        // Written to again, it is put back again.
        try database.write { try $0.execute(sql: "DELETE FROM child; INSERT INTO note VALUES ('more')") }
        try database.restore(snapshot)
        #expect(try database.contents() == before)
        // Another store of the schema, opened by the restore, holds the same rows.
        let other = store("restore")
        try other.restore(snapshot)
        #expect(try other.contents() == before)
        // What is written next is numbered as it would have been in the store the snapshot was
        // taken of.
        try database.write {
            try $0.execute(sql: "INSERT INTO note VALUES ('fourth'); INSERT INTO numbered (text) VALUES ('eight'); INSERT INTO counted (text) VALUES ('f')")
        }
        #expect(try rowids(database, "note") == [2, 3, 4])
        #expect(try rowids(database, "numbered") == [7, 8])
        // AUTOINCREMENT goes on from the snapshot's counter, not from the rows (3 was deleted).
        #expect(try rowids(database, "counted") == [1, 2, 4])
        // Foreign keys hold after a restore.
        #expect(throws: (any Error).self) { try database.write { try $0.execute(sql: "INSERT INTO child VALUES ('c9', 'nobody')") } }
    }

    @Test("a restore refuses a store of another schema, and leaves it as it was")
    func otherSchema() throws {
        let database = store("other-schema")
        try database.write { try $0.execute(sql: "INSERT INTO parent VALUES ('p1', 'Ada')") }
        let snapshot = try database.snapshot()
        let other = LocalDatabase(.memory) { migrator in
            migrator.registerMigration("in-memory-store-tests.other") { db in
                try db.execute(sql: "CREATE TABLE parent (id TEXT PRIMARY KEY, name TEXT NOT NULL, extra TEXT)")
            }
        }
        try other.write { try $0.execute(sql: "INSERT INTO parent VALUES ('p9', 'Dee', NULL)") }
        let contents = try other.contents()
        #expect(throws: (any Error).self) { try other.restore(snapshot) }
        #expect(try other.contents() == contents)
    }

    @Test("a restore that would make a trigger write is refused, and a read that writes is rolled back")
    func writingTriggers() throws {
        let database = store("writing-trigger", extra: """
            CREATE TABLE log (id TEXT NOT NULL);
            CREATE TRIGGER parent_logged AFTER INSERT ON parent BEGIN INSERT INTO log VALUES (new.id); END;
            """)
        try database.write { try $0.execute(sql: "INSERT INTO parent VALUES ('p1', 'Ada')") }
        let snapshot = try database.snapshot()
        try database.write { try $0.execute(sql: "INSERT INTO parent VALUES ('p2', 'Bob')") }
        let contents = try database.contents()
        #expect(throws: (any Error).self) { try database.restore(snapshot) }
        #expect(try database.contents() == contents)

        #expect(throws: (any Error).self) { try database.read { try $0.execute(sql: "INSERT INTO note VALUES ('sneaked')") } }
        #expect(try !database.contents().contains("sneaked"))
    }

    @Test("a new in-memory store starts as its template, whatever the store before it held")
    func freshEachTime() throws {
        let empty = try store("fresh").contents()
        #expect(empty.contains("[note]\n[numbered]"))
        weak var last: DatabaseQueue?
        for round in 0..<4 {
            let database = store("fresh")
            // The connection the last store left, kept prepared, is the next one's.
            if round > 0 {
                #expect(last != nil)
                #expect(try database.writer() === last)
            }
            last = try database.writer()
            #expect(try database.contents() == empty, "round \(round)")
            try database.write { db in
                try db.execute(sql: "INSERT INTO parent VALUES ('p\(round)', 'Ada'); INSERT INTO note VALUES ('n'); INSERT INTO kv VALUES ('k', 1)")
            }
            #expect(try database.contents() != empty)
        }
    }

    @Test("a connection whose schema changed, or that is still held, goes to no other store")
    func notHandedOn() throws {
        do {
            let changed = store("not-handed-on")
            try changed.writer().write { try $0.execute(sql: "CREATE TABLE extra (x)") }
        }
        #expect(try !store("not-handed-on").contents().contains("[extra]"))

        let held: DatabaseQueue
        do {
            let kept = store("not-handed-on")
            held = try kept.writer()
        }
        let next = store("not-handed-on")
        #expect(try next.writer() !== held)
        try held.write { try $0.execute(sql: "INSERT INTO note VALUES ('still mine')") }
        #expect(try !next.contents().contains("still mine"))
    }
}
