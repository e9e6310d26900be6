import Accounts
import AccountsData
import AccountsRemote
import CompressNIO
import ExpensesRemote
import FlowsAPI
import FlowsWire
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime
import Primitives
import Synchronization

/// The context of every request: Hummingbird's, and the address of the client.
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    /// The request's connection: closed when its body is too slow to arrive.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}

// MARK: - Around every request (Hummingbird)

/// Logs one line per request once it is answered (method, path, status, time, user, problem
/// code), refuses bodies over the limit with `413`, and answers what no route serves with a
/// `Problem` too. Tokens, passwords and bodies are never logged.
struct RequestMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let maximumBodyBytes: Int
    /// How long the body may take to arrive whole.
    let bodyReadTimeout: Duration
    /// Who the client is, behind the proxies trusted to say so.
    let clients: ClientAddresses
    /// The paths served, to tell a method a path does not take (`405`) from a path that is not
    /// one (`404`).
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let record = RequestRecord()
        let origin = RequestOrigin(peer: context.remoteAddress, headers: request.headers, addresses: clients)
        var response: Response
        do {
            response = try await RequestScope.$record.withValue(record) {
                try await RequestScope.$origin.withValue(origin) {
                    try await limited(request, context: context, next: next)
                }
            }
        } catch {
            var problem = self.problem(for: error)
            // The router does not tell a path it serves with another method from no path at all.
            if let routing = error as? HTTPError, routing.status == .notFound || routing.status == .methodNotAllowed {
                let allowed = routes.methods(for: request.uri.path)
                if !allowed.isEmpty {
                    problem = APIProblem(.methodNotAllowed, .invalidRequest, "This path takes \(allowed.joined(separator: ", ")) only.")
                    problem.headers[.allow] = allowed.joined(separator: ", ")
                }
            }
            record.refused(code: problem.problem.error.rawValue, reason: problem.logged ?? "\(error)")
            response = Self.response(problem)
        }
        log(request, response: response, record: record, context: context, elapsed: ContinuousClock.now - start)
        return response
    }

    /// The request with its body read whole, up to the limit.
    private func limited(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximumBodyBytes {
            throw APIProblem.payloadTooLarge(limit: maximumBodyBytes)
        }
        var request = request
        do {
            request = try await Self.collected(request, on: context.channel, upTo: maximumBodyBytes, within: bodyReadTimeout)
        } catch is NIOTooManyBytesError {
            // A chunked body (no Content-Length) that goes past the limit.
            throw APIProblem.payloadTooLarge(limit: maximumBodyBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIProblem.payloadTooLarge(limit: maximumBodyBytes)
        }
        return try await next(request, context)
    }

    /// `request` with its body read whole. A body that has not arrived within `timeout` (a
    /// client sending a byte now and then) has its connection closed, which ends the read: the
    /// client gets no answer, and holds the connection no longer.
    private static func collected(_ request: Request, on channel: any Channel, upTo limit: Int, within timeout: Duration) async throws -> Request {
        // Nothing to wait for without a body (a GET).
        if request.headers[.contentLength] == "0" || (request.headers[.contentLength] == nil && request.headers[.transferEncoding] == nil) {
            var request = request
            _ = try await request.collectBody(upTo: limit)
            return request
        }
        let timedOut = Flag()
        return try await withThrowingTaskGroup(of: Request?.self) { group in
            group.addTask {
                var request = request
                _ = try await request.collectBody(upTo: limit)
                return request
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                timedOut.raise()
                channel.close(promise: nil)
                return nil
            }
            do {
                while let next = try await group.next() {
                    guard let read = next else { continue }
                    group.cancelAll()
                    // A read cut short by the close is no body.
                    guard !timedOut.isRaised else { throw APIProblem.requestTimeout(timeout) }
                    return read
                }
            } catch where timedOut.isRaised {
                throw APIProblem.requestTimeout(timeout)
            }
            throw APIProblem.requestTimeout(timeout)
        }
    }

    /// Set once, read from any task.
    private final class Flag: Sendable {
        private let raised = Atomic<Bool>(false)
        var isRaised: Bool { raised.load(ordering: .relaxed) }
        func raise() { raised.store(true, ordering: .relaxed) }
    }

    private func problem(for error: any Error) -> APIProblem {
        if let problem = error as? APIProblem { return problem }
        // What Hummingbird or NIO says is the client's doing: no such path, a body too large, ...
        if let error = error as? any HTTPResponseError, (400..<500).contains(error.status.code) {
            switch error.status {
            case .notFound: return APIProblem(.notFound, .invalidRequest, "There is no such path; see docs/api/openapi.yaml.")
            case .methodNotAllowed: return APIProblem(.methodNotAllowed, .invalidRequest, "This path does not take this method.")
            case .contentTooLarge: return .payloadTooLarge(limit: maximumBodyBytes)
            default: return APIProblem(error.status, .invalidRequest, (error as? HTTPError)?.body ?? error.status.reasonPhrase)
            }
        }
        return APIProblem.internalError.logging("\(error)")
    }

    static func response(_ problem: APIProblem) -> Response {
        let (head, _) = problem.response
        var buffer = ByteBuffer()
        buffer.writeBytes(problem.bodyBytes)
        return Response(status: head.status, headers: head.headerFields, body: ResponseBody(byteBuffer: buffer))
    }

    /// `elapsed` in milliseconds with two decimals (truncated), as in `12.05`; without
    /// `String(format:)`, which is slow for something done once per request.
    static func milliseconds(_ elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let hundredths = max(0, seconds) &* 100_000 &+ max(0, attoseconds) / 10_000_000_000_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private func log(_ request: Request, response: Response, record: RequestRecord, context: Context, elapsed: Duration) {
        var metadata: Logger.Metadata = [
            "method": "\(request.method)",
            "path": "\(request.uri.path)",
            "status": "\(response.status.code)",
            "ms": "\(Self.milliseconds(elapsed))",
        ]
        if let user = record.user { metadata["user"] = "\(user.rawValue)" }
        let (code, reason) = record.problem
        if let code { metadata["error"] = "\(code)" }
        // A push: each operation as it was answered (the first 20).
        let pushed = record.pushed
        if !pushed.operations.isEmpty {
            metadata["pushed"] = "\(pushed.operations.prefix(20).joined(separator: ", "))\(pushed.operations.count > 20 ? ", …" : "")"
        }
        if response.status.code >= 500 || pushed.failure != nil {
            if let reason = reason ?? pushed.failure { metadata["reason"] = "\(reason)" }
            context.logger.error("request failed", metadata: metadata)
        } else {
            context.logger.info("request", metadata: metadata)
        }
    }
}

// MARK: - Around every operation (EndpointRoutes)

/// Writes every refusal as a `Problem`: the area's refusals, the session check's and the media
/// types' (`406`/`415`), and a body that does not decode as the contract's types
/// (`400 invalid-request`, naming the field). Anything else is a `500` whose cause goes to the
/// log only.
struct ProblemMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await next(request, body, metadata)
        } catch {
            let problem = Self.problem(for: error)
            RequestScope.record?.refused(code: problem.problem.error.rawValue, reason: problem.logged)
            return problem.response
        }
    }

    static func problem(for error: any Error) -> APIProblem {
        if let decoding = error as? DecodingError { return invalid(decoding) }
        return (error as? APIProblem) ?? APIProblem.internalError.logging("\(error)")
    }

    /// A body or parameter that does not decode, with the JSON pointer of the field.
    static func invalid(_ error: DecodingError) -> APIProblem {
        switch error {
        case .keyNotFound(let key, let context):
            let field = pointer(context.codingPath + [key])
            return .invalidRequest("The field \(field) is missing.", field: field)
        case .typeMismatch(let type, let context):
            let field = pointer(context.codingPath)
            return .invalidRequest("The field \(field) is not \(describe(type)).", field: field)
        case .valueNotFound(let type, let context):
            let field = pointer(context.codingPath)
            return .invalidRequest("The field \(field) is null; it should be \(describe(type)).", field: field)
        case .dataCorrupted(let context):
            let field = pointer(context.codingPath)
            if context.debugDescription.hasPrefix("Additional properties are disabled") {
                return .invalidRequest("The field \(field) is not one this operation takes.", field: field)
            }
            let reason = context.codingPath.isEmpty ? "The body is not JSON this operation takes" : "The field \(field) is not valid"
            return .invalidRequest("\(reason): \(context.debugDescription)", field: field)
        @unknown default:
            return .invalidRequest("The request does not match the API.")
        }
    }

    private static func pointer(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "/" : path.map { "/" + ($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int32.Type, is Int64.Type: "a whole number"
        case is Bool.Type: "true or false"
        default: "of the right type"
        }
    }
}

