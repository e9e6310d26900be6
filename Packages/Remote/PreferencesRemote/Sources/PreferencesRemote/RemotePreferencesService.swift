import FlowsAPIClient
import Preferences
import Primitives

/// The preferences service of a flows-server, over HTTP, for the signed-in user: each operation
/// is its ``PreferencesAPI`` endpoint.
///
/// The `user` of each call is the session's: a server acts only as the user whose token it
/// was sent.
///
/// The operations sent as they stand are in `RemotePreferencesService+Contract.swift`, which
/// Scripts/generate-services writes from the `- Contract:` tags of ``PreferencesService``; here are the rest.
public struct RemotePreferencesService: PreferencesService {
    let connection: APIConnection
    private let pollInterval: Duration

    public init(connection: APIConnection, pollInterval: Duration = changePollInterval) {
        self.connection = connection
        self.pollInterval = pollInterval
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
}
