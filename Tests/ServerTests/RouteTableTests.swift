@testable import FlowsServer
import Hummingbird
import OpenAPIRuntime
import Testing

@Suite("The server's routes")
struct RouteTableTests {
    @Test("a method and path are served once: a second operation on them is refused; the methods of a path are listed for 405")
    func oneOperationARoute() throws {
        let table = RouteTable()
        let transport = RecordingTransport(router: Router(context: ServerRequestContext.self), table: table)
        let answer: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?) = { _, _, _ in
            (HTTPResponse(status: .ok), nil)
        }
        try transport.register(answer, method: .get, path: "/friends/{friendId}")
        try transport.register(answer, method: .delete, path: "/friends/{friendId}")
        #expect(throws: DuplicateRoute.self) { try transport.register(answer, method: .get, path: "/friends/{friendId}") }
        #expect(table.methods(for: "/friends/abc") == ["DELETE", "GET"])
    }
}
