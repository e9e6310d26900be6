import FlowsWire
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Primitives

/// Serves the operations declared as ``Endpoint``s: each reads its input as its endpoint says,
/// runs one service call as the signed-in user, and answers its output, or its area's refusal
/// by the area's table, through the same middlewares as the generated operations.
struct EndpointRoutes {
    let transport: RecordingTransport
    let middlewares: [any ServerMiddleware]

    /// Serves `endpoint` for a signed-in user (``SessionMiddleware`` checked the session); the
    /// area's errors `work` throws are refused by its table.
    func serve<Input, Output, Failure>(
        _ endpoint: Endpoint<Input, Output, Failure>, _ work: @escaping @Sendable (Input, UserID) async throws -> Output
    ) throws {
        let operation: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?) = { request, body, metadata in
            let input = try await Self.input(endpoint, request, body, metadata)
            guard let user = RequestScope.session?.user.id else { throw APIProblem.unauthenticated("Sign in first.", tokenSent: false) }
            let output: Output
            do { output = try await work(input, user) } catch let error as Failure { throw endpoint.problems.problem(error) }
            var response = HTTPResponse(status: endpoint.status)
            guard let bytes = try endpoint.response.write(output) else { return (response, nil) }
            response.headerFields[.contentType] = "application/json; charset=utf-8"
            return (response, HTTPBody(bytes))
        }
        let chain = middlewares.reversed().reduce(operation) { next, middleware in
            { request, body, metadata in
                try await middleware.intercept(request, body: body, metadata: metadata, operationID: endpoint.id, next: next)
            }
        }
        try transport.register(chain, method: endpoint.method, path: endpoint.path)
    }

    /// The request's parts, read as `endpoint` takes them: a body that is not JSON is `415`.
    private static func input<Input, Output, Failure>(
        _ endpoint: Endpoint<Input, Output, Failure>, _ request: HTTPRequest, _ body: HTTPBody?, _ metadata: ServerRequestMetadata
    ) async throws -> Input {
        var parts = WireRequest(path: metadata.pathParameters.mapValues(String.init))
        if endpoint.request.hasBody {
            if let type = request.headerFields[.contentType], let range = MediaRange(type), (range.type, range.subtype) != ("application", "json") {
                throw APIProblem(.unsupportedMediaType, .invalidRequest, "A body is sent as application/json, not \(type.prefix(100)).")
            }
            if let body { parts.body = try await Data(collecting: body, upTo: .max) }
        }
        return try endpoint.request.read(parts)
    }
}
