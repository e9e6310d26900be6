import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

/// The open connections to one database that are not in use.
///
/// How many are in use at once is bounded by the threads that run transactions (one connection
/// each), so taking one never waits: it is an idle one, or a new one.
final class ConnectionPool: Sendable {
    private let url: DatabaseURL
    private let capacity: Int
    private let connectTimeout: Duration
    private let statementTimeout: Duration?
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let state = Mutex(State())
    private let ids = Atomic<Int>(0)

    private struct State {
        var idle: [PostgresConnection] = []
        var closed = false
    }

    init(url: DatabaseURL, capacity: Int, connectTimeout: Duration, statementTimeout: Duration?, eventLoopGroup: any EventLoopGroup, logger: Logger) {
        self.url = url
        self.capacity = capacity
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    deinit {
        // Let go without close() (a database not shut down): each idle connection is closed, and
        // kept until it is (a connection must not be let go open).
        for connection in state.withLock({ $0.idle }) {
            let closing: EventLoopFuture<Void> = connection.close()
            closing.whenComplete { _ in _ = connection }
        }
    }

    /// An idle connection, or a new one; blocks the calling thread (never an event loop's) while
    /// connecting.
    func take() throws(ServerDatabaseError) -> PostgresConnection {
        if let connection = try takeIdle() { return connection }
        let future: EventLoopFuture<PostgresConnection>
        do {
            future = try connect(timeout: connectTimeout)
        } catch {
            throw ServerDatabaseError(error)
        }
        do {
            return try future.wait()
        } catch {
            throw unreachable(error)
        }
    }

    /// The same from async code (the readiness probe), without a thread of the pool.
    func takeAsync(timeout: Duration) async throws(ServerDatabaseError) -> PostgresConnection {
        if let connection = try takeIdle() { return connection }
        do {
            return try await connect(timeout: min(timeout, connectTimeout)).get()
        } catch {
            throw unreachable(error)
        }
    }

    /// Gives a connection back; one that is broken, not wanted (the pool is full or closed), is
    /// closed, and the calling thread waits for that (a connection must be closed before it goes).
    func giveBack(_ connection: PostgresConnection, reusable: Bool) {
        let kept = reusable && !connection.isClosed && state.withLock { state in
            guard !state.closed, state.idle.count < capacity else { return false }
            state.idle.append(connection)
            return true
        }
        if !kept { try? connection.close().wait() }
    }

    /// The same from async code.
    func giveBackAsync(_ connection: PostgresConnection, reusable: Bool) async {
        let kept = reusable && !connection.isClosed && state.withLock { state in
            guard !state.closed, state.idle.count < capacity else { return false }
            state.idle.append(connection)
            return true
        }
        if !kept { try? await connection.close() }
    }

    /// Closes every idle connection; connections given back afterwards are closed too.
    func close() async {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { try? await connection.close() }
    }

    private func takeIdle() throws(ServerDatabaseError) -> PostgresConnection? {
        let (connection, closed) = state.withLock { state in
            // A connection the server closed while it sat idle is dropped (it is closed already).
            while let last = state.idle.popLast() {
                if !last.isClosed { return (Optional(last), state.closed) }
            }
            return (nil, state.closed)
        }
        guard !closed else { throw .unavailable("it was shut down") }
        return connection
    }

    private func connect(timeout: Duration) throws -> EventLoopFuture<PostgresConnection> {
        let tls: PostgresConnection.Configuration.TLS = switch url.tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls
        )
        configuration.options.connectTimeout = TimeAmount(timeout)
        if let statementTimeout {
            // Set at the connection's start, for every statement on it (in milliseconds, at least 1).
            let milliseconds = max(1, TimeAmount(statementTimeout).nanoseconds / 1_000_000)
            configuration.options.additionalStartupParameters.append(("statement_timeout", String(milliseconds)))
        }
        let id = ids.wrappingAdd(1, ordering: .relaxed).newValue
        return PostgresConnection.connect(on: eventLoopGroup.next(), configuration: configuration, id: id, logger: logger)
    }

    private func unreachable(_ error: any Error) -> ServerDatabaseError {
        switch ServerDatabaseError(error) {
        case .unavailable(let reason): .unavailable("cannot connect to \(url): \(reason)")
        case let other: other
        }
    }
}
