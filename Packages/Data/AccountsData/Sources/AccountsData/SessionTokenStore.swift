import Synchronization

/// Where the app keeps the token of the current session between runs (the CLI: a file that only
/// its owner can read).
public protocol SessionTokenStore: Sendable {
    func load() throws -> String?
    func save(_ token: String) throws
    func clear() throws
}

/// A token kept in memory, for tests and for tools that embed the modules.
public final class InMemorySessionTokenStore: SessionTokenStore {
    private let token: Mutex<String?>

    public init(token: String? = nil) {
        self.token = Mutex(token)
    }

    public func load() throws -> String? { token.withLock { $0 } }
    public func save(_ token: String) throws { self.token.withLock { $0 = token } }
    public func clear() throws { token.withLock { $0 = nil } }
}
