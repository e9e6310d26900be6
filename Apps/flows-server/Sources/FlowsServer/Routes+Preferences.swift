import Accounts
import FlowsAPI
import FlowsWire
import Foundation
import OpenAPIRuntime
import Preferences
import PreferencesRemote
import Primitives

extension EndpointRoutes {
    /// The stream of the preferences' changes (their operations are ``contract(_:)``'s).
    func preferences(_ preferences: any PreferencesService) throws {
        try serveStream(Self.watchPreferences, "/preferences/changes") { session in Self.events(preferences.changes(of: session.user.id), session) }
    }

    /// Server-sent events: the preferences now, then each change; a comment every
    /// ``keepAliveInterval`` keeps proxies from closing a quiet stream, and the stream ends
    /// once the session has ended.
    static func events(_ changes: AsyncStream<Preferences>, _ session: RequestSession) -> HTTPBody {
        let events = AsyncStream<ArraySlice<UInt8>> { continuation in
            let forward = Task {
                for await preferences in changes {
                    guard let json = try? WireJSON.encode(Wire.preferences.write(preferences)) else { continue }
                    continuation.yield(ArraySlice(Array("event: preferences\ndata: ".utf8) + Array(json) + Array("\n\n".utf8)))
                }
                continuation.finish()
            }
            let keepAlive = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: keepAliveInterval)
                    guard !Task.isCancelled else { break }
                    guard case .signedIn = try? await session.accounts.storedSession() else { break }
                    continuation.yield(ArraySlice(": still here\n\n".utf8))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                forward.cancel()
                keepAlive.cancel()
            }
        }
        return HTTPBody(events, length: .unknown, iterationBehavior: .single)
    }

    static let keepAliveInterval: Duration = .seconds(15)

    /// The stream's operation id, which the media types' check knows it by.
    static let watchPreferences = "watchPreferences"

    // MARK: - Health

    /// `GET /health`: the process answers; `GET /ready`: and its store does too.
    func health(_ services: ServerServices) throws {
        try serveOpen(Self.checkHealth) { _ in }
        try serveOpen(Self.checkReadiness) { _ in
            guard await services.probe() else { throw APIProblem.notReady }
        }
    }

    static let checkHealth = Endpoint<Void, Void, APIProblem>(
        "checkHealth", .get, "/health", request: .none, response: .json(healthy), problems: .server
    )
    static let checkReadiness = Endpoint<Void, Void, APIProblem>(
        "checkReadiness", .get, "/ready", request: .none, response: .json(healthy), problems: .server
    )
    private static let healthy = WireValue<Void, Components.Schemas.HealthStatus>(read: { _, _ in () }, write: { .init(status: .ok) })
}

extension ProblemTable<APIProblem> {
    /// The server's own operations' refusals, as they are.
    static let server = ProblemTable(problem: { $0 }, failure: { _ in .internalError })
}