/// Checks the bearer token of every operation but signing up, signing in and the health
/// checks, and runs the operation as the session's user.
///
/// No token or one the server does not know is `401 unauthenticated`; a session unused for
/// longer than the idle limit is `401 session-expired` (and is ended).
///
/// A session found is kept for a moment (``ServerConfiguration/cacheLifetime``), so that a
/// client's next requests need not ask the database again. Signing out, or any change to the
/// account, through this server drops the user's kept sessions at once; another server sharing
/// the database sees such a change once the moment is over.
struct SessionMiddleware: ServerMiddleware {
    let services: ServerServices
    let sessions: ShortLivedCache<String, StoredSession>

    static let open: Set<String> = [
        AccountsAPI.signUp.id, AccountsAPI.signIn.id, EndpointRoutes.checkHealth.id, EndpointRoutes.checkReadiness.id,
    ]
    /// What may end a session or change what a session says of its user.
    static let accountChanges: Set<String> = [
        AccountsAPI.signOut.id, AccountsAPI.changeDisplayName.id, AccountsAPI.changeEmail.id, AccountsAPI.changePassword.id,
        AccountsAPI.changeAvatar.id, AccountsAPI.endSession.id, AccountsAPI.endOtherSessions.id, AccountsAPI.verifyEmail.id,
    ]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard !Self.open.contains(operationID) else { return try await next(request, body, metadata) }
        // An operation of a push runs within the push's session, checked already; what it
        // changes of the account is dropped from what is kept, as for a request of its own.
        if RequestScope.pushed, let session = RequestScope.session {
            defer { if Self.accountChanges.contains(operationID) { sessions.invalidate([session.user.id]) } }
            return try await next(request, body, metadata)
        }
        guard let token = Self.bearerToken(request.headerFields[.authorization]) else {
            throw APIProblem.unauthenticated("Sign in first: this needs a session token (Authorization: Bearer).", tokenSent: false)
        }
        let accounts = services.sessions(InMemorySessionTokenStore(token: token))
        let found: StoredSession
        do {
            found = try await sessions.value(for: token) {
                let found = try await accounts.storedSession()
                guard case .signedIn(let user) = found else { return (found, nil) }
                return (found, user.id)
            }
        } catch let error as AccountsError {
            throw AccountsAPI.problems.problem(error)
        }
        let user: User
        switch found {
        case .signedIn(let signedIn): user = signedIn
        case .expired: throw APIProblem.sessionExpired
        case .signedOut: throw APIProblem.unauthenticated("This session has ended or never was; sign in again.", tokenSent: true)
        }
        RequestScope.record?.user = user.id
        // Whatever the change came to, nothing kept from before it is served again.
        defer { if Self.accountChanges.contains(operationID) { sessions.invalidate([user.id]) } }
        return try await RequestScope.$session.withValue(RequestSession(user: user, accounts: accounts)) {
            try await next(request, body, metadata)
        }
    }

    /// The token of `Authorization: Bearer TOKEN` (the scheme in any case), or nil.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingBlanks
        // A token is 43 base64url characters; anything much longer is not one of ours.
        guard !token.isEmpty, token.utf8.count <= 256 else { return nil }
        return String(token)
    }
}

