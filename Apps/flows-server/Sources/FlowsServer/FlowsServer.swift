import DataChanges
import Expenses
import FlowWeb
import FlowsAPI
import Accounts
import Foundation
import Hummingbird
import LocalStore
import Primitives
import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import PostgresStore
import ServiceLifecycle

/// How flows-server runs: where it listens, where the data lives, and its limits.
public struct ServerConfiguration: Sendable {
    /// The address to listen on (`127.0.0.1`: this machine only; `0.0.0.0`: every interface).
    public var host: String
    /// The port; 0 picks a free one (tests), which ``FlowsServer/run(_:services:logger:onRunning:)`` reports.
    public var port: Int
    /// The largest request body taken (2 MiB: an avatar picture of 1 MiB in base64 fits).
    public var maximumBodyBytes: Int
    public var rateLimits: RateLimits
    /// How long, in seconds, a session found and a user's balances are kept in memory (0: not
    /// at all). A change through this server is seen at once; one through another server that
    /// shares the database, within this time.
    public var cacheLifetime: TimeInterval
    /// The load balancers and reverse proxies in front of the server, whose `X-Forwarded-For`
    /// says who the client is (see ``ClientAddresses``). None: the client is the connection's
    /// peer.
    public var trustedProxies: [AddressRange]
    /// How long a connection may stay open with no request under way (a request's head read
    /// slowly included) before the server closes it.
    public var idleTimeout: Duration
    /// How long a request's body may take to arrive whole (60 s: 2 MiB at 35 KB/s); past it,
    /// the connection is closed.
    public var bodyReadTimeout: Duration
    /// How often the server makes the repeating expenses due (by today in UTC) of every series,
    /// whether or not anyone in them asks: hourly. A client's sign-in makes those due by its
    /// own today.
    public var seriesRound: Duration = .seconds(3_600)
    /// How long the change log keeps what it logged for replicas' pulls (docs/sync.md): 30 days.
    /// A replica whose cursor is older pulls everything again.
    public var changeLogKept: TimeInterval = 30 * 86_400
    /// How often the change log is pruned of what is older: hourly.
    public var changeLogRound: Duration = .seconds(3_600)
    /// Whether the app's pages are served at `/` (docs/web.md): off unless asked for.
    public var web = false
    /// The browser sessions' limits, and whether their cookies go over TLS only.
    public var webSessions = WebSessions.Configuration()

    public init(
        host: String = "127.0.0.1", port: Int = 8080, maximumBodyBytes: Int = 2 << 20, rateLimits: RateLimits = .standard,
        cacheLifetime: TimeInterval = 1, trustedProxies: [AddressRange] = [], idleTimeout: Duration = .seconds(30),
        bodyReadTimeout: Duration = .seconds(60)
    ) {
        self.idleTimeout = idleTimeout
        self.bodyReadTimeout = bodyReadTimeout
        self.host = host
        self.port = port
        self.maximumBodyBytes = maximumBodyBytes
        self.rateLimits = rateLimits
        self.cacheLifetime = cacheLifetime
        self.trustedProxies = trustedProxies
    }
}

/// Where the server's data lives, as `--database` names it.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    /// A PostgreSQL database, which several servers may share.
    case postgres(DatabaseURL)
    /// The embedded SQLite store in one file: for one machine.
    case sqlite(URL)
    /// A private in-memory store, gone when the server stops: for trials and tests.
    case memory

    /// Reads `postgres://USER:PASSWORD@HOST:PORT/DATABASE`, `sqlite:PATH` (or `sqlite://PATH`)
    /// and `memory`.
    public init(parsing text: String) throws(ConfigurationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("postgres://") || trimmed.hasPrefix("postgresql://") {
            do throws(DatabaseURLError) { self = .postgres(try DatabaseURL(trimmed)) } catch {
                throw ConfigurationError("\(Self.redacted(trimmed)): \(error)")
            }
        } else if trimmed == "memory" || trimmed == "sqlite::memory:" {
            self = .memory
        } else if trimmed.hasPrefix("sqlite:") {
            var path = String(trimmed.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else { throw ConfigurationError("sqlite: needs a file path, as in sqlite:/var/lib/flows/flows.sqlite") }
            self = .sqlite(URL(fileURLWithPath: path))
        } else {
            throw ConfigurationError(
                "\(Self.redacted(trimmed)) is not a database this server knows: use postgres://USER:PASSWORD@HOST:PORT/DATABASE, sqlite:PATH for one machine, or memory for a trial."
            )
        }
    }

    public var description: String {
        switch self {
        case .postgres(let url): "\(url)"
        case .sqlite(let url): "sqlite:\(url.path)"
        case .memory: "memory"
        }
    }

    /// The text without a password, for messages and logs.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let scheme = text.range(of: "://"), scheme.upperBound < at else { return text }
        let credentials = text[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return text.replacingCharacters(in: colon..<at, with: ":***")
    }
}

/// A configuration that cannot work, in words that say what to change.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// flows-server: the contract of docs/api/openapi.yaml on the domain services.
public enum FlowsServer {
    /// How JSON is written: compact, keys sorted, instants to the millisecond (the same for the
    /// clients, so an instant comes back as it went).
    public static let coding = Configuration(dateTranscoder: .instants, jsonEncodingOptions: [.sortedKeys])

