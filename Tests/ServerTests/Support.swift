import FlowsAPI
import FlowsServer
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import OpenAPIURLSession
import PostgresStore
import ServiceLifecycle
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A flows-server on a free loopback port, on a private in-memory store, for one test.
struct LiveServer: Sendable {
    let url: URL
    let clock: TestClock

    /// Runs `body` against a fresh server (on PostgreSQL at `database` when given), then shuts
    /// it down.
    static func with(
        database: DatabaseURL? = nil,
        limits: RateLimits = RateLimits(
            failuresPerAccount: 1_000, failuresPerAccountFromNewAddresses: 1_000, failuresPerAddress: 1_000, signUpsPerAddress: 1_000,
            lookupsPerUser: 1_000, lookupsPerAddress: 1_000
        ),
        maximumBodyBytes: Int = 2 << 20,
        trustedProxies: [AddressRange] = [],
        idleTimeout: Duration = .seconds(30),
        bodyReadTimeout: Duration = .seconds(30),
        mail: MailSetting = .off,
        seriesRound: Duration = .seconds(3_600),
        web: Bool = false,
        _ body: @Sendable (LiveServer) async throws -> Void
    ) async throws {
        let clock = TestClock()
        let verification = mail.codeSender(from: "flows@example.com", logger: Logger(label: "test"))
        let services = database.map { ServerServices.postgres($0, maximumConnections: 4, fast: true, now: { clock.now }, verification: verification) }
            ?? ServerServices.sqlite(.memory, fast: true, now: { clock.now }, verification: verification)
        var configuration = ServerConfiguration(
            port: 0, maximumBodyBytes: maximumBodyBytes, rateLimits: limits, trustedProxies: trustedProxies, idleTimeout: idleTimeout,
            bodyReadTimeout: bodyReadTimeout
        )
        configuration.seriesRound = seriesRound
        configuration.web = web
        let server = try await RunningServer.start(services: services, configuration: configuration)
        do {
            try await body(LiveServer(url: server.url, clock: clock))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Runs `body` against a fresh server on the embedded store and, when the tests have a
    /// PostgreSQL server, against one on a fresh database there.
    static func onEachStore(
        idleTimeout: Duration = .seconds(30), web: Bool = false, _ body: @Sendable (LiveServer) async throws -> Void
    ) async throws {
        try await with(idleTimeout: idleTimeout, web: web, body)
        guard let url = TestPostgres.url else { return }
        let databases = Databases(admin: try DatabaseURL(url))
        do {
            try await with(database: try await databases.fresh(), idleTimeout: idleTimeout, web: web, body)
        } catch {
            await databases.dropAll()
            throw error
        }
        await databases.dropAll()
    }

    /// The generated client, signed in with `token` (or not at all).
    func client(token: String? = nil) -> Client {
        Client(
            serverURL: url, configuration: FlowsServer.coding, transport: URLSessionTransport(),
            middlewares: token.map { [BearerToken(token: $0)] } ?? []
        )
    }

    /// A new account, signed in: its client and id.
    func signUp(_ name: String, email: String? = nil) async throws -> Member {
        let email = email ?? "\(name.lowercased())@example.com"
        let session = try await client().signUp(body: .json(.init(email: email, displayName: name, password: "correct horse"))).created.body.json
        return Member(id: session.user.id, token: session.token, client: client(token: session.token), user: session.user)
    }

    /// A raw request, for what the generated client would never send: `path` may carry a query;
    /// `headers` are sent as they are (an `Accept` there replaces URLSession's own).
    func raw(
        _ method: String, _ path: String, token: String? = nil, body: Data? = nil, contentType: String? = "application/json",
        headers: [String: String] = [:]
    ) async throws -> RawResponse {
        guard let target = URL(string: url.absoluteString + path) else { throw ServerTestError("not a path: \(path)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        if body != nil, let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let response = response as? HTTPURLResponse else { throw ServerTestError("no HTTP response to \(method) \(path)") }
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields { fields[name.lowercased()] = value }
        return RawResponse(status: response.statusCode, headers: fields, body: data)
    }

    /// A raw request with a JSON body written as text.
    func raw(_ method: String, _ path: String, token: String? = nil, json: String) async throws -> RawResponse {
        try await raw(method, path, token: token, body: Data(json.utf8))
    }
}

/// The statuses of `count` requests sent all at once (`request` is given each one's index), in
/// the order they were answered.
func statusesAtOnce(_ count: Int, _ request: @escaping @Sendable (Int) async throws -> RawResponse) async throws -> [Int] {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<count {
            group.addTask { try await request(index).status }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
}

/// An answer to a raw request.
struct RawResponse: Sendable, CustomStringConvertible {
    let status: Int
    /// Header fields by lower-case name.
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object, or nil.
    var object: [String: any Sendable]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: any Sendable]
    }

    /// The `error` code of a Problem body, or nil when the body is not one.
    var problemCode: String? {
        guard headers["content-type"]?.hasPrefix("application/json") == true, let object,
            let error = object["error"] as? String, let message = object["message"] as? String, !message.isEmpty
        else { return nil }
        return error
    }

    var description: String { "\(status) \(text.prefix(300))" }
}

/// flows-server running in this process on a free loopback port, until stopped.
final class RunningServer: Sendable {
    let url: URL
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(url: URL, group: ServiceGroup, task: Task<Void, any Error>) {
        self.url = url
        self.group = group
        self.task = task
    }

    static func start(
        services: ServerServices, configuration: ServerConfiguration = ServerConfiguration(port: 0),
        logger: Logger = Logger(label: "flows-server-test") { _ in SwiftLogNoOpLogHandler() }
    ) async throws -> RunningServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = try FlowsServer.application(configuration, services: services, logger: logger) { port in continuation.yield(port) }
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), let url = URL(string: "http://127.0.0.1:\(port)") else {
            task.cancel()
            throw ServerTestError("the server did not start")
        }
        return RunningServer(url: url, group: group, task: task)
    }

    /// Stops taking requests and waits until the server has shut down: gracefully, as
    /// flows-server does on SIGTERM, so that a connection accepted as it stops is still closed
    /// by the server (cancelling the serving task drops such a connection unclosed, which NIO
    /// traps on). A server still busy after 10 seconds (a stream left open) is cancelled.
    func stop() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let deadline = Task {
            try await Task.sleep(for: .seconds(10))
            task.cancel()
        }
        _ = await task.result
        deadline.cancel()
    }
}

