import FlowsWire
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Primitives

/// Serves the operations declared as ``Endpoint``s: each reads its input as its endpoint says,
/// runs one service call as the signed-in user, and answers its output, or its area's refusal
/// by the area's table, behind the server's middlewares (``FlowsServer/application``).
struct EndpointRoutes {
    let transport: RecordingTransport
    let middlewares: [any ServerMiddleware]
    /// Where each operation is recorded for the pushes that apply it.
    let pushed: PushedOperations

    /// Serves `endpoint` for a signed-in user (``SessionMiddleware`` checked the session); the
    /// area's errors `work` throws are refused by its table.
    func serve<Input, Output, Failure>(
        _ endpoint: Endpoint<Input, Output, Failure>, _ work: @escaping @Sendable (Input, UserID) async throws -> Output
    ) throws {
        try serveSession(endpoint) { input, session in try await work(input, session.user.id) }
    }

    /// Serves `endpoint` with the request's whole session: its user and its accounts service.
    func serveSession<Input, Output, Failure>(
        _ endpoint: Endpoint<Input, Output, Failure>, _ work: @escaping @Sendable (Input, RequestSession) async throws -> Output
    ) throws {
        try serveOpen(endpoint) { input in try await work(input, try Self.session()) }
    }

    /// Serves `endpoint` with or without a session (signing up and in).
    func serveOpen<Input, Output, Failure>(
        _ endpoint: Endpoint<Input, Output, Failure>, _ work: @escaping @Sendable (Input) async throws -> Output
    ) throws {
        let operation: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?) = { request, body, metadata in
            let input = try await Self.input(endpoint, request, body, metadata)
            let output: Output
            do { output = try await work(input) } catch let error as Failure { throw endpoint.problems.problem(error) }
            var response = HTTPResponse(status: endpoint.status)
            guard let bytes = try endpoint.response.write(output) else { return (response, nil) }
            response.headerFields[.contentType] = "application/json; charset=utf-8"
            return (response, HTTPBody(bytes))
        }
        try register(operation, id: endpoint.id, method: endpoint.method, path: endpoint.path)
    }

    /// Serves a stream of server-sent events for a signed-in user.
    func serveStream(_ id: String, _ path: String, _ work: @escaping @Sendable (RequestSession) async throws -> HTTPBody) throws {
        let operation: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?) = { _, _, _ in
            let session = try Self.session()
            var response = HTTPResponse(status: .ok)
            response.headerFields[.contentType] = "text/event-stream"
            return (response, try await work(session))
        }
        try register(operation, id: id, method: .get, path: path)
    }

    /// The request's checked session. ``SessionMiddleware`` lets no request through to an
    /// operation that needs one without it; this is the backstop.
    private static func session() throws(APIProblem) -> RequestSession {
        guard let session = RequestScope.session else { throw .unauthenticated("Sign in first.", tokenSent: false) }
        return session
    }

    /// Registers `operation` behind the middlewares, which know it by `id`.
    private func register(
        _ operation: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        id: String, method: HTTPRequest.Method, path: String
    ) throws {
        let chain = middlewares.reversed().reduce(operation) { next, middleware in
            { request, body, metadata in try await middleware.intercept(request, body: body, metadata: metadata, operationID: id, next: next) }
        }
        try transport.register(chain, method: method, path: path)
        pushed.add(id, method: method, path: path, chain: chain)
    }

    /// The request's parts, read as `endpoint` takes them: a body that is not JSON is `415`.
    private static func input<Input, Output, Failure>(
        _ endpoint: Endpoint<Input, Output, Failure>, _ request: HTTPRequest, _ body: HTTPBody?, _ metadata: ServerRequestMetadata
    ) async throws -> Input {
        var parts = WireRequest(path: metadata.pathParameters.mapValues(String.init))
        // By lower-case name (header names have no case); a field given twice is read the first time.
        for field in request.headerFields where parts.headers[field.name.canonicalName] == nil {
            parts.headers[field.name.canonicalName] = field.value
        }
        if let path = request.path, let mark = path.firstIndex(of: "?") {
            // A name given twice is read the first time.
            for item in URLComponents(string: "/" + path[mark...])?.queryItems ?? [] where parts.query[item.name] == nil {
                parts.query[item.name] = item.value ?? ""
            }
        }
        if endpoint.request.hasBody {
            if let type = request.headerFields[.contentType], let range = MediaRange(type), (range.type, range.subtype) != ("application", "json") {
                throw APIProblem(.unsupportedMediaType, .invalidRequest, "A body is sent as application/json, not \(type.prefix(100)).")
            }
            if let body { parts.body = try await Data(collecting: body, upTo: .max) }
        }
        return try endpoint.request.read(parts)
    }
}
