import FlowsAPI
import FlowsAPIClient
import Preferences
import Primitives

/// The preferences service of a flows-server, over HTTP, for the signed-in user.
///
/// The `user` of each call is the session's: a server acts only as the user whose token it
/// was sent.
public struct RemotePreferencesService: PreferencesService {
    private let connection: APIConnection
    private let pollInterval: Duration

    public init(connection: APIConnection, pollInterval: Duration = changePollInterval) {
        self.connection = connection
        self.pollInterval = pollInterval
    }

    public func preferences(of user: UserID) async throws(PreferencesError) -> Preferences {
        let wire = try await call { try await $0.getPreferences().ok.body.json }
        guard let currency = Currency(code: wire.defaultCurrency), let theme = Theme(rawValue: wire.theme.rawValue) else {
            throw .serverUnreachable("\(connection.server.absoluteString) answered preferences this app does not know")
        }
        return Preferences(theme: theme, defaultCurrency: currency)
    }

    public func update(_ preferences: Preferences, of user: UserID) async throws(PreferencesError) {
        let body = Components.Schemas.PreferencesUpdate(
            theme: Components.Schemas.Theme(rawValue: preferences.theme.rawValue) ?? .dark, defaultCurrency: preferences.defaultCurrency.code
        )
        _ = try await call { try await $0.updatePreferences(body: .json(body)).noContent }
    }

    /// The preferences now, then each change, read every `pollInterval` (the server's event
    /// stream is for clients that can read a body as it arrives; URLSession on Linux cannot).
    public func changes(of user: UserID) -> AsyncStream<Preferences> {
        let service = self
        return AsyncStream { continuation in
            let task = Task {
                var last: Preferences?
                while !Task.isCancelled {
                    // A server that cannot be reached now is asked again next time.
                    if let current = try? await service.preferences(of: user), current != last {
                        last = current
                        continuation.yield(current)
                    }
                    try? await Task.sleep(for: service.pollInterval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func call<T>(_ work: (Client) async throws -> T) async throws(PreferencesError) -> T {
        do {
            return try await connection.call(work)
        } catch {
            if error.isSignedOut { throw .signedOut }
            switch error.code {
            case .storeUnavailable?: throw .storeUnavailable(error.message)
            default: throw .serverUnreachable(error.description)
            }
        }
    }
}
