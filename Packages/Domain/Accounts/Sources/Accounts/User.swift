import Primitives

/// A person with an account.
public struct User: Equatable, Hashable, Sendable, Codable {
    public let id: UserID
    public var email: EmailAddress
    public var displayName: DisplayName
    /// What friends type or scan to find them; drawn at sign-up, never changed.
    public let friendCode: FriendCode

    public init(id: UserID, email: EmailAddress, displayName: DisplayName, friendCode: FriendCode) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.friendCode = friendCode
    }

    /// What anyone who finds the account may see of it.
    public var profile: PublicProfile { PublicProfile(id: id, name: displayName) }
}
