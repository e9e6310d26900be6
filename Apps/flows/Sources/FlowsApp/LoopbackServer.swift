import FlowWeb
import FlyingSocks
import Foundation

/// The HTTP server of `flows web`: HTTP/1.1 on 127.0.0.1, one request a connection, for one
/// person's browser on this machine.
///
/// It is this small on purpose. `flows` must start fast and load no networking library until a
/// server is used (StartupTests): Hummingbird's NIO made every start of the CLI about a quarter
/// slower, and FlyingFox's HTTP server links FoundationNetworking, hence libcurl. FlyingSocks,
/// the socket layer under FlyingFox, gives the sockets and the waiting; this reads a request's
/// head and body within limits and writes the answer whole, in one write.
struct LoopbackServer {
    let handle: @Sendable (WebRequest) async -> WebResponse

    /// The most a request's head and body may hold.
    static let maximumHead = 16 << 10
    static let maximumBody = 256 << 10
    /// How long a request may take to arrive whole.
    static let readLimit: Duration = .seconds(10)

    /// Listens on 127.0.0.1:`port` (0: a free port), calls `listening` with the port, and serves
    /// until cancelled.
    func run(port: Int, listening: @Sendable (Int) -> Void) async throws {
        let socket = try Socket(domain: AF_INET)
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: try sockaddr_in.inet(ip4: "127.0.0.1", port: UInt16(port)))
        try socket.listen()
        guard case .ip4(_, let bound) = try socket.sockname() else { throw SocketError.unsupportedAddress }
        let pool: some AsyncSocketPool = .make()
        try await pool.prepare()
        let listener = try AsyncSocket(socket: socket, pool: pool)
        listening(Int(bound))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await pool.run() }
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    for try await connection in listener.sockets {
                        connections.addTask { await serve(connection) }
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private func serve(_ connection: AsyncSocket) async {
        defer { try? connection.close() }
        // A request that does not arrive whole in time has its connection closed.
        let timer = Task {
            try await Task.sleep(for: Self.readLimit)
            try? connection.close()
        }
        let answer: WebResponse
        do {
            let request = try await read(from: connection)
            timer.cancel()
            answer = await handle(request)
        } catch let refusal as Refusal {
            timer.cancel()
            answer = WebResponse(status: refusal.status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(refusal.reason.utf8))
        } catch {
            timer.cancel()
            return
        }
        var head = "HTTP/1.1 \(answer.status) \(Self.phrases[answer.status] ?? "Status")\r\n"
        for (name, value) in answer.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n"
        try? await connection.write(Data(head.utf8) + Data(answer.body))
    }

    /// A request's line, head and body, within the limits.
    private func read(from connection: AsyncSocket) async throws -> WebRequest {
        var buffer: [UInt8] = []
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            let chunk = try await connection.read(atMost: 4_096)
            guard !chunk.isEmpty else { throw Refusal(400, "The request ended early.") }
            buffer += chunk
            headEnd = Self.find(separator, in: buffer)
            if headEnd == nil, buffer.count > Self.maximumHead { throw Refusal(431, "The request's head is too large.") }
        }
        guard let headEnd, let head = String(validating: buffer[..<headEnd], as: UTF8.self) else { throw Refusal(400, "The request's head is not text.") }
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { throw Refusal(400, "This is not an HTTP/1.1 request.") }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Refusal(400, "A header line has no colon.") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard headers["transfer-encoding"] == nil else { throw Refusal(411, "Send the body with a Content-Length.") }
        let length = Int(headers["content-length"] ?? "0") ?? -1
        guard length >= 0 else { throw Refusal(400, "The Content-Length is not a number.") }
        guard length <= Self.maximumBody else { throw Refusal(413, "The body is too large.") }
        var body = Array(buffer[(headEnd + 4)...])
        while body.count < length {
            let chunk = try await connection.read(atMost: min(65_536, length - body.count))
            guard !chunk.isEmpty else { throw Refusal(400, "The body ended early.") }
            body += chunk
        }
        let target = String(requestLine[1])
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        return WebRequest(
            method: String(requestLine[0]), path: path, cookie: headers["cookie"], host: headers["host"], origin: headers["origin"],
            contentType: headers["content-type"], body: Array(body.prefix(length)), client: "127.0.0.1"
        )
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    private struct Refusal: Error {
        let status: Int
        let reason: String

        init(_ status: Int, _ reason: String) {
            self.status = status
            self.reason = reason
        }
    }

    static let phrases = [
        200: "OK", 303: "See Other", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        411: "Length Required", 413: "Content Too Large", 431: "Request Header Fields Too Large",
    ]
}
