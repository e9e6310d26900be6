import AccountsRemote
import FriendsRemote
import FlowsAPI
import FlowsWire
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Primitives
import Sync
import SyncRemote
import Synchronization

/// The contract's operations by id, each as the server registered it behind its middlewares:
/// what a push (`POST /sync/push`) applies each of its operations through, so that a pushed
/// write is checked, keyed, answered and logged as the same request made alone would be.
final class PushedOperations: OperationApplier {
    private struct Route {
        let method: HTTPRequest.Method
        let path: String
        let chain: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    }

    /// What a replica never queues: the reads that are POSTs (look-ups), what makes, ends or
    /// proves a session or asks for the password (an email change ends the other sessions), and
    /// a push itself, or a resend of what it refused. (Reads by GET are never recorded.)
    static let neverPushed: Set<String> = [
        AccountsAPI.signUp.id, AccountsAPI.signIn.id, AccountsAPI.signOut.id, AccountsAPI.endSession.id, AccountsAPI.endOtherSessions.id,
        AccountsAPI.changePassword.id, AccountsAPI.changeEmail.id, AccountsAPI.sendVerificationCode.id, AccountsAPI.verifyEmail.id,
        AccountsAPI.listUsers.id, AccountsAPI.listExistingUsers.id, AccountsAPI.findUserByFriendCode.id, AccountsAPI.findUserByEmail.id,
        FriendsAPI.findFriend.id, FriendsAPI.previewContactLink.id, FriendsAPI.listFriendsAmong.id, FriendsAPI.listNames.id,
        SyncAPI.pushChanges.id, SyncAPI.resendChanges.id,
    ]

    /// The most bytes of an answer kept for its outcome.
    private static let largestAnswer = 16 << 20

    private let routes = Mutex<[String: Route]>([:])

    /// Records operation `id`'s route and handler (with its middlewares).
    func add(
        _ id: String, method: HTTPRequest.Method, path: String,
        chain: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) {
        guard method != .get, !Self.neverPushed.contains(id) else { return }
        routes.withLock { $0[id] = Route(method: method, path: path, chain: chain) }
    }

    func apply(_ operation: SyncOperation, by user: UserID) async -> SyncOutcome? {
        guard let route = routes.withLock({ $0[operation.operation] }) else {
            return refused(operation, .invalidRequest("\(operation.operation.prefix(100)) is not an operation a push applies.", field: "operation"))
        }
        // The path, each {parameter} filled in as the route reads it.
        var path = ""
        var parameters: [String: Substring] = [:]
        for segment in route.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                let name = String(segment.dropFirst().dropLast())
                guard let value = operation.path[name], !value.isEmpty else {
                    return refused(operation, .invalidRequest("The path parameter \(name) is missing.", field: "path/\(name)"))
                }
                parameters[name] = Substring(value)
                path += "/" + (value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value)
            } else {
                path += "/" + segment
            }
        }
        if !operation.query.isEmpty {
            var components = URLComponents()
            components.queryItems = operation.query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            path += "?" + (components.percentEncodedQuery ?? "")
        }
        var request = HTTPRequest(method: route.method, scheme: nil, authority: nil, path: path)
        if let name = IdempotencyMiddleware.header { request.headerFields[name] = operation.key }
        if let version = operation.version { request.headerFields[.ifMatch] = "\"\(version)\"" }
        if operation.body != nil { request.headerFields[.contentType] = "application/json" }
        // Its own record: a refusal inside a push does not mark the push; the push's log line
        // lists each operation as it was answered, and what failed inside the server.
        let record = RequestRecord()
        let answered: (HTTPResponse, [UInt8])?
        do {
            answered = try await RequestScope.$pushed.withValue(true) {
                try await RequestScope.$record.withValue(record) {
                    let (response, body) = try await route.chain(
                        request, operation.body.map { HTTPBody($0) }, ServerRequestMetadata(pathParameters: parameters)
                    )
                    let bytes: [UInt8] = if let body { Array(try await ArraySlice<UInt8>(collecting: body, upTo: Self.largestAnswer)) } else { [] }
                    return (response, bytes)
                }
            }
        } catch {
            answered = nil
            record.refused(code: "internal-error", reason: "\(error)")
        }
        let status = answered.map { Int($0.0.status.code) } ?? 500
        let (code, reason) = record.problem
        RequestScope.record?.pushed(operation.operation, status: status, code: code, failure: status >= 500 ? reason ?? "no answer" : nil)
        guard let (response, bytes) = answered else { return nil }
        return outcome(of: operation, response.status.code, bytes)
    }

    /// The outcome of `operation` answered `status` and `bytes`; nil when the answer is not
    /// about the operation itself.
    private func outcome(of operation: SyncOperation, _ status: Int, _ bytes: [UInt8]) -> SyncOutcome? {
        switch status {
        case 200..<300:
            return SyncOutcome(key: operation.key, kind: .applied, status: status, answer: bytes.isEmpty ? nil : bytes)
        case 500...:
            // The store failed or the server is stopping: not answered, tried again next push.
            return nil
        default:
            let code = (try? JSONDecoder().decode(Components.Schemas.Problem.self, from: Data(bytes)))?.error
            // Not a refusal of the operation: the same key still being answered (a push sent
            // again too soon), a limit for now, or a session that ended meanwhile. It waits.
            if [.idempotencyKeyInUse, .rateLimited, .unauthenticated, .sessionExpired].contains(code) || status == 429 || status == 401 { return nil }
            return SyncOutcome(key: operation.key, kind: code == .changedSince ? .conflict : .refused, status: status, answer: bytes)
        }
    }

    private func refused(_ operation: SyncOperation, _ problem: APIProblem) -> SyncOutcome {
        SyncOutcome(key: operation.key, kind: .refused, status: Int(problem.status.code), answer: Array(problem.bodyBytes))
    }
}