/// Keeps each user's answer to `GET /balances` for a moment (``ServerConfiguration/cacheLifetime``):
/// the largest answer most clients ask for most often (1,000 balances are about 100 KB of JSON).
///
/// A write through this server that moves anyone's balance drops their kept answer at once
/// (``ServerServices/balanceChanges``); a write through another server sharing the database is
/// seen once the moment is over. Runs after ``SessionMiddleware``: only a signed-in user's own
/// answer is kept, and served only to them.
///
/// A client that takes gzip (`Accept-Encoding`, as the CLI's libcurl does) gets the answer in gzip,
/// compressed once for as long as it is kept: Ada's 97 KB are 26 KB.
struct BalancesCacheMiddleware: ServerMiddleware {
    let answers: ShortLivedCache<UserID, CachedAnswer>

    /// A complete answer: its head and its body, kept once as the buffer that
    /// ``CachedBalancesRoute`` sends as it is, and that body in gzip, once a client takes it.
    struct CachedAnswer: Sendable {
        let response: HTTPResponse
        let body: ByteBuffer?
        let gzipped: GzippedBody?

        init(response: HTTPResponse, body: ByteBuffer?) {
            var response = response
            // The same request gets another body from a client that takes gzip.
            if response.status == .ok { response.headerFields[.vary] = HTTPField.Name.acceptEncoding.rawName }
            self.response = response
            self.body = body
            gzipped = body.flatMap { $0.readableBytes >= GzippedBody.smallest ? GzippedBody($0) : nil }
        }

        /// The head and body for a request whose `Accept-Encoding` is `accepted`: in gzip when
        /// the client takes it and the body is worth compressing, as it is otherwise.
        func encoded(for accepted: String?) -> (response: HTTPResponse, body: ByteBuffer?) {
            guard response.status == .ok, let gzipped, ContentCoding.takesGzip(accepted), let bytes = gzipped.bytes() else {
                return (response, body)
            }
            var response = response
            response.headerFields[.contentEncoding] = "gzip"
            // Any length the plain answer had was the JSON's.
            response.headerFields[.contentLength] = "\(bytes.readableBytes)"
            return (response, bytes)
        }
    }

