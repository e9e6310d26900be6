import Accounts
import Expenses
import FlowsAPI
import FlowsWire
import Primitives

/// The contract's operations on the domain services: each reads its request into domain
/// values, calls one service as the signed-in user, and writes the answer back.
///
/// Domain errors are thrown as ``APIProblem``s (their status and code); the session was checked
/// by ``SessionMiddleware`` before any handler that needs one runs.
struct Handlers: APIProtocol {
    let services: ServerServices
    let limits: SignInLimits

    /// The signed-in session of the request.
    var session: RequestSession {
        get throws(APIProblem) {
            // SessionMiddleware lets no request through to an operation that needs a session
            // without one; this is the backstop.
            guard let session = RequestScope.session else { throw .unauthenticated("Sign in first.", tokenSent: false) }
            return session
        }
    }

    /// The signed-in user's id.
    var user: UserID {
        get throws(APIProblem) { try session.user.id }
    }

    /// A page of a list: `offset` from 0, `limit` from 1 to 1,000 (50 when absent).
    static func page(offset: Int32?, limit: Int32?) throws(APIProblem) -> PageRequest {
        let offset = Int(offset ?? 0)
        let limit = Int(limit ?? 50)
        guard offset >= 0 else { throw .invalidRequest("The query parameter \"offset\" is at least 0.", field: "offset") }
        guard (1...1_000).contains(limit) else { throw .invalidRequest("The query parameter \"limit\" is from 1 to 1000.", field: "limit") }
        return PageRequest(offset: offset, limit: limit)
    }
}

// MARK: - Calling the services

/// Runs a service call, turning its typed error into the API's refusal.
func accounts<T>(_ work: () async throws(AccountsError) -> T) async throws(APIProblem) -> T {
    do { return try await work() } catch { throw APIProblem(error) }
}

func expenses<T>(_ work: () async throws(ExpensesError) -> T) async throws(APIProblem) -> T {
    do { return try await work() } catch { throw APIProblem(error) }
}
