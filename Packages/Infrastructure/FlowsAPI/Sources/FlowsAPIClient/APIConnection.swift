import FlowsAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A connection to flows-server: the generated client, sending the current session's token,
/// with every failure turned into a ``RemoteFailure``.
public struct APIConnection: Sendable {
    /// The server, as the user named it.
    public let server: URL
    public let client: Client

    /// - Parameters:
    ///   - token: the current session's token, read before every request (nil: none).
    ///   - transport: how requests travel; libcurl by default (``CurlTransport``), with a 20 s
    ///     limit per request.
    public init(server: URL, token: @escaping @Sendable () -> String?, transport: (any ClientTransport)? = nil) {
        self.server = server
        client = Client(
            serverURL: server,
            configuration: Self.coding,
            transport: transport ?? CurlTransport(timeout: 20),
            middlewares: [ProblemReader(), SessionToken(token: token)]
        )
    }

    /// Runs one call of the client.
    public func call<T>(_ work: (Client) async throws -> T) async throws(RemoteFailure) -> T {
        do {
            return try await work(client)
        } catch let failure as RemoteFailure {
            throw failure
        } catch let error as ClientError {
            if let failure = error.underlyingError as? RemoteFailure { throw failure }
            throw .unreachable(Self.describe(error.underlyingError, server: server))
        } catch {
            throw .unreachable(Self.describe(error, server: server))
        }
    }

    /// Ids in the lists the contract takes: sorted, at most 1,000 a list.
    public static func batches(_ ids: some Collection<String>) -> [[String]] {
        let ids = ids.sorted()
        return stride(from: 0, to: ids.count, by: 1_000).map { Array(ids[$0..<min($0 + 1_000, ids.count)]) }
    }

    /// JSON as flows-server writes it: instants to the millisecond.
    public static let coding = Configuration(dateTranscoder: .iso8601WithFractionalSeconds, jsonEncodingOptions: [.sortedKeys])

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

/// Why a call to the server did not give its answer.
public enum RemoteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused, with the contract's Problem (its code says which domain error), and
    /// the seconds to wait when it said so.
    case refused(status: Int, problem: Components.Schemas.Problem, retryAfter: Int?)
    /// The server could not be reached, or answered something the contract does not say.
    case unreachable(String)

    public var description: String {
        switch self {
        case .refused(let status, let problem, _): "HTTP \(status) \(problem.error.rawValue): \(problem.message)"
        case .unreachable(let reason): reason
        }
    }

    /// The Problem's code, for a refusal.
    public var code: Components.Schemas.ErrorCode? {
        if case .refused(_, let problem, _) = self { problem.error } else { nil }
    }

    /// A refusal that means the session is gone (no token, ended, expired, forged).
    public var isSignedOut: Bool {
        switch code {
        case .unauthenticated?, .sessionExpired?, .noSuchAccount?: true
        default: false
        }
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

extension RemoteFailure {
    /// The case of a domain's problem enum the code names: the code is `prefix` and the case's
    /// name in kebab case (`invalid-email-` and `controlCharacters`: `invalid-email-control-characters`).
    public func problem<Problem: CaseIterable>(_ type: Problem.Type, prefix: String) -> Problem? {
        guard let code = code?.rawValue, code.hasPrefix(prefix) else { return nil }
        return Problem.allCases.first { prefix + Self.kebab(String(describing: $0)) == code }
    }

    static func kebab(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "-" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The Problem's details, for a refusal.
    public var details: Components.Schemas.ProblemDetails? {
        if case .refused(_, let problem, _) = self { problem.details } else { nil }
    }

    /// The Problem's message, for a refusal; the reason, otherwise.
    public var message: String {
        switch self {
        case .refused(_, let problem, _): problem.message
        case .unreachable(let reason): reason
        }
    }
}
