import Testing

/// A client cannot hold a connection by sending nothing, or a byte now and then: an idle
/// connection is closed, and a body that does not arrive in time is answered 408.
@Suite(.timeLimit(.minutes(1)))
struct TimeoutTests {
    @Test("a connection with no request under way, or a request's head sent part way, is closed after the idle time")
    func idle() async throws {
        try await LiveServer.with(idleTimeout: .seconds(1)) { server in
            let silent = try RawConnection(port: server.port)
            #expect(try await silent.closed(within: .seconds(10)))
            let slowHead = try RawConnection(port: server.port)
            try await slowHead.send("GET /health HTTP/1.1\r\nHost: flows\r\n")
            #expect(try await slowHead.closed(within: .seconds(10)))
            // A connection in use is not idle: a request answered, then the time runs again.
            let used = try RawConnection(port: server.port)
            try await used.send("GET /health HTTP/1.1\r\nHost: flows\r\n\r\n")
            #expect(try await used.response().status == 200)
            #expect(try await used.closed(within: .seconds(10)))
        }
    }

    @Test("a body that does not arrive whole in time has its connection closed; a body sent at once is read as ever")
    func slowBody() async throws {
        try await LiveServer.with(bodyReadTimeout: .seconds(1)) { server in
            let connection = try RawConnection(port: server.port)
            try await connection.send(
                "POST /sessions HTTP/1.1\r\nHost: flows\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{\"email\":"
            )
            #expect(try await connection.closed(within: .seconds(10)))
            // A body sent at once is read as ever.
            let prompt = try await server.raw("POST", "/sessions", json: #"{"email":"ada@example.com","password":"correct horse"}"#)
            #expect(prompt.status == 401, "\(prompt)")
        }
    }
}
