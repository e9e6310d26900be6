import Crypto
import FlowsAPI
import FlowsWire
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import PostgresStore
import Primitives
import Synchronization

/// A change sent again with the same `Idempotency-Key` (a client retrying an answer it lost, a
/// push sent again, a replica pushing a change it first sent alone under that key) gets the first
/// answer again, and writes nothing: keys are kept per user for 24 hours. Every change a push may
/// carry is kept so when it comes with a key; a look-up, or what makes or ends a session, is not
/// (``PushedOperations/neverPushed``).
///
/// The key is taken before the request runs; a repeat that comes while the first still runs is
/// `409 idempotency-key-in-use`, one with another body `422 idempotency-key-reused`. Only a
/// success is kept: a refused request gives its key back, so the retry is checked again.
struct IdempotencyMiddleware: ServerMiddleware {
    static let header = HTTPField.Name("Idempotency-Key")
    /// The longest key taken.
    static let longestKey = 255

    let keys: any IdempotencyKeys
    let maximumBodyBytes: Int

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // Every operation of a push is such a change: a push sent again applies nothing twice.
        guard request.method != .get, !PushedOperations.neverPushed.contains(operationID), let name = Self.header, let key = request.headerFields[name],
            let user = RequestScope.session?.user.id
        else {
            return try await next(request, body, metadata)
        }
        guard (1...Self.longestKey).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw APIProblem.invalidRequest("Idempotency-Key is 1 to \(Self.longestKey) visible ASCII characters.", field: "Idempotency-Key")
        }
        let bytes: [UInt8] = if let body { Array(try await ArraySlice<UInt8>(collecting: body, upTo: maximumBodyBytes)) } else { [] }
        var hasher = SHA256()
        hasher.update(data: Data((operationID + "\n" + (request.path ?? "") + "\n").utf8))
        hasher.update(data: bytes)
        let fingerprint = Array(hasher.finalize())
        switch try await keys.begin(user: user, key: key, fingerprint: fingerprint) {
        case .replay(let status, let answer):
            var response = HTTPResponse(status: .init(code: status))
            response.headerFields[.contentType] = "application/json; charset=utf-8"
            if let replayed = HTTPField.Name("Idempotent-Replayed") { response.headerFields[replayed] = "true" }
            return (response, HTTPBody(answer))
        case .inProgress:
            throw APIProblem(.conflict, .idempotencyKeyInUse, "A request with this Idempotency-Key is still being answered; try again in a moment.")
        case .reused:
            throw APIProblem(
                .unprocessableContent, .idempotencyKeyReused, "This Idempotency-Key was used for another request; each change needs its own."
            )
        case .begun:
            let response: HTTPResponse
            let answer: [UInt8]
            do {
                let (head, body) = try await next(request, bytes.isEmpty && body == nil ? nil : HTTPBody(bytes), metadata)
                response = head
                answer = if let body { Array(try await ArraySlice<UInt8>(collecting: body, upTo: 16 << 20)) } else { [] }
            } catch {
                await keys.abandon(user: user, key: key)
                throw error
            }
            if (200..<300).contains(response.status.code) {
                await keys.complete(user: user, key: key, status: response.status.code, body: answer)
            } else {
                await keys.abandon(user: user, key: key)
            }
            return (response, HTTPBody(answer))
        }
    }
}

/// What a key is, when a request takes it.
enum IdempotencyState: Sendable, Equatable {
    /// New (or expired): the request runs, holding the key.
    case begun
    /// Answered before: the answer to send again.
    case replay(status: Int, body: [UInt8])
    /// Another request holds it now.
    case inProgress
    /// Used for a request with another body or path.
    case reused
}

/// Where keys and their answers are kept: in the database servers share, or in memory.
protocol IdempotencyKeys: Sendable {
    func begin(user: UserID, key: String, fingerprint: [UInt8]) async throws(APIProblem) -> IdempotencyState
    func complete(user: UserID, key: String, status: Int, body: [UInt8]) async
    func abandon(user: UserID, key: String) async
}

/// How long keys live, and how long a request may hold one before another may take it over
/// (a server that stopped while answering).
enum IdempotencyPolicy {
    static let lifetime: Double = 24 * 60 * 60
    static let lease: Double = 2 * 60
}

/// Keys in this process's memory: a server on its own store.
final class MemoryIdempotencyKeys: IdempotencyKeys {
    private struct Entry {
        var fingerprint: [UInt8]
        var at: Double
        /// Nil while the request runs.
        var answer: (status: Int, body: [UInt8])?
    }

    private let entries = Mutex([String: Entry]())
    private let sweeps = Mutex(SweepSchedule())
    private let now: @Sendable () -> Double

    init(now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.now = now
    }

    private static func id(_ user: UserID, _ key: String) -> String { user.rawValue + "\n" + key }

