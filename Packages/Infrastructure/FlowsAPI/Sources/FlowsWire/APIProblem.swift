import FlowsAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A refusal, as the API answers it: a status and a `Problem` body (docs/api/openapi.yaml).
///
/// The server throws it and writes it out; each area's ``ProblemTable`` maps every domain error
/// to exactly one, so a client can rebuild the error the service threw.
public struct APIProblem: Error, Equatable, Sendable {
    public typealias Code = Components.Schemas.ErrorCode

    public var status: HTTPResponse.Status
    public var problem: Components.Schemas.Problem
    public var headers: HTTPFields = [:]
    /// What went wrong inside, for the server's log only: a client never sees it.
    public var logged: String?

    public init(_ status: HTTPResponse.Status, _ code: Code, _ message: String, details: Components.Schemas.ProblemDetails? = nil) {
        self.status = status
        problem = Components.Schemas.Problem(error: code, message: message, details: details)
    }

    /// The problem as JSON.
    public var bodyBytes: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A Problem is plain strings and numbers: encoding cannot fail; the fallback says so.
        return (try? encoder.encode(problem)) ?? Data(#"{"error":"internal-error","message":"The server failed."}"#.utf8)
    }

    /// The same problem, with what the server's log says beside it (never sent).
    public func logging(_ reason: String) -> APIProblem {
        var copy = self
        copy.logged = reason
        return copy
    }

    // MARK: - The HTTP layer's own

    public static func invalidRequest(_ message: String, field: String? = nil) -> APIProblem {
        APIProblem(.badRequest, .invalidRequest, message, details: field.map { .init(field: $0) })
    }

    public static func unauthenticated(_ message: String, tokenSent: Bool) -> APIProblem {
        var problem = APIProblem(.unauthorized, .unauthenticated, message)
        problem.headers[.wwwAuthenticate] = tokenSent ? #"Bearer error="invalid_token""# : "Bearer"
        return problem
    }

    public static func rateLimited(_ message: String, retryAfter seconds: Int) -> APIProblem {
        var problem = APIProblem(.tooManyRequests, .rateLimited, message)
        problem.headers[.retryAfter] = String(max(1, seconds))
        return problem
    }

    public static var internalError: APIProblem {
        APIProblem(.internalServerError, .internalError, "The server failed to answer; nothing was changed that is not shown.")
    }

    /// A value of the request no domain type accepts, in the domain's words.
    public static func invalidValue(_ code: Code, _ message: String, field: String) -> APIProblem {
        APIProblem(.unprocessableContent, code, message, details: .init(field: field))
    }

    /// What the store reported; nothing was changed.
    public static func storeUnavailable(_ reason: String) -> APIProblem {
        // The reason names the store's insides; it goes to the log, not to the client.
        APIProblem(.serviceUnavailable, .storeUnavailable, "The store is unavailable; nothing was changed. Try again.")
            .logging(reason)
    }

    public static func refused(_ rule: String) -> APIProblem {
        APIProblem(.conflict, .refused, "The store refused the change; nothing was saved.", details: .init(reason: rule))
    }
}

/// Why a call to the server did not give its answer.
public enum RemoteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused, with the contract's Problem (its code says which domain error), and
    /// the seconds to wait when it said so.
    case refused(status: Int, problem: Components.Schemas.Problem, retryAfter: Int?)
    /// The server could not be reached, or answered something the contract does not say.
    case unreachable(String)

    public var description: String {
        switch self {
        case .refused(let status, let problem, _): "HTTP \(status) \(problem.error.rawValue): \(problem.message)"
        case .unreachable(let reason): reason
        }
    }

    /// The Problem's code, for a refusal.
    public var code: Components.Schemas.ErrorCode? {
        if case .refused(_, let problem, _) = self { problem.error } else { nil }
    }

    /// A refusal that means the session is gone (no token, ended, expired, forged).
    public var isSignedOut: Bool {
        switch code {
        case .unauthenticated?, .sessionExpired?, .noSuchAccount?: true
        default: false
        }
    }

    /// The Problem's details, for a refusal.
    public var details: Components.Schemas.ProblemDetails? {
        if case .refused(_, let problem, _) = self { problem.details } else { nil }
    }

    /// The Problem's message, for a refusal; the reason, otherwise.
    public var message: String {
        switch self {
        case .refused(_, let problem, _): problem.message
        case .unreachable(let reason): reason
        }
    }

    /// The case of a domain's problem enum the code names: the code is `prefix` and the case's
    /// name in kebab case (`invalid-email-` and `controlCharacters`: `invalid-email-control-characters`).
    public func problem<Problem: CaseIterable>(_ type: Problem.Type, prefix: String) -> Problem? {
        guard let code = code?.rawValue, code.hasPrefix(prefix) else { return nil }
        return Problem.allCases.first { prefix + Self.kebab(String(describing: $0)) == code }
    }

    public static func kebab(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "-" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
