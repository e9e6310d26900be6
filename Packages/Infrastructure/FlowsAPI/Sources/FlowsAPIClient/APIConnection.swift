import FlowsAPI
import FlowsWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A connection to flows-server: calls the contract's operations (``Endpoint``s) on libcurl,
/// sending the current session's token, with every failure turned into a ``RemoteFailure``.
public struct APIConnection: Sendable {
    /// How requests travel (libcurl, or a test's stand-in).
    public typealias Transport = ClientTransport

    /// The server, as the user named it.
    public let server: URL
    private let transport: any ClientTransport
    private let middlewares: [any ClientMiddleware]
    /// What the app says it is (`User-Agent`): the server shows it in the user's sessions.
    private let userAgent: String
    /// The current session's token, if any.
    private let token: @Sendable () -> String?
    private let writeKey: @Sendable () -> String?

    /// - Parameters:
    ///   - token: the current session's token, read before every request (nil: none).
    ///   - transport: how requests travel; libcurl by default (``CurlTransport``), with a 20 s
    ///     limit per request.
    ///   - userAgent: what the app is, sent with every request.
    /// `writeKey` gives the key a change is to be sent under, when its caller chose one (a
    /// replica, which would queue the change under it): nil for the connection's own.
    public init(
        server: URL, token: @escaping @Sendable () -> String?, transport: (any ClientTransport)? = nil, userAgent: String = "flows",
        writeKey: @escaping @Sendable () -> String? = { nil }
    ) {
        self.server = server
        self.userAgent = userAgent
        self.token = token
        self.writeKey = writeKey
        self.transport = transport ?? CurlTransport(timeout: 20)
        middlewares = [ProblemReader(), SessionToken(token: token)]
    }

    /// Runs one exchange with the server, with every failure a ``RemoteFailure``.
    private func attempt<T>(_ work: () async throws -> T) async throws(RemoteFailure) -> T {
        do { return try await work() } catch { throw failure(error) }
    }

    /// `error` as a ``RemoteFailure``: a refusal as it came, anything else no answer.
    private func failure(_ error: any Error) -> RemoteFailure {
        error as? RemoteFailure ?? .unreachable(Self.describe(error, server: server))
    }

    /// Calls one operation of the contract with `input`, as the signed-in user; a refusal or no
    /// answer is the operation's area error, by its table.
    public func send<Input, Output, Failure>(_ endpoint: Endpoint<Input, Output, Failure>, _ input: Input) async throws(Failure) -> Output {
        do throws(RemoteFailure) { return try await call(endpoint, input) } catch { throw endpoint.problems.failure(error) }
    }

    public func send<Output, Failure>(_ endpoint: Endpoint<Void, Output, Failure>) async throws(Failure) -> Output {
        try await send(endpoint, ())
    }

    /// The answer, or nil when the server refuses with `absent` (a look-up that found nothing).
    public func send<Input, Output, Failure>(
        _ endpoint: Endpoint<Input, Output, Failure>, _ input: Input, nilFor absent: APIProblem.Code
    ) async throws(Failure) -> Output? {
        do throws(RemoteFailure) { return try await call(endpoint, input) } catch {
            if error.code == absent { return nil }
            throw endpoint.problems.failure(error)
        }
    }

    /// Calls one operation, with the server's refusal as it came.
    public func call<Input, Output, Failure>(_ endpoint: Endpoint<Input, Output, Failure>, _ input: Input) async throws(RemoteFailure) -> Output {
        let bytes = try await exchange(endpoint, input)
        do { return try endpoint.response.read(bytes ?? Data()) } catch {
            let reason = (error as? APIProblem)?.problem.message ?? Self.describe(error, server: server)
            throw RemoteFailure.unreachable("\(server.absoluteString) answered \(endpoint.id) with something this app cannot read: \(reason)")
        }
    }

