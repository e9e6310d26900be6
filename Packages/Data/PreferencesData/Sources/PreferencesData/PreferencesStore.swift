/// A user's stored preferences. Plain values: the domain checks, the store keeps.
public struct PreferencesRecord: Equatable, Sendable {
    public var userID: String
    /// A `Theme`'s stored text.
    public var theme: String
    /// An ISO 4217 code.
    public var defaultCurrency: String

    public init(userID: String, theme: String, defaultCurrency: String) {
        self.userID = userID
        self.theme = theme
        self.defaultCurrency = defaultCurrency
    }
}

/// Where preferences are kept; everything one `write` does is one transaction.
public protocol PreferencesStore: Sendable {
    func read<T: Sendable>(_ body: @escaping @Sendable (any PreferencesReading) throws -> T) async throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (any PreferencesWriting) throws -> T) async throws -> T
}

/// Look-ups inside a transaction.
public protocol PreferencesReading {
    /// The user's preferences, or nil when they never stored any.
    func preferences(userID: String) throws -> PreferencesRecord?
}

/// Changes inside a transaction.
public protocol PreferencesWriting: PreferencesReading {
    /// Stores the record, replacing the user's previous one.
    func save(_ record: PreferencesRecord) throws
}
