import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime
import Synchronization

/// The contract's paths and the methods each takes, as ``EndpointRoutes`` registers them: a
/// request for one of these paths with another method is `405` with an `Allow` header (the
/// router alone answers it as a path that does not exist, `404`).
final class RouteTable: Sendable {
    private let routes = Mutex<[(segments: [String], method: String)]>([])

    /// Records a route; false when it was recorded already.
    @discardableResult
    func add(method: HTTPRequest.Method, path: String) -> Bool {
        let segments = Self.segments(path)
        return routes.withLock { routes in
            guard !routes.contains(where: { $0.segments == segments && $0.method == method.rawValue }) else { return false }
            routes.append((segments, method.rawValue))
            return true
        }
    }

    /// The methods a path takes, in alphabetical order; none for a path the contract does not have.
    func methods(for path: String) -> [String] {
        let requested = Self.segments(path)
        let methods = routes.withLock { routes in
            routes.filter { route in
                route.segments.count == requested.count
                    && zip(route.segments, requested).allSatisfy { template, segment in
                        template.hasPrefix("{") ? !segment.isEmpty : template == segment
                    }
            }.map(\.method)
        }
        return Set(methods).sorted()
    }

    private static func segments(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }
}

/// Registers operations on the router, recording each route in `table`; a second operation on
/// a method and path served already is refused, as the contract has one each.
struct RecordingTransport: ServerTransport {
    let router: Router<ServerRequestContext>
    let table: RouteTable

    func register(
        _ handler: @Sendable @escaping (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        guard table.add(method: method, path: path) else { throw DuplicateRoute(description: "\(method) \(path) is served twice") }
        router.register(handler, method: method, path: path)
    }
}

/// Two operations registered on one method and path: a mistake in the server's routes.
struct DuplicateRoute: Error, CustomStringConvertible {
    let description: String
}
