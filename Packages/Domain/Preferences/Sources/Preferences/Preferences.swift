import Primitives

/// What a user chose for how the app looks and works; stored per user.
public struct Preferences: Equatable, Sendable, Codable {
    /// The colours of every screen (`--theme` and NO_COLOR still win for one run).
    public var theme: Theme
    /// The currency a new expense starts in.
    public var defaultCurrency: Currency

    public init(theme: Theme, defaultCurrency: Currency) {
        self.theme = theme
        self.defaultCurrency = defaultCurrency
    }

    /// What a user has before choosing anything.
    public static let standard = Preferences(theme: .dark, defaultCurrency: .eur)
}

/// A user's preferences: read, changed, and watched for changes made anywhere.
///
/// Each call takes the acting user and touches only that user's preferences.
public protocol PreferencesService: Sendable {
    /// The user's preferences; ``Preferences/standard`` until they change one.
    /// - Contract: getPreferences
    func preferences(of user: UserID) async throws(PreferencesError) -> Preferences

    /// Stores the user's preferences, in one write.
    /// - Contract: updatePreferences
    func update(_ preferences: Preferences, of user: UserID) async throws(PreferencesError)

    /// The user's preferences now, then each time they change: changed through this service at
    /// once, changed by another process on the same store within ``changePollInterval``. Ends
    /// when the consumer stops listening.
    func changes(of user: UserID) -> AsyncStream<Preferences>
}

/// How often a watcher looks for changes made by another process.
public let changePollInterval: Duration = .milliseconds(500)

/// Why preferences could not be read or stored.
public enum PreferencesError: Error, Equatable, Sendable {
    /// The store could not be read or written; nothing was changed.
    case storeUnavailable(String)
    /// The session ended while in use (a server's service).
    case signedOut
    /// The server could not be reached, or answered something it should not.
    case serverUnreachable(String)

    /// One sentence for the user.
    public var message: String {
        switch self {
        case .storeUnavailable(let reason): "The local store is unavailable: \(reason)"
        case .signedOut: ServerMessages.signedOut
        case .serverUnreachable(let reason): ServerMessages.unreachable(reason)
        }
    }
}

/// Colours the app's screens with the signed-in user's stored theme and follows each change to
/// it, made here or in another process (the design's ThemeManager, injected into the flows that
/// know who is signed in rather than reached as a global).
public protocol ThemeManager: Sendable {
    /// From now on the screens follow `user`'s stored theme; nil goes back to the colours the
    /// run started with (nobody is signed in).
    func follow(_ user: UserID?) async

    /// Colours the screens with `theme` now: a flow that has just stored it calls this before it
    /// draws the screen that says so, which the watch would otherwise recolour a moment later.
    func show(_ theme: Theme) async
}
