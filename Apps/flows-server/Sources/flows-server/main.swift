import ArgumentParser
import FlowsServer
import Foundation
import Logging

/// `flows-server`: serves the Flows API (docs/api/openapi.yaml) to many users. Every flag has
/// an environment variable, for containers and service managers; a flag wins over its variable.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flows-server",
        abstract: "Serve the Flows API (shared expenses) to many users over HTTP.",
        discussion: """
            Point `flows --server URL` at it. Health: GET /health (the process answers) and \
            GET /ready (the store answers). Stops gracefully on SIGTERM or SIGINT: requests in \
            flight finish, then the store closes. See docs/server.md.
            """
    )

    @Option(help: "The address to listen on (env FLOWS_SERVER_HOST; 0.0.0.0 for every interface).")
    var host: String = ProcessInfo.processInfo.environment["FLOWS_SERVER_HOST"] ?? "127.0.0.1"

    @Option(help: "The port to listen on (env FLOWS_SERVER_PORT; 0 picks a free one).")
    var port: Int = ProcessInfo.processInfo.environment["FLOWS_SERVER_PORT"].flatMap { Int($0) } ?? 8080

    @Option(help: ArgumentHelp(
        "Where the data lives (env FLOWS_DATABASE_URL): postgres://USER:PASSWORD@HOST:PORT/DATABASE (TLS required unless HOST is this machine or ?sslmode=prefer|disable says otherwise); sqlite:PATH for one machine; memory for a trial.",
        valueName: "url"
    ))
    var database: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env LOG_LEVEL).")
    var logLevel: String = ProcessInfo.processInfo.environment["LOG_LEVEL"] ?? "info"

    @Option(help: "Failed password checks allowed per account from one address in 15 minutes (env FLOWS_FAILURES_PER_ACCOUNT).")
    var failuresPerAccount: Int = Self.environment("FLOWS_FAILURES_PER_ACCOUNT") ?? RateLimits.standard.failuresPerAccount

    @Option(help: "Failed sign-ins allowed per account in 15 minutes from all the addresses it has not signed in from in 30 days, together (env FLOWS_FAILURES_PER_ACCOUNT_FROM_NEW_ADDRESSES).")
    var failuresPerAccountFromNewAddresses: Int =
        Self.environment("FLOWS_FAILURES_PER_ACCOUNT_FROM_NEW_ADDRESSES") ?? RateLimits.standard.failuresPerAccountFromNewAddresses

    @Option(help: "Failed sign-ins allowed per client address in 15 minutes (env FLOWS_FAILURES_PER_ADDRESS).")
    var failuresPerAddress: Int = Self.environment("FLOWS_FAILURES_PER_ADDRESS") ?? RateLimits.standard.failuresPerAddress

    @Option(help: "New accounts allowed per client address in 15 minutes (env FLOWS_SIGN_UPS_PER_ADDRESS).")
    var signUpsPerAddress: Int = Self.environment("FLOWS_SIGN_UPS_PER_ADDRESS") ?? RateLimits.standard.signUpsPerAddress

    @Option(help: "Look-ups of accounts by friend code or email allowed per user in 15 minutes (env FLOWS_LOOKUPS_PER_USER).")
    var lookupsPerUser: Int = Self.environment("FLOWS_LOOKUPS_PER_USER") ?? RateLimits.standard.lookupsPerUser

    @Option(help: "Look-ups of accounts allowed per client address in 15 minutes (env FLOWS_LOOKUPS_PER_ADDRESS).")
    var lookupsPerAddress: Int = Self.environment("FLOWS_LOOKUPS_PER_ADDRESS") ?? RateLimits.standard.lookupsPerAddress

    @Option(help: "Pulls without a cursor allowed per user in 15 minutes: each logs everything the user sees again (env FLOWS_FIRST_PULLS_PER_USER).")
    var firstPullsPerUser: Int = Self.environment("FLOWS_FIRST_PULLS_PER_USER") ?? RateLimits.standard.firstPullsPerUser

    @Option(help: ArgumentHelp(
        "How long a session found and a user's balances are kept in memory, in seconds (env FLOWS_CACHE_SECONDS; 0: not kept). Another server sharing the database sees this one's changes within this time.",
        valueName: "seconds"
    ))
    var cacheSeconds: Double = ProcessInfo.processInfo.environment["FLOWS_CACHE_SECONDS"].flatMap { Double($0) } ?? 1

    @Option(help: ArgumentHelp(
        "How long one PostgreSQL statement may run before it is cancelled, in seconds (env FLOWS_STATEMENT_TIMEOUT; 0: as long as it takes). The request is then answered 503.",
        valueName: "seconds"
    ))
    var statementTimeout: Double = ProcessInfo.processInfo.environment["FLOWS_STATEMENT_TIMEOUT"].flatMap { Double($0) } ?? 5

    @Option(help: ArgumentHelp(
        "Where mail goes, and with it whether emails are verified (env FLOWS_MAIL): sendmail:PATH hands each message to a sendmail-compatible program (msmtp, sendmail); outbox:DIR writes each to a file; log writes it to this server's log (a trial: the log shows the codes); off verifies no emails.",
        valueName: "sendmail:PATH|outbox:DIR|log|off"
    ))
    var mail: String = ProcessInfo.processInfo.environment["FLOWS_MAIL"] ?? "log"

    @Option(help: "The sender of the server's mail (env FLOWS_MAIL_FROM).")
    var mailFrom: String = ProcessInfo.processInfo.environment["FLOWS_MAIL_FROM"] ?? "flows@localhost"

    @Option(help: ArgumentHelp(
        "A load balancer or reverse proxy in front of the server, as an address or a range (10.0.0.0/8, fd00::/8); repeat for more (env FLOWS_TRUSTED_PROXIES, separated by commas). The client's address, for the per-address limits, is then read from the X-Forwarded-For these append to. Without one, X-Forwarded-For is ignored.",
        valueName: "range"
    ))
    var trustedProxy: [String] = []

    @Option(help: ArgumentHelp(
        "How long the change log keeps what replicas pull, in days (env FLOWS_CHANGE_LOG_DAYS; docs/sync.md). A replica that last synced longer ago pulls everything again.",
        valueName: "days"
    ))
    var changeLogDays: Int = Self.environment("FLOWS_CHANGE_LOG_DAYS") ?? 30

    @Flag(help: "Serve the app's pages at / for browsers, on the same port (env FLOWS_WEB=1; docs/web.md).")
    var web = ProcessInfo.processInfo.environment["FLOWS_WEB"] == "1"

    @Flag(help: "With --web: send the pages' session cookie over TLS only, for a server behind a proxy that ends TLS (env FLOWS_SECURE_COOKIES=1).")
    var secureCookies = ProcessInfo.processInfo.environment["FLOWS_SECURE_COOKIES"] == "1"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port is from 0 to 65535.") }
        guard Logger.Level(rawValue: logLevel.lowercased()) != nil else {
            throw ValidationError("--log-level is one of trace, debug, info, notice, warning, error, critical.")
        }
        guard [failuresPerAccount, failuresPerAccountFromNewAddresses, failuresPerAddress, signUpsPerAddress, lookupsPerUser, lookupsPerAddress, firstPullsPerUser].allSatisfy({ $0 > 0 }) else {
            throw ValidationError("The rate limits are at least 1.")
        }
        guard cacheSeconds.isFinite, (0...3_600).contains(cacheSeconds) else {
            throw ValidationError("--cache-seconds is from 0 to 3600.")
        }
        guard statementTimeout.isFinite, (0...3_600).contains(statementTimeout) else {
            throw ValidationError("--statement-timeout is from 0 to 3600 seconds.")
        }
        guard (1...3_650).contains(changeLogDays) else { throw ValidationError("--change-log-days is from 1 to 3650.") }
        _ = try trustedProxies()
    }

    /// `--trusted-proxy` ranges, or else `FLOWS_TRUSTED_PROXIES`'s.
    private func trustedProxies() throws -> [AddressRange] {
        let fromFlags = !trustedProxy.isEmpty
        let given = fromFlags
            ? trustedProxy
            : (ProcessInfo.processInfo.environment["FLOWS_TRUSTED_PROXIES"] ?? "").split(separator: ",").map(String.init)
                .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        do {
            return try given.map { text throws(ConfigurationError) in try AddressRange(parsing: text) }
        } catch {
            throw ValidationError("\(fromFlags ? "--trusted-proxy" : "FLOWS_TRUSTED_PROXIES"): \(error.description)")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel.lowercased()) ?? .info
        let output = LogOutput.standardError
        LoggingSystem.bootstrap { label in LineLogHandler(label: label, output: output, level: level) }
        let logger = Logger(label: "flows-server")
        // Whatever ends the run, its last lines are written before the process exits.
        defer { output.flush() }

        guard let url = database ?? ProcessInfo.processInfo.environment["FLOWS_DATABASE_URL"] else {
            throw ValidationError(
                "Say where the data lives: --database postgres://USER:PASSWORD@HOST:PORT/DATABASE (or FLOWS_DATABASE_URL), sqlite:PATH for one machine, or memory for a trial."
            )
        }
        let location: DatabaseLocation
        do { location = try DatabaseLocation(parsing: url) } catch { throw ValidationError(error.description) }
        let mailSetting: MailSetting
        do { mailSetting = try MailSetting(parsing: mail) } catch { throw ValidationError("--mail: \(error.description)") }

        var configuration = ServerConfiguration(
            host: host,
            port: port,
            rateLimits: RateLimits(
                failuresPerAccount: failuresPerAccount, failuresPerAccountFromNewAddresses: failuresPerAccountFromNewAddresses, failuresPerAddress: failuresPerAddress,
                signUpsPerAddress: signUpsPerAddress, lookupsPerUser: lookupsPerUser, lookupsPerAddress: lookupsPerAddress,
                firstPullsPerUser: firstPullsPerUser
            ),
            cacheLifetime: cacheSeconds,
            trustedProxies: try trustedProxies()
        )
        configuration.web = web
        configuration.webSessions.secureCookies = secureCookies
        configuration.changeLogKept = TimeInterval(changeLogDays) * 86_400
        let host = host
        logger.info("starting", metadata: ["database": "\(location)", "mail": "\(mailSetting)"])
        switch mailSetting {
        case .log: logger.warning("mail goes to this log (--mail log): fine for a trial, not for real users; see --mail")
        case .off: logger.warning("emails are not verified (--mail off): anyone may sign up with anyone's email")
        case .outbox, .sendmail: break
        }
        let statementLimit: Duration? = statementTimeout > 0 ? .milliseconds(max(1, Int64((statementTimeout * 1_000).rounded()))) : nil
        try await FlowsServer.run(configuration, services: FlowsServer.services(
                on: location, statementTimeout: statementLimit, verification: mailSetting.codeSender(from: mailFrom, logger: logger)
            ), logger: logger) { port in
            logger.notice("serving", metadata: ["address": "http://\(host):\(port)"])
        }
    }

    private static func environment(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
    }
}
