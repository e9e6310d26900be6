import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// A PostgreSQL database shared by a server's requests: what `LocalDatabase` is to the embedded
/// SQLite store, for the same synchronous store bodies.
///
/// Each transaction runs on a thread of its own pool (as many threads as connections), holding
/// one connection from BEGIN to COMMIT, each statement a blocking round trip from that thread.
/// A write is SERIALIZABLE and is run again, after a short random pause, when it fails to
/// serialize with a concurrent one or deadlocks (store bodies are database logic only, safe to
/// run again), at last alone so that it lands; a read is a READ ONLY REPEATABLE READ
/// transaction, one consistent snapshot. A throw in a body rolls everything back.
///
/// The migrations run once, before the first transaction (or at ``migrate()``). Call
/// ``shutdown()`` before letting it go: its threads stop only then.
public final class ServerDatabase: Sendable {
    public let url: DatabaseURL
    private let migrations: [PostgresMigration]
    private let pool: ConnectionPool
    private let threads: NIOThreadPool
    private let logger: Logger
    private let writeAttempts: Int
    private let migrated = Mutex(MigrationState.pending)
    private let isShutDown = Atomic<Bool>(false)

    private enum MigrationState {
        case pending
        case running(Task<Void, any Error>)
        case done
    }

    /// - Parameters:
    ///   - maximumConnections: how many transactions run at once (the rest wait their turn).
    ///   - migrations: every area's, in the order they run; each identifier once.
    ///   - writeAttempts: how many times a write that fails to serialize is tried in all (from
    ///     the fourth, alone).
    ///   - statementTimeout: how long one statement may run before PostgreSQL cancels it (the
    ///     transaction then fails, as the database being unavailable); nil: as long as it takes.
    public init(
        url: DatabaseURL,
        maximumConnections: Int = 16,
        migrations: [PostgresMigration] = [],
        connectTimeout: Duration = .seconds(5),
        statementTimeout: Duration? = .seconds(5),
        writeAttempts: Int = 12,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "flows.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        let connections = max(1, maximumConnections)
        self.url = url
        self.migrations = migrations
        self.logger = logger
        self.writeAttempts = max(1, writeAttempts)
        pool = ConnectionPool(
            url: url, capacity: connections, connectTimeout: connectTimeout, statementTimeout: statementTimeout, eventLoopGroup: eventLoopGroup,
            logger: logger
        )
        threads = NIOThreadPool(numberOfThreads: connections)
        threads.start()
    }

    /// Reads the URL first; a URL that is not right throws saying why.
    public convenience init(url: String, maximumConnections: Int = 16, migrations: [PostgresMigration] = []) throws(DatabaseURLError) {
        self.init(url: try DatabaseURL(url), maximumConnections: maximumConnections, migrations: migrations)
    }

    // MARK: - Transactions

    /// Runs `body` as one consistent read on a thread of the database: a body of one statement
    /// on its own (one round trip, not three), any other in a READ ONLY REPEATABLE READ
    /// transaction. A body that comes to a second statement outside a transaction is run again
    /// in one, and reads beginning with the same statement begin in a transaction from then on.
    public func read<T: Sendable>(_ body: @escaping @Sendable (ServerTransaction) throws -> T) async throws -> T {
        try await migrateOnce()
        return try await onThread {
            if case .done(let result) = try self.single(body) { return result }
            return try self.transaction(.read, body)
        }
    }

    /// What reads that went on past their first statement began with.
    private let multiStatementReads = SingleStatementReads()

    /// `body` with its first statement on its own; `.retry` when it needs a transaction (or its
    /// connection had gone stale: nothing is lost by reading again on another).
    private func single<T>(_ body: (ServerTransaction) throws -> T) throws -> Outcome<T> {
        let connection = try pool.take()
        let transaction = ServerTransaction(connection: connection, logger: logger, single: multiStatementReads)
        var reusable = true
        defer { pool.giveBack(connection, reusable: reusable) }
        do {
            let result = try body(transaction)
            if let failure = transaction.failure { throw failure }
            return .done(result)
        } catch {
            if transaction.needsTransaction { return .retry(.needsTransaction) }
            if case .unavailable(let reason) = transaction.failure {
                reusable = false
                return .retry(.unavailable(reason))
            }
            throw error
        }
    }

    /// Runs `body` in a SERIALIZABLE transaction on a thread of the database, again (a bounded
    /// number of times) when it fails to serialize or deadlocks.
    public func write<T: Sendable>(_ body: @escaping @Sendable (ServerTransaction) throws -> T) async throws -> T {
        try await migrateOnce()
        return try await onThread { try self.transaction(.write, body) }
    }

    /// Runs `body` outside any transaction, each statement on its own (CREATE DATABASE cannot
    /// run in one). Does not migrate.
    public func withoutTransaction<T: Sendable>(_ body: @escaping @Sendable (ServerTransaction) throws -> T) async throws -> T {
        try await onThread {
            let connection = try self.pool.take()
            let transaction = ServerTransaction(connection: connection, logger: self.logger)
            defer { self.pool.giveBack(connection, reusable: transaction.failure == nil) }
            return try body(transaction)
        }
    }

