import Foundation
import GRDB
import Synchronization

/// The embedded SQLite store, opened on first use and migrated to the current schema.
///
/// Opening is lazy so that a command which never touches the store (showing a first screen,
/// `--help`) never pays for it. Every area registers its own versioned migrations.
public final class LocalDatabase: Sendable {
    /// Where the database lives.
    public enum Place: Sendable, Equatable {
        case file(URL)
        /// A private in-memory database of the same implementation, for tests.
        case memory
    }

    private let place: Place
    private let registerMigrations: @Sendable (inout DatabaseMigrator) -> Void
    /// The migrations, registered on first use: a command that never opens the store (a first
    /// screen) does not pay for them.
    private let registered = Mutex<DatabaseMigrator?>(nil)
    /// The database once it opened. A failure is not kept: the next use tries again, so a store
    /// that becomes readable (a folder fixed, a disk mounted) is picked up by "Try again".
    private let opened = Mutex<Connection?>(nil)

    /// Whether the stores on this database write a change log in each write's transaction: a
    /// server's store does (its users pull from it, docs/sync.md); a person's own store does not.
    public let keepsChangeLog: Bool

    /// - Parameters:
    ///   - migrations: registers every area's migrations, in order.
    ///   - keepsChangeLog: whether the stores write a change log (a server's store).
    public init(_ place: Place, migrations: @escaping @Sendable (inout DatabaseMigrator) -> Void, keepsChangeLog: Bool = false) {
        self.place = place
        registerMigrations = migrations
        self.keepsChangeLog = keepsChangeLog
    }

    /// Every migration, registered.
    private var migrator: DatabaseMigrator {
        registered.withLock { registered in
            if let registered { return registered }
            var migrator = DatabaseMigrator()
            registerMigrations(&migrator)
            registered = migrator
            return migrator
        }
    }

    /// The open, migrated database; opens it on first use, and again after a failed attempt.
    public func writer() throws(LocalStoreError) -> DatabaseQueue {
        try connection(rows: nil).queue
    }

    /// The open connection; opens it on first use (an in-memory store with `rows` when given,
    /// else with its template's).
    private func connection(rows: StoreSnapshot?) throws(LocalStoreError) -> Connection {
        try opened.withLock { opened throws(LocalStoreError) in
            if let opened { return opened }
            let connection = try open(rows: rows)
            opened = connection
            return connection
        }
    }

    deinit {
        // An in-memory store's connection goes to the next in-memory store of its schema, unless
        // something still holds it (a test that kept `writer()`).
        guard case .memory = place, var connection = opened.withLock({ opened in defer { opened = nil }; return opened }) else { return }
        if isKnownUniquelyReferenced(&connection.queue) { MigratedTemplates.shared.keep(connection, for: migrator) }
    }

