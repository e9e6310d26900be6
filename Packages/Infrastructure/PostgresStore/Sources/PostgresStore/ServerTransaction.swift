import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// One transaction on one connection, run by one thread from start to end: each statement is a
/// blocking round trip to the server, so a store's synchronous body reads like the SQLite one.
///
/// Lives only inside ``ServerDatabase/read(_:)`` or ``ServerDatabase/write(_:)``, on the
/// database's own threads (never on Swift's cooperative pool, which must not block).
public final class ServerTransaction {
    private let connection: PostgresConnection
    private let logger: Logger
    /// The first statement that failed: the server has aborted the transaction, so nothing more
    /// runs in it, and it is rolled back (or run again) whatever the body does with the error.
    private(set) var failure: ServerDatabaseError?
    private var cursors = 0
    /// A read begun without a transaction: its first statement runs on its own (one statement
    /// sees one snapshot), and a second one fails with ``ServerDatabaseError/needsTransaction``.
    private let single: SingleStatementReads?
    /// The statement a single-statement read began with.
    private var first: String?

    init(connection: PostgresConnection, logger: Logger, single: SingleStatementReads? = nil) {
        self.connection = connection
        self.logger = logger
        self.single = single
    }

    /// Whether this read came to a second statement, outside a transaction.
    var needsTransaction: Bool { failure == .needsTransaction }

    /// Runs a statement; returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, _ values: [any SQLValueConvertible] = []) throws(ServerDatabaseError) -> Int {
        try run(sql, values).metadata.rows ?? 0
    }

    /// Every row of a query.
    public func rows(_ sql: String, _ values: [any SQLValueConvertible] = []) throws(ServerDatabaseError) -> [SQLRow] {
        try run(sql, values).rows.map(SQLRow.init)
    }

    /// The first row of a query, if any.
    public func row(_ sql: String, _ values: [any SQLValueConvertible] = []) throws(ServerDatabaseError) -> SQLRow? {
        try run(sql, values).rows.first.map(SQLRow.init)
    }

    /// Every row of a query, `batch` at a time through a cursor, so a query over a whole table
    /// holds at most one batch in memory.
    public func forEachRow(
        _ sql: String, _ values: [any SQLValueConvertible] = [], batch: Int = 1_000, _ body: (SQLRow) throws -> Void
    ) throws {
        // A cursor lives in a transaction only.
        if single != nil { try refuseSecond() }
        cursors += 1
        let cursor = "flows_cursor_\(cursors)"
        try execute("DECLARE \(cursor) NO SCROLL CURSOR FOR \(sql)", values)
        while true {
            let rows = try run("FETCH FORWARD \(max(1, batch)) FROM \(cursor)", []).rows
            for row in rows { try body(SQLRow(row)) }
            if rows.count < max(1, batch) { break }
        }
        try execute("CLOSE \(cursor)")
    }

    /// The one place a statement goes to the server: its values bound, the answer awaited on this
    /// thread, a failure recorded.
    private func run(_ sql: String, _ values: [any SQLValueConvertible]) throws(ServerDatabaseError) -> PostgresQueryResult {
        if let failure { throw failure }
        if let single {
            // The first statement runs on its own when it is a SELECT (anything else meets the
            // READ ONLY transaction's refusal), unless reads that began with it went on.
            if first != nil || !Self.isSelect(sql) || single.goesOn(sql) { try refuseSecond() }
            first = sql
        }
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { value.sqlValue.bind(into: &bindings) }
        do {
            return try connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).wait()
        } catch {
            let mapped = ServerDatabaseError(error)
            failure = mapped
            throw mapped
        }
    }

    /// Whether `sql` begins with SELECT (which reads only, unless it calls a function that
    /// writes: the stores' reads call none).
    private static func isSelect(_ sql: String) -> Bool {
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        let start = sql.utf8.drop { whitespace.contains($0) }
        // ASCII letters in lower case: "SELECT", "select", "Select" are alike.
        guard start.prefix(6).map({ $0 | 0x20 }).elementsEqual("select".utf8) else { return false }
        return start.dropFirst(6).first.map(whitespace.contains) ?? false
    }

    /// Ends a single-statement read that came to another statement (or to one known to lead to
    /// more, or to one that is not a SELECT), noting the statement it began with.
    private func refuseSecond() throws(ServerDatabaseError) {
        // Only a SELECT that ran is worth remembering: anything else is refused anyway.
        if let first { single?.noteGoesOn(first) }
        failure = .needsTransaction
        throw .needsTransaction
    }

    // MARK: - Transaction control

    func begin(_ sql: String) throws(ServerDatabaseError) {
        try execute(sql)
    }

    /// Commits; a server that answers with a rollback (a transaction it had aborted) is a failure.
    func commit() throws(ServerDatabaseError) {
        let result = try run("COMMIT", [])
        guard result.metadata.command == "COMMIT" else {
            let failure = ServerDatabaseError.rejected(sqlState: "25P02", message: "the transaction was rolled back instead of committed")
            self.failure = failure
            throw failure
        }
    }

    /// Rolls back; false when the connection could not even do that (it is not reused).
    func rollback() -> Bool {
        control("ROLLBACK")
    }

    /// Runs a statement of the database's own bookkeeping, whatever failed before it (outside a
    /// transaction, or to end one); false when it failed.
    func control(_ sql: String, _ values: [any SQLValueConvertible] = []) -> Bool {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { value.sqlValue.bind(into: &bindings) }
        do {
            _ = try connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).wait()
            return true
        } catch {
            return false
        }
    }
}

/// The first statements of reads that went on to a second: a read beginning with one of these
/// begins in a transaction at once, not with a statement of its own that is then run again.
final class SingleStatementReads: Sendable {
    private let starts = Mutex<Set<String>>([])
    /// Past this many, the set starts over (statements are the stores' own texts; a few
    /// are built per call, such as lists of parameters).
    private let capacity = 1_000

    func goesOn(_ sql: String) -> Bool {
        starts.withLock { $0.contains(sql) }
    }

    func noteGoesOn(_ sql: String) {
        starts.withLock { starts in
            if starts.count >= capacity { starts.removeAll(keepingCapacity: true) }
            starts.insert(sql)
        }
    }
}
