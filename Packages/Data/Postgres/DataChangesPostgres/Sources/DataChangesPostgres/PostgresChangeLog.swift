import DataChanges
import PostgresStore

/// The change log of the server's PostgreSQL database (docs/sync.md): one row a person and
/// entity, written by every area's store in the same transaction as the change.
///
/// Several servers write at once, and a row's number is taken when it is written, not when its
/// transaction commits: a transaction that took a smaller number may commit after a reader went
/// past it. So each row keeps its transaction's id, positions are (transaction, number), and a
/// reader reads only the rows of transactions older than every one still running on this
/// database (the oldest of its snapshot's running transactions, `pg_snapshot_xip`): those can
/// no longer change, and nothing can commit before them. A transaction known to run on another
/// database of the same cluster (`pg_stat_activity`) does not hold the reader back; one that
/// cannot be placed does, which delays a pull and never skips a row (and the read is tried
/// again in a new snapshot, as such a transaction has most often just ended).
///
/// Transaction ids are read as text (they are 64 bits, unsigned) under another name than the
/// column's: an ORDER BY names an output column before a table's, and `ORDER BY tx` after
/// `SELECT tx::text` sorted as text, where 10000 comes before 9999.
public struct PostgresChangeLog: ChangeLogStore {
    private let database: ServerDatabase

    public init(database: ServerDatabase) {
        self.database = database
    }

    /// The log's migrations, oldest first.
    public static let migrations: [PostgresMigration] = [
        PostgresMigration("changes.postgres.v1.change-log", statements: [
            """
            CREATE TABLE sync_change (
                tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
                seq BIGSERIAL NOT NULL,
                person TEXT COLLATE "C" NOT NULL,
                kind TEXT COLLATE "C" NOT NULL,
                entity TEXT COLLATE "C" NOT NULL,
                at DOUBLE PRECISION NOT NULL DEFAULT extract(epoch FROM clock_timestamp()),
                PRIMARY KEY (tx, seq)
            )
            """,
            // Each person's rows are one range of the index, in the order a reader reads them.
            "CREATE INDEX sync_change_person ON sync_change (person, tx, seq)",
            "CREATE INDEX sync_change_at ON sync_change (at)",
            // The newest position pruned: a reader's position before it has missed rows.
            """
            CREATE TABLE sync_change_pruned (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                tx xid8 NOT NULL,
                seq BIGINT NOT NULL
            )
            """,
        ])
    ]

