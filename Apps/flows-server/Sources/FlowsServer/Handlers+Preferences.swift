import Accounts
import FlowsAPI
import FlowsWire
import Foundation
import OpenAPIRuntime
import Preferences
import PreferencesRemote
import Primitives

extension EndpointRoutes {
    /// Preferences' operations (``PreferencesAPI``); their event stream is the generated one below.
    func preferences(_ preferences: any PreferencesService) throws {
        try serve(PreferencesAPI.getPreferences) { _, user in try await preferences.preferences(of: user) }
        try serve(PreferencesAPI.updatePreferences) { update, user in try await preferences.update(update, of: user) }
    }
}

extension Handlers {
    func getPreferences(_ input: Operations.GetPreferences.Input) async throws -> Operations.GetPreferences.Output { throw ServedByEndpoint() }
    func updatePreferences(_ input: Operations.UpdatePreferences.Input) async throws -> Operations.UpdatePreferences.Output {
        throw ServedByEndpoint()
    }

    /// Server-sent events: the preferences now, then each change; a comment every
    /// ``keepAliveInterval`` keeps proxies from closing a quiet stream, and the stream ends
    /// once the session has ended.
    func watchPreferences(_ input: Operations.WatchPreferences.Input) async throws -> Operations.WatchPreferences.Output {
        let session = try session
        let changes = services.preferences.changes(of: session.user.id)
        let events = AsyncStream<ArraySlice<UInt8>> { continuation in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let forward = Task {
                for await preferences in changes {
                    guard let json = try? encoder.encode(Wire.preferences.write(preferences)) else { continue }
                    continuation.yield(ArraySlice(Array("event: preferences\ndata: ".utf8) + Array(json) + Array("\n\n".utf8)))
                }
                continuation.finish()
            }
            let keepAlive = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.keepAliveInterval)
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
        return .ok(.init(body: .textEventStream(HTTPBody(events, length: .unknown, iterationBehavior: .single))))
    }

    static let keepAliveInterval: Duration = .seconds(15)

    // MARK: - Health

    func checkHealth(_ input: Operations.CheckHealth.Input) async throws -> Operations.CheckHealth.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    func checkReadiness(_ input: Operations.CheckReadiness.Input) async throws -> Operations.CheckReadiness.Output {
        guard await services.probe() else { throw APIProblem.notReady }
        return .ok(.init(body: .json(.init(status: .ok))))
    }
}
