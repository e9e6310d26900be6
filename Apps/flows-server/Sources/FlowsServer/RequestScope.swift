import Accounts
import Primitives
import Synchronization

/// What the server knows of the request being served, for the code that serves it: task-local
/// values, set by the middlewares around the handlers.
enum RequestScope {
    /// Where the request came from, for per-address limits.
    @TaskLocal static var origin: RequestOrigin?
    /// The signed-in session the request carries, once ``SessionMiddleware`` checked it.
    @TaskLocal static var session: RequestSession?
    /// What the request log line says about the request, filled in as it is served.
    @TaskLocal static var record: RequestRecord?
    /// Whether the request is an operation of a push (``PushedOperations``), applied within the
    /// push's own checked session and kept under its key whatever it is.
    @TaskLocal static var pushed = false
}

/// A request's checked session: whose it is, and the accounts service holding its token (the
/// one that may end it or keep it when the password changes).
struct RequestSession: Sendable {
    let user: User
    let accounts: any AccountsService
}

/// What is known of a request beyond its method and path, for its log line.
final class RequestRecord: Sendable {
    private let state = Mutex<(user: UserID?, error: String?, reason: String?)>((nil, nil, nil))
    /// A push's operations, each as `operationId status` (and its error code), and what failed
    /// inside the server while one was applied.
    private let pushes = Mutex<(operations: [String], failure: String?)>(([], nil))

    /// Notes one operation of a push, as it was answered.
    func pushed(_ operation: String, status: Int, code: String?, failure: String?) {
        pushes.withLock {
            $0.operations.append("\(operation) \(status)" + (code.map { " \($0)" } ?? ""))
            if let failure { $0.failure = failure }
        }
    }

    var pushed: (operations: [String], failure: String?) { pushes.withLock { $0 } }

    var user: UserID? {
        get { state.withLock { $0.user } }
        set { state.withLock { $0.user = newValue } }
    }

    /// The problem code the request was answered with, and what happened inside (never sent).
    func refused(code: String, reason: String?) {
        state.withLock {
            $0.error = code
            $0.reason = reason
        }
    }

    var problem: (code: String?, reason: String?) { state.withLock { ($0.error, $0.reason) } }
}