    /// The request on the wire, through the same transport and middlewares as the generated
    /// client; the answer's body on the documented success.
    private func exchange<Input, Output, Failure>(_ endpoint: Endpoint<Input, Output, Failure>, _ input: Input) async throws(RemoteFailure) -> Data? {
        let parts: WireRequest
        do { parts = try endpoint.request.write(input) } catch { throw .unreachable("\(endpoint.id): the request could not be written: \(error)") }
        var request = HTTPRequest(method: endpoint.method, scheme: nil, authority: nil, path: Self.path(endpoint.path, parts))
        request.headerFields[.accept] = "application/json"
        request.headerFields[.userAgent] = userAgent
        for (name, value) in parts.headers { if let field = HTTPField.Name(name) { request.headerFields[field] = value } }
        if parts.body != nil { request.headerFields[.contentType] = "application/json; charset=utf-8" }
        // A change that creates something, made by a signed-in user, carries a key of its own:
        // its answer lost on the way, it is sent again with the same key, and the server answers
        // as it did the first time instead of writing it twice.
        // So does any other change sent under a key its caller chose (and may send again).
        let signedIn = token() != nil
        let chosen = endpoint.method == .get || !signedIn ? nil : writeKey()
        let retried = chosen != nil || (endpoint.method == .post && endpoint.status == .created && signedIn)
        if retried, let name = HTTPField.Name("Idempotency-Key") { request.headerFields[name] = chosen ?? UUID().uuidString.lowercased() }
        let next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { [transport] request, body, url in
            try await transport.send(request, body: body, baseURL: url, operationID: endpoint.id)
        }
        let chain = middlewares.reversed().reduce(next) { next, middleware in
            { request, body, url in try await middleware.intercept(request, body: body, baseURL: url, operationID: endpoint.id, next: next) }
        }
        let send = { () async throws -> Data? in
            let (response, body) = try await chain(request, parts.body.map { HTTPBody($0) }, server)
            guard response.status == endpoint.status else {
                throw RemoteFailure.unreachable("\(server.absoluteString) answered \(endpoint.id) with HTTP \(response.status.code), which the contract does not say")
            }
            guard let body else { return nil }
            return try await Data(collecting: body, upTo: Self.largestAnswer)
        }
        guard retried else { return try await attempt(send) }
        var tries = 0
        while true {
            tries += 1
            do {
                return try await send()
            } catch {
                // No answer (sent again, with its key), or the first sending still being answered.
                // Nothing listening is not sent again: the request never reached a server, and a
                // replica queues what the server cannot take now.
                let again = switch error {
                case let answer as RemoteFailure:
                    if case .refused = answer { answer.code == .idempotencyKeyInUse } else { true }
                case let transport as CurlTransport.Failure: transport.kind != .unreachable
                default: true
                }
                guard again, tries < Self.tries else { throw failure(error) }
                try? await Task.sleep(for: .milliseconds(250 * tries))
            }
        }
    }

    /// How many times a creating change is sent before its failure is told.
    public static let tries = 3

    /// The largest answer read (a long list of expenses is a few megabytes).
    static let largestAnswer = 256 << 20

    /// `template` with each `{name}` filled from `parts` (percent-encoded), and its query.
    static func path(_ template: String, _ parts: WireRequest) -> String {
        var path = template
        for (name, value) in parts.path {
            path = path.replacingOccurrences(of: "{\(name)}", with: value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value)
        }
        guard !parts.query.isEmpty else { return path }
        let query = parts.query.sorted { $0.key < $1.key }.map { key, value in
            "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(["&", "=", "+"])) ?? value)"
        }
        return path + "?" + query.joined(separator: "&")
    }

    /// A set of ids in sets of at most `size` (the contract's most in one request).
    public static func batches<ID: Hashable>(_ ids: Set<ID>, of size: Int) -> [Set<ID>] {
        var batches: [Set<ID>] = []
        var batch = Set<ID>()
        for id in ids {
            batch.insert(id)
            if batch.count >= size {
                batches.append(batch)
                batch = []
            }
        }
        if !batch.isEmpty { batches.append(batch) }
        return batches
    }

    /// A failure to talk to the server, in words: where, and what the system said.
    static func describe(_ error: any Error, server: URL) -> String {
        let address = server.absoluteString
        if let failure = error as? CurlTransport.Failure {
            switch failure.kind {
            case .unreachable: return "nothing answers at \(address) (is flows-server running there?)"
            case .timedOut: return "\(address) did not answer in time"
            case .noLibrary: return "reaching \(address) needs libcurl (Debian's libcurl4 package): \(failure.description)"
            case .other: return "\(address): \(failure.description)"
            }
        }
        if let failure = error as? RemoteFailure { return failure.description }
        if error is DecodingError { return "\(address) answered something that is not the Flows API" }
        return "\(address): \(error)"
    }
}

/// Sends the current session's token as `Authorization: Bearer`.
struct SessionToken: ClientMiddleware {
    let token: @Sendable () -> String?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = token() { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}

/// Reads every answer of 400 and above as the contract's Problem and throws it, so a call
/// either gives its documented success or a ``RemoteFailure``.
struct ProblemReader: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var bytes = Data()
        if let responseBody {
            bytes = (try? await Data(collecting: responseBody, upTo: 1 << 20)) ?? Data()
        }
        guard let problem = try? JSONDecoder().decode(Components.Schemas.Problem.self, from: bytes) else {
            throw RemoteFailure.unreachable(
                "\(baseURL.absoluteString) answered HTTP \(response.status.code) \(response.status.reasonPhrase), which is not the Flows API"
            )
        }
        let retryAfter = response.headerFields[.retryAfter].flatMap { Int($0) }
        throw RemoteFailure.refused(status: response.status.code, problem: problem, retryAfter: retryAfter)
    }
}