/// Someone signed up on the test server.
struct Member: Sendable {
    let id: String
    let token: String
    let client: Client
    let user: Components.Schemas.User

    /// Asks `other` to be friends, by their email, and has them accept: how two become friends.
    func befriend(_ other: Member) async throws {
        let asked = try await client.addFriend(body: .json(.email(.init(by: .email, email: other.user.email)))).created.body.json
        try #require(asked.status == .requested, "\(user.displayName) asked \(other.user.displayName)")
        _ = try await other.client.acceptFriendRequest(path: .init(personId: id)).ok
    }
}

/// The server's clock, moved by tests.
final class TestClock: Sendable {
    private let time = Mutex<Date>(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { time.withLock { $0 } }
    func advance(days: Double) { time.withLock { $0 += days * 86_400 } }
    func advance(seconds: Double) { time.withLock { $0 += seconds } }
}

/// Sends `Authorization: Bearer TOKEN`.
struct BearerToken: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

struct ServerTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The code of a refusal, whichever documented status it came with.
func code(of problem: Components.Schemas.Problem) -> String { problem.error.rawValue }

extension Components.Schemas.ExpenseDraft {
    /// An expense split equally among `people`, paid by `payer`.
    static func dinner(_ minorUnits: Int64, paidBy payer: String, among people: [String], description: String = "Dinner") -> Self {
        .init(
            description: description, amount: .init(minorUnits: minorUnits, currency: "EUR"), day: "2026-11-20", category: .food,
            payers: [.init(user: payer, amount: .init(minorUnits: minorUnits, currency: "EUR"))], participants: people,
            rule: .equal(.init(mode: .equal))
        )
    }
}

extension LiveServer {
    var port: Int { url.port ?? 0 }
}

/// A plain TCP connection to the test server, read as it arrives: for streams, which
/// URLSession on Linux would wait out. The socket is non-blocking and waits are pauses of the
/// task: the server runs in this process, on the same few threads as the tests, so a thread
/// blocked on a socket here could be the one the server needs to answer.
final class RawConnection {
    private let socket: Int32
    private var buffer: [UInt8] = []
    /// How long a read waits for data, or a send for room, before it fails.
    private let quiet: Duration = .seconds(10)

