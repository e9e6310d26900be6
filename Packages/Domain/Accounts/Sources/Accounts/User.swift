import Primitives

/// A person with an account.
public struct User: Equatable, Hashable, Sendable, Codable {
    public let id: UserID
    public var email: EmailAddress
    public var displayName: DisplayName

    public init(id: UserID, email: EmailAddress, displayName: DisplayName) {
        self.id = id
        self.email = email
        self.displayName = displayName
    }
}