    private enum Kind {
        case read, write

        var begin: String {
            switch self {
            case .read: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
            case .write: "BEGIN ISOLATION LEVEL SERIALIZABLE"
            }
        }
    }

    /// Runs `work` on a thread of the pool, never on the caller's (Swift's cooperative threads
    /// must not block on the network).
    private func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard !isShutDown.load(ordering: .relaxed) else { throw ServerDatabaseError.unavailable("it was shut down") }
        do {
            return try await threads.runIfActive(work)
        } catch is NIOThreadPoolError.ThreadPoolInactive {
            throw ServerDatabaseError.unavailable("it was shut down")
        }
    }

    /// One transaction, tried again while it fails to serialize. On a thread of the pool.
    ///
    /// Writers that keep colliding (on one hot balance, say) could lose to newcomers for ever, so
    /// after ``exclusiveAfter`` failed attempts a write runs alone: every write holds a shared
    /// advisory lock for its transaction, and this one takes it exclusively before it begins
    /// (before its snapshot), so it waits for the writes under way, new ones wait for it, and it
    /// cannot fail to serialize with them. Reads (REPEATABLE READ) are never held up.
    private func transaction<T>(_ kind: Kind, _ body: (ServerTransaction) throws -> T) throws -> T {
        var attempt = 1
        while true {
            let alone = kind == .write && attempt > Self.exclusiveAfter
            switch try once(kind, body, alone: alone, staleRetry: true) {
            case .done(let result):
                return result
            case .retry(let failure):
                guard attempt < writeAttempts else {
                    logger.warning("giving up a write", metadata: ["attempts": "\(attempt)", "failure": "\(failure)"])
                    throw ServerDatabaseError.conflict(attempts: attempt)
                }
                if attempt + 1 <= Self.exclusiveAfter { Self.pause(before: attempt + 1) }
                attempt += 1
            }
        }
    }

    /// How many attempts a write makes alongside others before it runs alone.
    static let exclusiveAfter = 3

    /// The key of the advisory lock writes hold shared, and a write that runs alone exclusively.
    private static let writeLock: Int64 = 0x666C_6F77_735F_7772

    private enum Outcome<T> {
        case done(T)
        case retry(ServerDatabaseError)
    }

    private func once<T>(_ kind: Kind, _ body: (ServerTransaction) throws -> T, alone: Bool, staleRetry: Bool) throws -> Outcome<T> {
        let connection = try pool.take()
        let transaction = ServerTransaction(connection: connection, logger: logger)
        var reusable = true
        var locked = false
        defer {
            // A session's advisory lock outlives its transaction: given back, or the connection goes.
            if locked, !transaction.control("SELECT pg_advisory_unlock($1)", [Self.writeLock]) { reusable = false }
            pool.giveBack(connection, reusable: reusable)
        }
        do {
            if alone {
                try transaction.execute("SELECT pg_advisory_lock($1)", [Self.writeLock])
                locked = true
            }
            try transaction.begin(kind.begin)
            if kind == .write, !alone { try transaction.execute("SELECT pg_advisory_xact_lock_shared($1)", [Self.writeLock]) }
        } catch {
            reusable = false
            // An idle connection the server dropped fails at its first statement: nothing was
            // sent in the transaction, so one fresh connection is tried.
            if staleRetry, case .unavailable = error { return try once(kind, body, alone: alone, staleRetry: false) }
            if !locked, kind == .write, let failure = transaction.failure, failure.isRetryable { return .retry(failure) }
            throw error
        }
        do {
            let result = try body(transaction)
            // A body that caught a statement's error and went on cannot commit: the server
            // aborted the transaction.
            if let failure = transaction.failure { throw failure }
            try transaction.commit()
            return .done(result)
        } catch {
            if case .unavailable = transaction.failure { reusable = false } else { reusable = transaction.rollback() }
            // The first failure of a statement decides, whatever the body made of it.
            if kind == .write, let failure = transaction.failure, failure.isRetryable { return .retry(failure) }
            throw error
        }
    }

    /// A short random pause before attempt `attempt` (2, 3, ...): up to 2 ms, doubling, so
    /// writers that collided do not collide again at once.
    private static func pause(before attempt: Int) {
        let ceiling = min(0.002 * pow(2, Double(min(attempt - 2, 10))), 0.1)
        Thread.sleep(forTimeInterval: Double.random(in: 0...ceiling))
    }

    // MARK: - Migrations

    /// Applies the migrations not applied yet, each in its own transaction, in order; refuses a
    /// database that has migrations this build does not know. Several servers starting at once
    /// take turns (an advisory lock), so each migration runs once. Done once; a failure is tried
    /// again at the next use.
    public func migrate() async throws {
        try await migrateOnce()
    }

    /// The identifiers of the migrations applied, in the order they ran.
    public func appliedMigrations() async throws -> [String] {
        try await withoutTransaction { database in
            guard try database.row("SELECT to_regclass('schema_migrations') IS NOT NULL")?.boolean(0) == true else { return [] }
            return try database.rows("SELECT identifier FROM schema_migrations ORDER BY position, identifier").map { try $0.text(0) }
        }
    }

    private func migrateOnce() async throws {
        let task: Task<Void, any Error>? = migrated.withLock { state in
            switch state {
            case .done: return nil
            case .running(let task): return task
            case .pending:
                let task = Task { try await self.onThread { try self.runMigrations() } }
                state = .running(task)
                return task
            }
        }
        guard let task else { return }
        do {
            try await task.value
            migrated.withLock { $0 = .done }
        } catch {
            migrated.withLock { state in
                if case .running(let running) = state, running == task { state = .pending }
            }
            throw error
        }
    }

    /// The key of the advisory lock migrations take (any number, the same in every build).
    private static let migrationLock: Int64 = 0x666C_6F77_735F_6D69

    /// On a thread of the pool. READ COMMITTED, so that a migration's transaction, once it holds
    /// the lock, sees what another server committed while it waited (a snapshot taken before
    /// waiting would not).
    private func runMigrations() throws {
        let known = migrations.map(\.identifier)
        guard !known.isEmpty else { return }
        let connection = try pool.take()
        let transaction = ServerTransaction(connection: connection, logger: logger)
        var reusable = true
        defer { pool.giveBack(connection, reusable: reusable) }
        func inTransaction<T>(_ work: () throws -> T) throws -> T {
            try transaction.begin("BEGIN ISOLATION LEVEL READ COMMITTED")
            do {
                // A migration may build an index over every row, and waits for another server's:
                // the statement timeout is for requests, not for these.
                try transaction.execute("SET LOCAL statement_timeout = 0")
                try transaction.execute("SELECT pg_advisory_xact_lock($1)", [Self.migrationLock])
                let result = try work()
                try transaction.commit()
                return result
            } catch {
                reusable = transaction.rollback()
                throw error
            }
        }
        let applied = try inTransaction {
            try transaction.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    identifier TEXT PRIMARY KEY,
                    position INTEGER NOT NULL,
                    applied_at DOUBLE PRECISION NOT NULL
                )
                """)
            return try transaction.rows("SELECT identifier FROM schema_migrations").map { try $0.text(0) }
        }
        let unknown = Set(applied).subtracting(known)
        guard unknown.isEmpty else { throw ServerDatabaseError.newerSchema(database: url.description, unknownMigrations: unknown.sorted()) }
        for (position, migration) in migrations.enumerated() where !applied.contains(migration.identifier) {
            try inTransaction {
                // Another server may have applied it while this one waited for the lock.
                guard try transaction.row("SELECT 1 FROM schema_migrations WHERE identifier = $1", [migration.identifier]) == nil else { return }
                try migration.body(transaction)
                try transaction.execute(
                    "INSERT INTO schema_migrations (identifier, position, applied_at) VALUES ($1, $2, $3)",
                    [migration.identifier, position, Date().timeIntervalSince1970]
                )
                logger.info("applied migration", metadata: ["identifier": "\(migration.identifier)"])
            }
        }
    }

    // MARK: - Readiness and shutdown

    /// Whether the database answers `SELECT 1` within `timeout`; throws
    /// ``ServerDatabaseError/unavailable(_:)`` saying why not. Uses no thread of the pool, so a
    /// pool busy with long transactions does not make the database look down.
    public func checkReady(timeout: Duration = .seconds(2)) async throws(ServerDatabaseError) {
        guard !isShutDown.load(ordering: .relaxed) else { throw .unavailable("it was shut down") }
        let connection = try await pool.takeAsync(timeout: timeout)
        let deadline = connection.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            // No answer in time: closing the connection fails the query.
            let _: EventLoopFuture<Void> = connection.close()
        }
        do {
            let result = try await connection.query("SELECT 1", logger: logger).get()
            deadline.cancel()
            guard let row = result.rows.first, try SQLRow(row).integer(0) == 1 else {
                await pool.giveBackAsync(connection, reusable: false)
                throw ServerDatabaseError.damaged("SELECT 1 did not answer 1")
            }
            await pool.giveBackAsync(connection, reusable: true)
        } catch {
            deadline.cancel()
            await pool.giveBackAsync(connection, reusable: false)
            if connection.isClosed, case .unavailable = ServerDatabaseError(error) {
                throw .unavailable("no answer to SELECT 1 from \(url) within \(timeout)")
            }
            throw ServerDatabaseError(error)
        }
    }

    /// Lets the transactions under way finish, refuses new ones (as unavailable), and closes
    /// every connection.
    public func shutdown() async {
        guard !isShutDown.exchange(true, ordering: .relaxed) else { return }
        try? await threads.shutdownGracefully()
        await pool.close()
    }
}
