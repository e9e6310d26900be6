import Crypto
import FlowsWire
import Foundation
import PostgresStore
import Logging
import Synchronization

/// Counts attempts per key over a sliding window, at most `limit` in any `window`: what the
/// per-account and per-address limits ask of a counter.
///
/// An attempt is counted before its work (a password checked, an account made), in the same
/// step as the check, so that attempts sent at once cannot all pass the check; the work that
/// turns out not to be a failure takes its count back. Only the claim may refuse: taking back
/// and forgetting come after the work, and a failure there is logged, not answered.
protocol AttemptCounts: Sendable {
    /// Counts one attempt for `key`, unless the key has had its limit in the window: then
    /// nothing is counted, and the answer says how long until it may try again.
    func claim(_ key: String) async throws(APIProblem) -> AttemptAdmission
    /// Takes back an attempt that turned out not to count (a password that checked out, a
    /// sign-up that made no account, a store that failed).
    func release(_ claim: AttemptClaim) async
    /// Forgets `key`'s attempts (a password that checked out).
    func reset(_ key: String) async
    /// Whether `key` has an attempt in the window (false when that cannot be read).
    func contains(_ key: String) async -> Bool
}

/// One attempt, counted.
struct AttemptClaim: Sendable, Equatable {
    let key: String
    let id: Int64
}

/// What a claim gets: counted, or refused for some whole seconds.
enum AttemptAdmission: Sendable, Equatable {
    case counted(AttemptClaim)
    case refused(retryAfter: Int)
}

extension AttemptCounts {
    /// Counts one attempt for `key`, or throws `429 rate-limited` saying `refusal` and the wait.
    func claim(_ key: String, refusing refusal: String) async throws(APIProblem) -> AttemptClaim {
        switch try await claim(key) {
        case .counted(let claim): return claim
        case .refused(let wait): throw .rateLimited("\(refusal); try again in \(wait) seconds.", retryAfter: wait)
        }
    }
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
/// serialize with one another or with the ledger's writes. A claim writes its attempt first and
/// then counts the key's others; of two claims at once, the one that counts last sees both,
/// so no more than the limit pass (at the limit's edge, both may be refused).
final class SharedAttemptLimiter: Sendable {
    /// Which limit the attempts count for (`account`, `address`, `sign-up`, ...): one table holds all.
    private let kind: String
    private let limit: Int
    private let window: Double
    private let database: ServerDatabase
    private let now: @Sendable () -> Date
    private let sweeps = Mutex(SweepSchedule())
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
        ),
        // Attempts are counted before their work and taken back by their identifier.
        PostgresMigration(
            "server.postgres.v2.attempt-ids",
            statements: ["ALTER TABLE server_attempt ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY"]
        ),
    ]

    init(kind: String, limit: Int, window: Duration, database: ServerDatabase, now: @escaping @Sendable () -> Date) {
        self.kind = kind
        self.limit = max(1, limit)
        self.window = windowSeconds(window)
        self.database = database
        self.now = now
    }

    /// A database that fails is `503 store-unavailable`, as for any other request.
    private func unavailable(_ error: any Error) -> APIProblem {
        .storeUnavailable("attempts (\(kind)): \(error)")
    }

    private static func hash(_ key: String) -> SQLValue {
        .bytes(Array(SHA256.hash(data: Data(key.utf8))))
    }
}

extension SharedAttemptLimiter: AttemptCounts {
    func claim(_ key: String) async throws(APIProblem) -> AttemptAdmission {
        let time = now().timeIntervalSince1970
        let since: Double = time - window
        let hash = Self.hash(key)
        let (kind, limit) = (kind, limit)
        let sweeping = sweeps.withLock { $0.isDue() }
        let written: [SQLValue] = [.text(kind), hash, .real(since), .real(time)]
        let id: Int64
        let counted: Result<[Double], any Error>
        do {
            try await database.migrate()
            (id, counted) = try await database.withoutTransaction { database in
                // The attempt is written (and the key's expired ones go) before the key's others
                // are counted, each statement committed on its own.
                guard
                    let id = try database.row(
                        """
                        WITH expired AS (DELETE FROM server_attempt WHERE kind = $1 AND key_hash = $2 AND at <= $3)
                        INSERT INTO server_attempt (kind, key_hash, at) VALUES ($1, $2, $4) RETURNING id
                        """,
                        written
                    )?.integer(0)
                else { throw ServerDatabaseError.unavailable("an attempt written returned no identifier") }
                // The newest `limit` others in the window: when there are that many, the oldest
                // of them says when the key may try again, and this one goes.
                let counted = Result { () throws -> [Double] in
                    let others = try database.rows(
                        """
                        SELECT at FROM server_attempt WHERE kind = $1 AND key_hash = $2 AND at > $3 AND id <> $4
                        ORDER BY at DESC LIMIT $5
                        """,
                        [.text(kind), hash, .real(since), .integer(id), .integer(Int64(limit))] as [SQLValue]
                    ).map { row throws(ServerDatabaseError) in try row.real(0) }
                    if others.count >= limit {
                        _ = try database.execute(
                            "DELETE FROM server_attempt WHERE kind = $1 AND key_hash = $2 AND id = $3", [.text(kind), hash, .integer(id)] as [SQLValue]
                        )
                    }
                    return others
                }
                return (id, counted)
            }
        } catch {
            throw unavailable(error)
        }
        let others: [Double]
        switch counted {
        case .success(let counted): others = counted
        case .failure(let error):
            // Written but not counted: the attempt is taken back (on another connection, when
            // this one failed), and the request fails as any other would on this store.
            await release(AttemptClaim(key: key, id: id))
            throw unavailable(error)
        }
        if sweeping {
            let everyone: [SQLValue] = [.text(kind), .real(since)]
            await standalone("sweep expired attempts") { database in
                _ = try database.execute("DELETE FROM server_attempt WHERE kind = $1 AND at <= $2", everyone)
            }
        }
        guard others.count >= limit, let oldest = others.last else { return .counted(AttemptClaim(key: key, id: id)) }
        return .refused(retryAfter: retryAfter(oldest: oldest, window: window, now: time))
    }

    func release(_ claim: AttemptClaim) async {
        let parameters: [SQLValue] = [.text(kind), Self.hash(claim.key), .integer(claim.id)]
        await standalone("take back an attempt") { database in
            _ = try database.execute("DELETE FROM server_attempt WHERE kind = $1 AND key_hash = $2 AND id = $3", parameters)
        }
    }

    func reset(_ key: String) async {
        let parameters: [SQLValue] = [.text(kind), Self.hash(key)]
        await standalone("forget attempts") { database in
            _ = try database.execute("DELETE FROM server_attempt WHERE kind = $1 AND key_hash = $2", parameters)
        }
    }

    func contains(_ key: String) async -> Bool {
        let parameters: [SQLValue] = [.text(kind), Self.hash(key), .real(now().timeIntervalSince1970 - window)]
        do {
            try await database.migrate()
            return try await database.withoutTransaction { database in
                try database.row("SELECT 1 FROM server_attempt WHERE kind = $1 AND key_hash = $2 AND at > $3 LIMIT 1", parameters) != nil
            }
        } catch {
            logger.warning("read attempts failed", metadata: ["kind": "\(kind)", "reason": "\(error)"])
            return false
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
