import Accounts
import FlowsAPI
import Foundation
import OpenAPIRuntime
import Preferences
import Primitives

extension Handlers {
    func getPreferences(_ input: Operations.GetPreferences.Input) async throws -> Operations.GetPreferences.Output {
        let user = try user
        let current = try await preferences { () async throws(PreferencesError) in try await services.preferences.preferences(of: user) }
        return .ok(.init(body: .json(.init(current))))
    }

    func updatePreferences(_ input: Operations.UpdatePreferences.Input) async throws -> Operations.UpdatePreferences.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let currency = try Read.currency(body.defaultCurrency, field: "/defaultCurrency")
        let theme = Theme(rawValue: body.theme.rawValue) ?? .dark
        try await preferences { () async throws(PreferencesError) in
            try await services.preferences.update(Preferences(theme: theme, defaultCurrency: currency), of: user)
        }
        return .noContent(.init())
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
                    guard let json = try? encoder.encode(Components.Schemas.Preferences(preferences)) else { continue }
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