    func begin(user: UserID, key: String, fingerprint: [UInt8]) async throws(APIProblem) -> IdempotencyState {
        let time = now()
        let sweeping = sweeps.withLock { $0.isDue() }
        return entries.withLock { entries in
            if sweeping { entries = entries.filter { time - $0.value.at < IdempotencyPolicy.lifetime } }
            let id = Self.id(user, key)
            if let entry = entries[id], time - entry.at < IdempotencyPolicy.lifetime {
                guard entry.fingerprint == fingerprint else { return .reused }
                if let answer = entry.answer { return .replay(status: answer.status, body: answer.body) }
                if time - entry.at < IdempotencyPolicy.lease { return .inProgress }
            }
            entries[id] = Entry(fingerprint: fingerprint, at: time, answer: nil)
            return .begun
        }
    }

    func complete(user: UserID, key: String, status: Int, body: [UInt8]) async {
        entries.withLock { $0[Self.id(user, key)]?.answer = (status, body) }
    }

    func abandon(user: UserID, key: String) async {
        _ = entries.withLock { $0.removeValue(forKey: Self.id(user, key)) }
    }
}

/// Keys in the PostgreSQL database every server shares, so that a retry that reaches another
/// server behind the load balancer gets the same answer. Keys are kept as their SHA-256.
final class SharedIdempotencyKeys: IdempotencyKeys {
    private let database: ServerDatabase
    private let now: @Sendable () -> Date
    private let logger = Logger(label: "flows-server.idempotency")
    private let sweeps = Mutex(SweepSchedule())

    static let migrations = [
        PostgresMigration(
            "server.postgres.v3.idempotency-keys",
            statements: [
                """
                CREATE TABLE server_idempotency (
                    user_id text NOT NULL,
                    key_hash bytea NOT NULL,
                    fingerprint bytea NOT NULL,
                    at double precision NOT NULL,
                    status integer,
                    body bytea,
                    PRIMARY KEY (user_id, key_hash)
                )
                """,
                "CREATE INDEX server_idempotency_by_time ON server_idempotency (at)",
            ]
        ),
    ]

    init(database: ServerDatabase, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    private static func hash(_ key: String) -> SQLValue { .bytes(Array(SHA256.hash(data: Data(key.utf8)))) }

    func begin(user: UserID, key: String, fingerprint: [UInt8]) async throws(APIProblem) -> IdempotencyState {
        let time = now().timeIntervalSince1970
        let (id, hash) = (SQLValue.text(user.rawValue), Self.hash(key))
        let sweeping = sweeps.withLock { $0.isDue() }
        do {
            try await database.migrate()
            if sweeping {
                let before: [SQLValue] = [.real(time - IdempotencyPolicy.lifetime)]
                _ = try await database.withoutTransaction { try $0.execute("DELETE FROM server_idempotency WHERE at <= $1", before) }
            }
            return try await database.write { db -> IdempotencyState in
                if let row = try db.row("SELECT fingerprint, at, status, body FROM server_idempotency WHERE user_id = $1 AND key_hash = $2", [id, hash]),
                    time - (try row.real(1)) < IdempotencyPolicy.lifetime
                {
                    guard try row.optionalBytes(0) == fingerprint else { return .reused }
                    if let status = try row.optionalInteger(2) {
                        return .replay(status: Int(truncatingIfNeeded: status), body: try row.optionalBytes(3) ?? [])
                    }
                    if time - (try row.real(1)) < IdempotencyPolicy.lease { return .inProgress }
                }
                _ = try db.execute(
                    """
                    INSERT INTO server_idempotency (user_id, key_hash, fingerprint, at) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (user_id, key_hash) DO UPDATE SET fingerprint = $3, at = $4, status = NULL, body = NULL
                    """,
                    [id, hash, SQLValue.bytes(fingerprint), SQLValue.real(time)]
                )
                return .begun
            }
        } catch {
            throw .storeUnavailable("idempotency keys: \(error)")
        }
    }

    func complete(user: UserID, key: String, status: Int, body: [UInt8]) async {
        let values: [SQLValue] = [.text(user.rawValue), Self.hash(key), .integer(Int64(status)), .bytes(body)]
        await standalone("keep an answer") { db in
            _ = try db.execute("UPDATE server_idempotency SET status = $3, body = $4 WHERE user_id = $1 AND key_hash = $2", values)
        }
    }

    func abandon(user: UserID, key: String) async {
        let values: [SQLValue] = [.text(user.rawValue), Self.hash(key)]
        await standalone("give a key back") { db in
            _ = try db.execute("DELETE FROM server_idempotency WHERE user_id = $1 AND key_hash = $2 AND status IS NULL", values)
        }
    }

    private func standalone(_ what: String, _ body: @escaping @Sendable (ServerTransaction) throws -> Void) async {
        do {
            try await database.withoutTransaction(body)
        } catch {
            logger.warning("\(what) failed", metadata: ["reason": "\(error)"])
        }
    }
}
