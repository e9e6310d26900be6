import Crypto
import Foundation
import PostgresStore
import Synchronization

/// Counts attempts per key over a sliding window, at most `limit` in any `window`: what the
/// per-account and per-address limits ask of a counter.
protocol AttemptCounts: Sendable {
    /// Seconds until `key` may try again, or nil when it may now.
    func wait(for key: String) async throws(APIProblem) -> Int?
    /// Counts one attempt for `key`.
    func record(_ key: String) async throws(APIProblem)
    /// Forgets `key`'s attempts (a password that checked out).
    func reset(_ key: String) async throws(APIProblem)
}

extension AttemptLimiter: AttemptCounts {}

/// Attempts counted in the PostgreSQL database every server shares, so that servers behind one
/// load balancer hold a client to one set of limits between them, not to one set each.
///
/// Keys (an email, an address) are kept only as their SHA-256, and an attempt only for as long
/// as its window: a key's expired attempts go when it is next counted, everyone's every 1,000
/// attempts a server counts.
final class SharedAttemptLimiter: Sendable {
    /// Which limit the attempts count for (`account`, `address`, `sign-up`): one table holds all.
    private let kind: String
    private let limit: Int
    private let window: Double
    private let database: ServerDatabase
    private let now: @Sendable () -> Date
    private let sweep = Mutex<Int>(0)

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
        return max(1, Int((oldest + window - time).rounded(.up)))
    }

    func record(_ key: String) async throws(APIProblem) {
        let time = now().timeIntervalSince1970
        let since: Double = time - window
        let hash = Self.hash(key)
        let everyone = sweep.withLock { count -> Bool in
            count += 1
            guard count >= 1_000 else { return false }
            count = 0
            return true
        }
        // Expired attempts go: this key's, and every 1,000th time everyone's of this kind.
        let expired: (sql: String, parameters: [SQLValue]) = everyone
            ? ("DELETE FROM server_attempt WHERE kind = $1 AND at <= $2", [.text(kind), .real(since)])
            : ("DELETE FROM server_attempt WHERE kind = $1 AND key_hash = $2 AND at <= $3", [.text(kind), hash, .real(since)])
        let added: [SQLValue] = [.text(kind), hash, .real(time)]
        try await counting {
            try await self.database.write { database in
                _ = try database.execute(expired.sql, expired.parameters)
                _ = try database.execute("INSERT INTO server_attempt (kind, key_hash, at) VALUES ($1, $2, $3)", added)
            }
        }
    }

    func reset(_ key: String) async throws(APIProblem) {
        let parameters: [SQLValue] = [.text(kind), Self.hash(key)]
        try await counting {
            try await self.database.write { database in
                _ = try database.execute("DELETE FROM server_attempt WHERE kind = $1 AND key_hash = $2", parameters)
            }
        }
    }
}