    init(port: Int) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw ServerTestError("no socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A loopback connect is answered by the kernel, not by the server's threads.
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw ServerTestError("could not connect to port \(port)")
        }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(socket) }

    func send(_ text: String) async throws {
        try await send(bytes: Array(text.utf8))
    }

    /// Sends `bytes` whole; a peer that closed is an error, never SIGPIPE.
    func send(bytes: [UInt8]) async throws {
        var sent = 0
        var waited: Duration = .zero
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { systemSend(socket, $0.baseAddress! + sent, $0.count - sent) }
            if count > 0 {
                sent += count
                waited = .zero
            } else if count < 0, errno == EAGAIN || errno == EINTR, waited < quiet {
                try await pause(&waited)
            } else {
                throw ServerTestError("could not send (errno \(errno))")
            }
        }
    }

    /// Reads one whole response with a `Content-Length`: its status, its header fields by
    /// lower-case name and its body.
    func response() async throws -> RawResponse {
        let head = try await read(until: "\r\n\r\n")
        let lines = head.components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = fields["content-length"].flatMap { Int($0) } ?? 0
        while buffer.count < length {
            guard try await receive() else { throw ServerTestError("the connection ended within a body") }
        }
        let body = Data(buffer.prefix(length))
        buffer.removeFirst(length)
        return RawResponse(status: status, headers: fields, body: body)
    }

    /// What arrives up to and including `end` (found after `start`, when given): fails after 10 s
    /// without data.
    func read(until end: String, after start: String? = nil) async throws -> String {
        while true {
            let text = String(decoding: buffer, as: UTF8.self)
            let from = start.flatMap { text.range(of: $0)?.upperBound } ?? (start == nil ? text.startIndex : nil)
            if let from, let found = text.range(of: end, range: from..<text.endIndex) {
                let taken = String(text[..<found.upperBound])
                buffer.removeFirst(taken.utf8.count)
                return taken
            }
            guard try await receive() else { throw ServerTestError("the connection ended or went quiet; read so far: \(text)") }
        }
    }

    /// Appends what arrives next to the buffer: false when the peer closed or nothing came for
    /// 10 s.
    private func receive() async throws -> Bool {
        var waited: Duration = .zero
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            guard count < 0, errno == EAGAIN || errno == EINTR, waited < quiet else { return false }
            try await pause(&waited)
        }
    }

    /// Whether the server closes the connection within `time`, whatever it sends first.
    func closed(within time: Duration) async throws -> Bool {
        var waited: Duration = .zero
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while waited < time {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                continue
            }
            guard errno == EAGAIN || errno == EINTR else { return true }
            try await pause(&waited)
        }
        return false
    }

    private func pause(_ waited: inout Duration) async throws {
        try await Task.sleep(for: .milliseconds(2))
        waited += .milliseconds(2)
    }
}

/// The PostgreSQL server of the tests, when there is one (Scripts/test starts one).
enum TestPostgres {
    static let url = ProcessInfo.processInfo.environment["FLOWS_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
}

/// Databases made for tests on the test server, each with a unique name, dropped at the end.
actor Databases {
    private let admin: ServerDatabase
    private let url: DatabaseURL
    private var made: [String] = []

    init(admin url: DatabaseURL) {
        self.url = url
        admin = ServerDatabase(url: url, maximumConnections: 1)
    }

    func fresh() async throws -> DatabaseURL {
        let name = "flows_golden_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try await admin.withoutTransaction { try $0.execute("CREATE DATABASE \(name) ENCODING 'UTF8' TEMPLATE template0") }
        made.append(name)
        return url.database(name)
    }

    func dropAll() async {
        for name in made {
            _ = try? await admin.withoutTransaction { try $0.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        }
        made = []
        await admin.shutdown()
    }
}

/// `send(2)` without SIGPIPE when the peer has closed.
private func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.send(socket, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    Darwin.send(socket, bytes, count, 0)
    #endif
}
