import Crypto
import Foundation
import PostgresStore
import Logging
import Synchronization

/// Counts attempts per key over a sliding window, at most `limit` in any `window`: what the
/// per-account and per-address limits ask of a counter.
///
/// Only the check may refuse: counting and forgetting come after the work they count (an
/// account made, a session given), and a failure there is logged, not answered.
protocol AttemptCounts: Sendable {
    /// Seconds until `key` may try again, or nil when it may now.
    func wait(for key: String) async throws(APIProblem) -> Int?
    /// Counts one attempt for `key`.
    func record(_ key: String) async
    /// Forgets `key`'s attempts (a password that checked out).
    func reset(_ key: String) async
}

extension AttemptLimiter: AttemptCounts {}

/// Attempts counted in the PostgreSQL database every server shares, so that servers behind one
/// load balancer hold a client to one set of limits between them, not to one set each.
///
/// Keys (an email, an address) are kept as their SHA-256, not in plain text (anyone who can read
/// the table can still test a guess against them). Expired attempts stay until the key is next
/// counted, or until the server's next sweep of its kind (every 1,000 attempts it counts); they
/// are never counted.
///
/// Each statement stands alone (no transaction): attempts at once, on any server, never fail to
/// serialize with one another or with the ledger's writes.
final class SharedAttemptLimiter: Sendable {
    /// Which limit the attempts count for (`account`, `address`, `sign-up`): one table holds all.
    private let kind: String
    private let limit: Int
    private let window: Double
    private let database: ServerDatabase
    private let now: @Sendable () -> Date
    private let sweep = Mutex<Int>(0)
    private let logger = Logger(label: "flows-server.attempts")

    /// The table, made by flows-server's own migration.
    static let migrations = [
        PostgresMigration(
            "server.postgres.v1.attempts",
            statements: [
                """
                CREATE TABLE server_attempt (
                    kind text NOT NULL,
                    key_hash bytea NOT NULL,
                    at double precision NOT NULL
                )
                """,
                "CREATE INDEX server_attempt_by_key ON server_attempt (kind, key_hash, at)",
                "CREATE INDEX server_attempt_by_time ON server_attempt (kind, at)",
            ]
        )
    ]

    init(kind: String, limit: Int, window: Duration, database: ServerDatabase, now: @escaping @Sendable () -> Date) {
        self.kind = kind
        self.limit = max(1, limit)
        let (seconds, attoseconds) = window.components
        self.window = max(1, Double(seconds) + Double(attoseconds) / 1e18)
        self.database = database
        self.now = now
    }

    /// Runs the database's work; a database that fails is `503 store-unavailable`, as for any
    /// other request.
    private func counting<T: Sendable>(_ work: () async throws -> T) async throws(APIProblem) -> T {
        do {
            return try await work()
        } catch {
            throw APIProblem.storeUnavailable("attempts (\(kind)): \(error)")
        }
    }

    private static func hash(_ key: String) -> SQLValue {
        .bytes(Array(SHA256.hash(data: Data(key.utf8))))
    }
}

extension SharedAttemptLimiter: AttemptCounts {
    func wait(for key: String) async throws(APIProblem) -> Int? {
        let time = now().timeIntervalSince1970
        let since: Double = time - window
        let parameters: [SQLValue] = [.text(kind), Self.hash(key), .real(since), .integer(Int64(limit))]
        // The newest `limit` attempts in the window: when there are that many, the oldest of them
        // says when the key may try again.
        let times: [Double] = try await counting {
            try await self.database.read { database in
                try database.rows(
                    "SELECT at FROM server_attempt WHERE kind = $1 AND key_hash = $2 AND at > $3 ORDER BY at DESC LIMIT $4", parameters
                ).map { row throws(ServerDatabaseError) in try row.real(0) }
            }
        }
        guard times.count >= limit, let oldest = times.last else { return nil }
        return retryAfter(oldest: oldest, window: window, now: time)
    }

    func record(_ key: String) async {
        let time = now().timeIntervalSince1970
        let since: Double = time - window
        let hash = Self.hash(key)
        let sweeping = sweep.withLock { count -> Bool in
            count += 1
            guard count >= 1_000 else { return false }
            count = 0
            return true
        }
        // The key's expired attempts go as the new one comes, in one statement.
        let parameters: [SQLValue] = [.text(kind), hash, .real(since), .real(time)]
        await standalone("count an attempt") { database in
            _ = try database.execute(
                """
                WITH expired AS (DELETE FROM server_attempt WHERE kind = $1 AND key_hash = $2 AND at <= $3)
                INSERT INTO server_attempt (kind, key_hash, at) VALUES ($1, $2, $4)
                """,
                parameters
            )
        }
        guard sweeping else { return }
        let everyone: [SQLValue] = [.text(kind), .real(since)]
        await standalone("sweep expired attempts") { database in
            _ = try database.execute("DELETE FROM server_attempt WHERE kind = $1 AND at <= $2", everyone)
        }
    }

    func reset(_ key: String) async {
        let parameters: [SQLValue] = [.text(kind), Self.hash(key)]
        await standalone("forget attempts") { database in
            _ = try database.execute("DELETE FROM server_attempt WHERE kind = $1 AND key_hash = $2", parameters)
        }
    }

    /// Runs one statement on its own; a failure goes to the log.
    private func standalone(_ what: String, _ body: @escaping @Sendable (ServerTransaction) throws -> Void) async {
        do {
            try await database.migrate()
            try await database.withoutTransaction(body)
        } catch {
            logger.warning("\(what) failed", metadata: ["kind": "\(kind)", "reason": "\(error)"])
        }
    }
}