    /// The largest answer read whole: far past any user's (1,000 balances are about 100 KB).
    static let largestBody = 256 << 20

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == ExpensesAPI.listBalances.id, let user = RequestScope.session?.user.id else {
            return try await next(request, body, metadata)
        }
        let answer = try await answers.value(for: user) { () async throws -> (value: CachedAnswer, owner: UserID?) in
            let (response, body) = try await next(request, body, metadata)
            var bytes: ByteBuffer?
            if let body { bytes = ByteBuffer(bytes: try await ArraySlice<UInt8>(collecting: body, upTo: Self.largestBody)) }
            return (CachedAnswer(response: response, body: bytes), response.status == .ok ? user : nil)
        }
        let (response, bytes) = answer.encoded(for: request.headerFields[.acceptEncoding])
        return (response, bytes.map { HTTPBody($0.readableBytesView) })
    }
}

/// A body's gzip form, made the first time it is asked for and kept with the body.
final class GzippedBody: Sendable {
    /// Smaller bodies go as they are: gzip's own 18 bytes and a system call's worth of work
    /// save nothing there.
    static let smallest = 1_024

    private let original: ByteBuffer
    /// Nil until made; then the bytes, or nil when compressing failed (the body goes as it is).
    private let made = Mutex<ByteBuffer??>(nil)

    init(_ original: ByteBuffer) { self.original = original }

    /// The body in gzip; nil if it could not be compressed. The first caller compresses, and
    /// any that come meanwhile wait for it rather than compress it again.
    func bytes() -> ByteBuffer? {
        made.withLock { made in
            if let made { return made }
            var input = original
            let bytes = try? input.compress(with: .gzip())
            made = .some(bytes)
            return bytes
        }
    }
}

/// What `Accept-Encoding` takes (RFC 9110, 12.5.3).
enum ContentCoding {
    /// Whether a client that sent `header` takes gzip: named (or as `x-gzip`) with a weight
    /// above 0, or not named while `*` is, with a weight above 0.
    static func takesGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var wildcard = false
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let name = parts.first?.trimmingBlanks.lowercased(), !name.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingBlanks }
                if pair.count == 2, pair[0].lowercased() == "q" { weight = Double(pair[1]) ?? 0 }
            }
            if name == "gzip" || name == "x-gzip" { return weight > 0 }
            if name == "*" { wildcard = weight > 0 }
        }
        return wildcard
    }
}

/// `GET /balances` answered straight from what this server keeps, before the contract's
/// router: when the request's session and its user's answer are both kept, and the request is
/// a plain one (no query, no body, an `Accept` that takes JSON), the kept answer goes out as it
/// is. Anything else, a miss included, goes the whole way (``SessionMiddleware``,
/// ``BalancesCacheMiddleware``), which checks everything and keeps what this route serves.
///
/// The answer is the very one the whole way gave (same status, fields and bytes, in gzip when
/// the client takes it), and only to the user it belongs to: the session is found by its token,
/// as ``SessionMiddleware`` finds it.
struct CachedBalancesRoute: RouterMiddleware {
    typealias Context = ServerRequestContext
    let sessions: ShortLivedCache<String, StoredSession>
    let answers: ShortLivedCache<UserID, BalancesCacheMiddleware.CachedAnswer>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get, request.uri.path == "/balances", let user = keptUser(of: request),
            let answer = answers.value(for: user)
        else { return try await next(request, context) }
        RequestScope.record?.user = user
        let (response, body) = answer.encoded(for: request.headers[.acceptEncoding])
        return Response(status: response.status, headers: response.headerFields, body: ResponseBody(byteBuffer: body ?? ByteBuffer()))
    }

    /// The signed-in user of a plain request whose session is kept; nil for anything the whole
    /// way must look at.
    private func keptUser(of request: Request) -> UserID? {
        let fields = request.headers
        guard request.uri.query?.isEmpty ?? true, fields[.contentType] == nil, fields[.transferEncoding] == nil,
            fields[.contentLength].map({ $0 == "0" }) ?? true,
            fields[.accept].map({ MediaRange.accepts($0, "application/json") == true }) ?? true,
            let token = SessionMiddleware.bearerToken(fields[.authorization]),
            case .signedIn(let user)? = sessions.value(for: token)
        else { return nil }
        return user.id
    }
}