    private func open(rows: StoreSnapshot?) throws(LocalStoreError) -> Connection {
        var configuration = Configuration()
        // Two `flows` processes may share the file; wait for a writer instead of failing.
        configuration.busyMode = .timeout(5)
        if case .file = place {
            // Write-ahead logging: a killed process never loses a committed transaction, and
            // commits do not wait for the disk twice. (A power cut may lose the last commits,
            // never consistency.)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // A checkpoint copies the log back into the database and waits for the disk
                // twice. They run in the background (BackgroundCheckpoint); the writer's own
                // every 10,000 pages (40 MB of log) is the backstop. The log file is cut back to
                // 64 MB after a checkpoint, so it does not stay large.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 10000")
                try db.execute(sql: "PRAGMA journal_size_limit = 67108864")
                // Up to 16 MB of pages kept in memory (SQLite's default is 2 MB): a large write,
                // such as an import, then rarely spills pages to the log before it commits.
                try db.execute(sql: "PRAGMA cache_size = -16384")
            }
        }
        switch place {
        case .memory:
            // Migrated once per process and set of migrations, then copied page by page: a test
            // or a script's fresh store costs a copy of a few dozen pages, not every migration.
            let template = try MigratedTemplates.shared.template(for: migrator, configuration: configuration) { queue throws(LocalStoreError) in
                try migrate(queue, path: place.description)
            }
            let rows = rows ?? template.rows
            do {
                // A connection an earlier store left keeps its prepared statements: only its
                // rows are put back (and not even those when it holds them still).
                if var recycled = MigratedTemplates.shared.recycled(for: migrator, holding: rows.id),
                   (try? Self.put(rows, into: &recycled)) != nil {
                    return recycled
                }
                let queue = try DatabaseQueue(configuration: configuration)
                try template.queue.backup(to: queue)
                var connection = try queue.inDatabase { db in
                    Connection(queue: queue, memory: Connection.Memory(
                        schemaVersion: try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0, schema: template.rows.schema,
                        rows: template.rows.id, changes: db.totalChangesCount
                    ))
                }
                try Self.put(rows, into: &connection)
                return connection
            } catch {
                throw .cannotOpen(place.description, reason: FileProblem.reason(error))
            }
        case .file(let url):
            try StoreLocation(directory: url.deletingLastPathComponent()).prepare()
            // Processes opening the same store take turns from here to the end of the
            // migrations: otherwise two could both find a migration pending and both run it.
            let lock = try OpeningLock(url)
            defer { lock.release() }
            try Self.createPrivately(url)
            do {
                for suffix in ["", "-wal", "-shm"] { try StoreLocation.makePrivate(file: url.path + suffix) }
            } catch .cannotRead(let path, let reason) {
                throw .cannotOpen(path, reason: reason)
            }
            let queue: DatabaseQueue
            do {
                queue = try DatabaseQueue(path: url.path, configuration: configuration)
            } catch {
                throw .cannotOpen(url.path, reason: FileProblem.reason(error))
            }
            try migrate(queue, path: url.path)
            return Connection(queue: queue, memory: nil, checkpoints: BackgroundCheckpoint(file: url))
        }
    }

    /// A store's open connection.
    struct Connection: Sendable {
        var queue: DatabaseQueue
        /// What is known of an in-memory store's connection (nil for a file's).
        var memory: Memory?
        /// For a file: checkpoints off the committing thread.
        var checkpoints: BackgroundCheckpoint?

        struct Memory: Sendable {
            /// Its `schema_version` once opened: while that holds, its schema is `schema`.
            let schemaVersion: Int
            let schema: String
            /// The snapshot its rows were last put back from, and its change count just after:
            /// while that count holds, it still has those rows.
            var rows: UInt64
            var changes: Int
        }
    }

    /// Puts `rows` into `connection`, in one transaction, unless it holds them already; refuses
    /// a connection whose schema is not the snapshot's.
    private static func put(_ rows: StoreSnapshot, into connection: inout Connection) throws {
        let memory = connection.memory
        let changes = try connection.queue.writeWithoutTransaction { db -> Int? in
            try transaction(db, "BEGIN IMMEDIATE TRANSACTION") { db -> Int? in
                // The schema as it was opened while its version holds (a schema change, or a
                // VACUUM, moves it; neither moves the change count).
                let version = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA schema_version"))
                let known = memory.flatMap { $0.schemaVersion == version ? $0 : nil }
                if let known, known.rows == rows.id, db.totalChangesCount == known.changes { return nil }
                guard try (known?.schema ?? StoreSnapshot.schema(of: db)) == rows.schema else {
                    throw DatabaseError(resultCode: .SQLITE_SCHEMA, message: "the store's schema is not the one its snapshot was taken of")
                }
                try rows.restore(into: db)
                return db.totalChangesCount
            }
        }
        if let changes {
            connection.memory?.rows = rows.id
            connection.memory?.changes = changes
        }
    }

    /// Runs `work` in a transaction that `begin` starts, and commits it; a throw inside rolls it
    /// back. Its BEGIN and COMMIT are prepared once per connection.
    private static func transaction<T>(_ db: Database, _ begin: String, _ work: (Database) throws -> T) throws -> T {
        try db.cachedStatement(sql: begin).execute()
        do {
            let result = try work(db)
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            // The first error is the one to report; GRDB's rollback copes with a transaction
            // SQLite has already rolled back.
            if db.isInsideTransaction { try? db.rollback() }
            throw error
        }
    }

    private func migrate(_ queue: DatabaseQueue, path: String) throws(LocalStoreError) {
        do {
            let applied = try queue.read { try migrator.appliedIdentifiers($0) }
            let unknown = applied.subtracting(migrator.migrations)
            guard unknown.isEmpty else { throw LocalStoreError.newerVersion(path, unknownMigrations: unknown.sorted()) }
            try migrator.migrate(queue)
        } catch let error as LocalStoreError {
            throw error
        } catch {
            throw .cannotOpen(path, reason: FileProblem.reason(error))
        }
    }

    /// An exclusive `flock` on the store's folder, held while the store is opened and migrated.
    /// The folder, not the database file: closing any descriptor of the database file would drop
    /// the POSIX record locks SQLite holds on it in this process.
    private struct OpeningLock {
        let descriptor: Int32

        init(_ url: URL) throws(LocalStoreError) {
            let folder = url.deletingLastPathComponent().path
            descriptor = Foundation.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .cannotOpen(url.path, reason: String(cString: strerror(errno))) }
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let reason = String(cString: strerror(errno))
                    close(descriptor)
                    throw .cannotOpen(url.path, reason: reason)
                }
            }
        }

        func release() {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// Creates an empty database file readable by its owner only (SQLite gives its journal the
    /// same mode); an existing file is left as it is.
    private static func createPrivately(_ url: URL) throws(LocalStoreError) {
        let descriptor = Foundation.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw .cannotOpen(url.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Runs `work` in a read transaction, on the caller's thread.
    ///
    /// Synchronous on purpose, and called as is from async code: a hop to the database's queue
    /// and back (GRDB's async API) cost about 90 µs per transaction here, more than a whole
    /// write of an expense; a transaction holds the caller's thread only for its own duration.
    ///
    /// A plain deferred transaction, not GRDB's `read`: that one sets `PRAGMA query_only` on and
    /// off around the work, and SQLite takes each change of the pragma as a reason to prepare
    /// every statement of the connection again, so each read cost every cached statement its
    /// next parse. A read that writes all the same is rolled back and refused.
    public func read<T>(_ work: (Database) throws -> T) throws -> T {
        try writer().inDatabase { db in
            let changes = db.totalChangesCount
            return try Self.transaction(db, "BEGIN DEFERRED TRANSACTION") { db in
                let result = try work(db)
                // A read that wrote is rolled back and refused, as a read-only transaction would.
                guard db.totalChangesCount == changes else {
                    throw DatabaseError(resultCode: .SQLITE_READONLY, message: "a read tried to write")
                }
                return result
            }
        }
    }

    /// Runs `work` in a write transaction, on the caller's thread (see ``read(_:)``); a throw
    /// inside rolls it back.
    ///
    /// The transaction is IMMEDIATE, as GRDB's own writes are: the write lock is taken at the
    /// start, so two processes never both read and then fail to upgrade. Its BEGIN and COMMIT are
    /// prepared once per connection: GRDB's `write` parses both again for every transaction,
    /// about 25,000 instructions, a twentieth of adding an expense.
    public func write<T>(_ work: (Database) throws -> T) throws -> T {
        let connection = try connection(rows: nil)
        let result = try connection.queue.writeWithoutTransaction { db in try Self.transaction(db, "BEGIN IMMEDIATE TRANSACTION", work) }
        connection.checkpoints?.didCommit()
        return result
    }

    /// How many rows this process has written to the store since it opened it (inserted,
    /// updated or deleted, even in a transaction rolled back): a count that has not moved
    /// means nothing was written.
    public func changeCount() throws -> Int {
        try writer().inDatabase { $0.totalChangesCount }
    }

    /// Every row of every table, as values, to put back with ``restore(_:)``.
    public func snapshot() throws -> StoreSnapshot {
        try read { try StoreSnapshot($0) }
    }

    /// Replaces every row of every table with `snapshot`'s, in one transaction; the schema must be
    /// the one the snapshot was taken of. The connection keeps its prepared statements, and an
    /// in-memory store that holds the snapshot's rows still (put back from it, and not written
    /// to since) is left as it is.
    public func restore(_ snapshot: StoreSnapshot) throws {
        var connection = try connection(rows: snapshot)
        try Self.put(snapshot, into: &connection)
        let kept = connection
        opened.withLock { opened in
            if opened?.queue === kept.queue { opened = kept }
        }
        kept.checkpoints?.didCommit()
    }

    /// Every row of every table, as text: each table by name, its rows in the order of all their
    /// columns. Two readings are equal exactly when the store holds the same data, so a test can
    /// tell that nothing was written (and show what was, with a diff).
    public func contents() throws -> String {
        try read { db in
            var lines: [String] = []
            // Each table with its number of columns, in one statement; every statement is kept
            // prepared, since a harness asks before and after each run.
            let tables = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT m.name, count(*) FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS column
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' GROUP BY m.name ORDER BY m.name
                """))
            for table in tables {
                let (name, columns): (String, Int) = (table[0], table[1])
                let quoted = StoreSnapshot.quoted(name)
                let order = (1...max(1, columns)).map(String.init).joined(separator: ", ")
                lines.append("[\(name)]")
                let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT * FROM \(quoted) ORDER BY \(order)"))
                while let row = try rows.next() {
                    lines.append(row.databaseValues.map(Self.text(of:)).joined(separator: " | "))
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// A value as `contents()` writes it: a blob byte by byte (GRDB describes one by its size).
    private static func text(of value: DatabaseValue) -> String {
        guard case .blob(let data) = value.storage else { return value.description }
        return "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
    }

    /// The identifiers of the migrations applied to the database, in the order they ran.
    public func appliedMigrations() throws -> [String] {
        let queue = try writer()
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
    }
}

extension LocalDatabase.Place: CustomStringConvertible {
    public var description: String {
        switch self {
        case .file(let url): url.path
        case .memory: ":memory:"
        }
    }
}
