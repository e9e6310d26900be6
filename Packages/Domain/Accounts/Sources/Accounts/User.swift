import Primitives

/// A person with an account.
public struct User: Equatable, Hashable, Sendable, Codable {
    public let id: UserID
    public var email: EmailAddress
    public var displayName: DisplayName
    /// What friends type or scan to find them; drawn at sign-up, never changed.
    public let friendCode: FriendCode
    /// Whether the user proved they read the mail of ``email`` (see ``EmailVerificationPolicy``).
    /// Where emails are not verified (the embedded store, one machine), every email counts as
    /// verified. An unverified account signs in and shares as any other, but nobody finds it by
    /// its email, and it claims no one's contacts.
    public var emailVerified: Bool

    public init(id: UserID, email: EmailAddress, displayName: DisplayName, friendCode: FriendCode, emailVerified: Bool = true) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.friendCode = friendCode
        self.emailVerified = emailVerified
    }

    /// What anyone who finds the account may see of it.
    public var profile: PublicProfile { PublicProfile(id: id, name: displayName) }
}
