/// What anyone who finds an account may learn of it: its id and display name. A look-up by
/// friend code or email answers this, never the email (the avatar is its own request): knowing
/// a friend code is then no way to learn an email, and a scan of codes harvests no addresses.
public struct PublicProfile: Equatable, Hashable, Sendable, Codable {
    public let id: UserID
    public let name: DisplayName

    public init(id: UserID, name: DisplayName) {
        self.id = id
        self.name = name
    }
}
