import Logging
import NIOCore
import PostgresNIO

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

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

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