    /// The services on `location`'s store; on PostgreSQL, each statement cancelled after
    /// `statementTimeout` (nil: never). Emails are verified with codes `verification` sends
    /// (nil: none verified).
    public static func services(
        on location: DatabaseLocation, statementTimeout: Duration? = .seconds(5), verification: (any VerificationCodeSender)? = nil
    ) -> ServerServices {
        switch location {
        case .postgres(let url): ServerServices.postgres(url, statementTimeout: statementTimeout, verification: verification)
        case .sqlite(let url): ServerServices.sqlite(.file(url), verification: verification)
        case .memory: ServerServices.sqlite(.memory, verification: verification)
        }
    }

    /// The HTTP application: the router with every operation, its middlewares and the store's
    /// lifecycle.
    public static func application(
        _ configuration: ServerConfiguration,
        services: ServerServices,
        logger: Logger,
        onRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let router = Router(context: ServerRequestContext.self)
        let routes = RouteTable()
        router.add(middleware: RequestMiddleware(
                maximumBodyBytes: configuration.maximumBodyBytes, bodyReadTimeout: configuration.bodyReadTimeout,
                clients: ClientAddresses(trustedProxies: configuration.trustedProxies), routes: routes
            ))
        let limits = RequestLimits(configuration.rateLimits, shared: services.shared, now: services.now)
        let lifetime = max(0, configuration.cacheLifetime)
        let sessions = ShortLivedCache<String, StoredSession>(lifetime: lifetime, now: services.now)
        let balances = ShortLivedCache<UserID, BalancesCacheMiddleware.CachedAnswer>(lifetime: lifetime, now: services.now)
        services.balanceChanges.observe { people in balances.invalidate(people) }
        router.add(middleware: CachedBalancesRoute(sessions: sessions, answers: balances))
        let transport = RecordingTransport(router: router, table: routes)
        let middlewares: [any ServerMiddleware] = [
            ProblemMiddleware(), MediaTypeMiddleware(), SessionMiddleware(services: services, sessions: sessions),
            IdempotencyMiddleware(
                keys: services.shared.map { SharedIdempotencyKeys(database: $0, now: services.now) }
                    ?? MemoryIdempotencyKeys(now: { services.now().timeIntervalSince1970 }),
                maximumBodyBytes: configuration.maximumBodyBytes
            ),
            BalancesCacheMiddleware(answers: balances),
        ]
        let endpoints = EndpointRoutes(transport: transport, middlewares: middlewares, pushed: services.pushed)
        // The operations that are one call of their service (Scripts/generate-services), then the rest.
        try endpoints.contract(services)
        try endpoints.accounts(services, limits: limits)
        try endpoints.friends(services.friends, limits: limits)
        try endpoints.groups(services.groups)
        try endpoints.sync(services.sync, limits: limits)
        try endpoints.preferences(services.preferences)
        try endpoints.expenses(services.expenses)
        // The server's expenses keep series; the contract serves them from the same service.
        if let recurring = services.expenses as? any RecurringExpenses { try endpoints.series(recurring) }
        try endpoints.health(services)
        // A page's wait for changes ends before its quiet connection would be closed.
        var webSessions = configuration.webSessions
        webSessions.eventWait = min(webSessions.eventWait, configuration.idleTimeout * 0.8)
        let web = configuration.web ? ServerWeb.sessions(services, limits: limits, configuration: webSessions) : nil
        if let web { ServerWeb.route(router, to: web) }
        return Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "flows-server"),
            services: [StoreLifecycle(services: services)]
                + ((services.expenses as? any DueOccurrencesRound).map { [SeriesRound(round: $0, every: configuration.seriesRound, now: services.now, logger: logger)] } ?? [])
                + (web.map { [WebSessionSweep(sessions: $0)] } ?? [])
                + [ChangeLogRound(log: services.changeLog, kept: configuration.changeLogKept, every: configuration.changeLogRound, now: services.now, logger: logger)],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
    }

    /// Serves until SIGTERM or SIGINT, then finishes the requests in flight, stops taking new
    /// ones and closes the store.
    public static func run(
        _ configuration: ServerConfiguration,
        services: ServerServices,
        logger: Logger,
        onRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) async throws {
        let application = try application(configuration, services: services, logger: logger, onRunning: onRunning)
        let group = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await group.run()
    }
}

/// Closes the store once the server has shut down (services stop in reverse order: the HTTP
/// server first).
private struct StoreLifecycle: Service {
    let services: ServerServices

    func run() async throws {
        try? await gracefulShutdown()
        await services.close()
    }
}

/// Makes the repeating expenses due, every `every`, until the server shuts down: the first round
/// as it starts.
private struct SeriesRound: Service {
    let round: any DueOccurrencesRound
    let every: Duration
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        let utc = TimeZone(identifier: "UTC") ?? .gmt
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do throws(ExpensesError) {
                    let made = try await round.createAllDueOccurrences(through: Day.today(at: now(), in: utc))
                    if made > 0 { logger.info("repeating expenses made", metadata: ["count": "\(made)"]) }
                } catch {
                    logger.warning("repeating expenses not made this round", metadata: ["reason": "\(error.message)"])
                }
                try? await Task.sleep(for: every)
            }
        }
    }
}

/// Prunes the change log of what it logged longer ago than it keeps, every `every`.
private struct ChangeLogRound: Service {
    let log: any ChangeLogStore
    let kept: TimeInterval
    let every: Duration
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let pruned = try await log.prune(before: now().timeIntervalSince1970 - kept)
                    if pruned > 0 { logger.info("change log pruned", metadata: ["rows": "\(pruned)"]) }
                } catch {
                    logger.warning("change log not pruned this round", metadata: ["reason": "\(error)"])
                }
                try? await Task.sleep(for: every)
            }
        }
    }
}