    /// Writes `changes` inside the transaction `db`, each once, in one statement.
    public static func append(_ changes: [Change], in db: ServerTransaction) throws {
        var seen = Set<Change>()
        let unique = changes.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return }
        try db.execute(
            "INSERT INTO sync_change (person, kind, entity) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])",
            [unique.map(\.person), unique.map(\.kind.rawValue), unique.map(\.id)]
        )
    }

    public func changes(for audience: [String], after position: LogPosition, limit: Int) async throws -> [LoggedChange] {
        guard !audience.isEmpty else { return [] }
        return try await Self.placed { () async throws -> (horizon: Horizon, rows: [LoggedChange]) in
            try await database.read { db in
                // The horizon first: the rows are read in the same snapshot, after it.
                let horizon = try Self.horizon(in: db)
                // No transaction of this database's has an id past the next one to be given, and
                // no row a number past the sequence's last.
                let given = try db.row("SELECT last_value FROM sync_change_seq_seq")?.integer(0) ?? 0
                guard position.transaction <= horizon.next, position.sequence <= given else { throw ChangeLogError.ahead }
                if position != .start,
                    try db.row(
                        "SELECT 1 FROM sync_change_pruned WHERE ($1::text::xid8, $2) < (tx, seq)", [String(position.transaction), position.sequence]
                    ) != nil
                {
                    throw ChangeLogError.expired
                }
                // Each of the audience's rows are one range of the index: the first `limit` of
                // each range, then the first `limit` of those (one `= ANY` would read every row
                // after the position, to sort them).
                let rows = try db.rows(
                    """
                    SELECT tx::text AS transaction, seq, kind, entity FROM unnest($1::text[]) AS audience(person)
                    CROSS JOIN LATERAL (
                        SELECT tx, seq, kind, entity FROM sync_change
                        WHERE sync_change.person = audience.person AND (tx, seq) > ($2::text::xid8, $3) AND tx < $4::text::xid8
                        ORDER BY sync_change.tx, seq LIMIT $5
                    ) AS rows
                    ORDER BY rows.tx, rows.seq LIMIT $5
                    """,
                    [audience, String(position.transaction), position.sequence, String(horizon.transaction), Int64(max(0, limit))]
                ).map { row in
                    guard let transaction = Int64(try row.text(0)) else { throw ServerDatabaseError.damaged("a change log row has a transaction past 64 bits") }
                    return LoggedChange(
                        position: LogPosition(transaction: transaction, sequence: try row.integer(1)), kind: Change.Kind(rawValue: try row.text(2)),
                        id: try row.text(3)
                    )
                }
                return (horizon, rows)
            }
        }.rows
    }

    public func prune(before cutoff: Double) async throws -> Int {
        try await database.write { db in
            // Rows are deleted by when they were written; the watermark is the newest position
            // deleted, so any reader at or past it missed nothing.
            guard let newest = try db.row(
                """
                WITH gone AS (DELETE FROM sync_change WHERE at < $1 RETURNING tx, seq)
                SELECT count(*), (SELECT tx::text AS transaction FROM gone ORDER BY gone.tx DESC, seq DESC LIMIT 1),
                       (SELECT seq FROM gone ORDER BY tx DESC, seq DESC LIMIT 1)
                FROM gone
                """,
                [cutoff]
            ), let transaction = try newest.optionalText(1), let sequence = try newest.optionalInteger(2) else { return 0 }
            try db.execute(
                """
                INSERT INTO sync_change_pruned (id, tx, seq) VALUES (1, $1::text::xid8, $2)
                ON CONFLICT (id) DO UPDATE SET (tx, seq) = (
                    SELECT CASE WHEN (EXCLUDED.tx, EXCLUDED.seq) > (sync_change_pruned.tx, sync_change_pruned.seq) THEN EXCLUDED.tx ELSE sync_change_pruned.tx END,
                           CASE WHEN (EXCLUDED.tx, EXCLUDED.seq) > (sync_change_pruned.tx, sync_change_pruned.seq) THEN EXCLUDED.seq ELSE sync_change_pruned.seq END
                )
                """,
                [transaction, sequence]
            )
            return Int(try newest.integer(0))
        }
    }

    /// The oldest transaction still running on this database as of a snapshot (its `xmax` when
    /// none is), and whether it is known to run here still.
    private struct Horizon: Sendable {
        let transaction: Int64
        /// The next transaction id to be given (`pg_snapshot_xmax`).
        let next: Int64
        /// False when the horizon is a transaction the snapshot saw running that has ended since,
        /// or that the server's activity does not list: a read then tries again, in a snapshot
        /// that no longer holds it.
        let placed: Bool
    }

    /// The horizon as of a snapshot taken now. A transaction the snapshot saw running does not
    /// count when the server's activity, read afresh after the snapshot
    /// (`pg_stat_clear_snapshot`), places it on another database: its rows are not this
    /// database's. Any other counts, even one that has ended since (`pg_xact_status`): the rows
    /// are read in this snapshot, where what it wrote is not there yet, and a horizon past it
    /// would skip them for good (its commit can even be recorded before a new snapshot sees it).
    /// Such a horizon is not placed, and the read is tried again. One it cannot place at all
    /// (a prepared transaction) counts, so a read waits for it rather than skip what it may write.
    private static func horizon(in db: ServerTransaction) throws -> Horizon {
        guard let snapshot = try db.row("SELECT pg_current_snapshot()::text").map({ try $0.text(0) }) else {
            throw ServerDatabaseError.damaged("the server gave no snapshot")
        }
        // The activity is read once a transaction asks for it, and kept for the rest of it: read
        // it again now, after the snapshot, so that it lists every transaction the snapshot saw
        // that is still running.
        _ = try db.row("SELECT pg_stat_clear_snapshot()::text")
        let row = try db.row(
            """
            WITH snapshot AS (SELECT $1::text::pg_snapshot AS s),
            activity AS (
                SELECT datname IS NOT DISTINCT FROM current_database() AS here, backend_xid::text::bigint AS xid
                FROM pg_stat_activity WHERE backend_xid IS NOT NULL
            ),
            horizon AS (
                SELECT coalesce(
                    (SELECT min(x) FROM snapshot, pg_snapshot_xip(snapshot.s) AS x
                     WHERE (x::text::bigint % 4294967296) NOT IN (SELECT xid FROM activity WHERE NOT here)),
                    (SELECT pg_snapshot_xmax(s) FROM snapshot)
                ) AS h
            )
            SELECT h::text,
                   h = (SELECT pg_snapshot_xmax(s) FROM snapshot)
                       OR ((h::text::bigint % 4294967296) IN (SELECT xid FROM activity WHERE here) AND pg_xact_status(h) = 'in progress'),
                   (SELECT pg_snapshot_xmax(s) FROM snapshot)::text
            FROM horizon
            """,
            [snapshot]
        )
        guard let row, let transaction = Int64(try row.text(0)), let next = Int64(try row.text(2)) else {
            throw ServerDatabaseError.damaged("the horizon is past 64 bits")
        }
        return Horizon(transaction: transaction, next: next, placed: try row.boolean(1))
    }

    /// `read`'s answer once its horizon is placed and nothing holds it back, reading again while
    /// either is not so, for up to about 200 ms (5 ms apart past the second read):
    /// - a transaction the read could not place (it ended, or began, between the snapshot and
    ///   the look at the server's activity) would hold the read back for nothing;
    /// - a transaction of this database's still running (a write that began before the pull,
    ///   as a write and the pull that follows it on another connection may be) holds back the
    ///   rows after it: waiting for it to end lets a pull show a write just answered.
    /// Past that the read is held back, and the rows come in a later pull.
    private static func placed<T>(_ read: () async throws -> (horizon: Horizon, rows: T)) async throws -> (horizon: Horizon, rows: T) {
        var answer = try await read()
        for attempt in 0..<40 where !answer.horizon.placed || answer.horizon.transaction < answer.horizon.next {
            if attempt >= 2 { try await Task.sleep(for: .milliseconds(5)) }
            answer = try await read()
        }
        return answer
    }

    public func horizon() async throws -> LogPosition {
        // Every transaction older than the horizon has ended, and what it wrote is there to
        // read; the rows of any other come after (horizon, 0).
        let horizon = try await Self.placed { () async throws -> (horizon: Horizon, rows: Void) in
            (try await database.read { db in try Self.horizon(in: db) }, ())
        }.horizon
        return LogPosition(transaction: horizon.transaction, sequence: 0)
    }

    public func newest(for person: String) async throws -> LogPosition? {
        let row = try await database.read { db in
            try db.row("SELECT tx::text AS transaction, seq FROM sync_change WHERE person = $1 ORDER BY sync_change.tx DESC, seq DESC LIMIT 1", [person])
                .map { row in (try row.text(0), try row.integer(1)) }
        }
        guard let row else { return nil }
        guard let transaction = Int64(row.0) else { throw ServerDatabaseError.damaged("a change log row has a transaction past 64 bits") }
        return LogPosition(transaction: transaction, sequence: row.1)
    }

    public func log(_ changes: [Change]) async throws {
        guard !changes.isEmpty else { return }
        try await database.write { db in try Self.append(changes, in: db) }
    }
}

extension ServerDatabase {
    /// Runs `body` in a write transaction, as ``write(_:)`` does, with a note of whom it concerns
    /// and what it changed (every PostgreSQL store keeps the log). The changes noted in each
    /// attempt are logged in its transaction; `observer` is told afterwards, whether the write
    /// went through or not.
    public func write<T: Sendable>(
        telling observer: PeopleChanged?, _ body: @escaping @Sendable (ServerTransaction, ChangedPeople) throws -> T
    ) async throws -> T {
        try await ChangedPeople.watching(observer, logging: true) { noted in
            let noted = noted ?? ChangedPeople()
            return try await write { db in
                let result = try body(db, noted)
                try PostgresChangeLog.append(noted.takeChanges(), in: db)
                return result
            }
        }
    }
}
