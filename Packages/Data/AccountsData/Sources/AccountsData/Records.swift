/// A stored user. Plain values: the domain validates, the store keeps.
public struct UserRecord: Equatable, Sendable {
    public var id: String
    /// The email as the user typed it (trimmed).
    public var email: String
    /// The email in lower case; unique among users.
    public var emailKey: String
    public var displayName: String
    /// What friends type or scan to find the user: nine characters, no dashes; unique.
    public var friendCode: String
    /// A bcrypt hash (of a pre-hash of the password); never the password.
    public var passwordHash: String
    /// Seconds since 1970 in UTC.
    public var createdAt: Double
    /// When the user proved they read the mail of ``email`` (seconds since 1970), or nil.
    public var emailVerifiedAt: Double?

    public init(
        id: String, email: String, emailKey: String, displayName: String, friendCode: String, passwordHash: String, createdAt: Double,
        emailVerifiedAt: Double? = nil
    ) {
        self.id = id
        self.email = email
        self.emailKey = emailKey
        self.displayName = displayName
        self.friendCode = friendCode
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.emailVerifiedAt = emailVerifiedAt
    }
}

/// The code waiting to prove a user's email; one per user, the last sent.
public struct EmailVerificationRecord: Equatable, Sendable {
    public var userID: String
    /// The key of the email the code was sent to: it proves that one only.
    public var emailKey: String
    /// SHA-256 of the user's id and the code, in hexadecimal; never the code.
    public var codeHash: String
    /// Seconds since 1970 in UTC.
    public var sentAt: Double
    /// Wrong codes still allowed.
    public var triesLeft: Int

    public init(userID: String, emailKey: String, codeHash: String, sentAt: Double, triesLeft: Int) {
        self.userID = userID
        self.emailKey = emailKey
        self.codeHash = codeHash
        self.sentAt = sentAt
        self.triesLeft = triesLeft
    }
}

/// A stored avatar: initials on a colour, or a picture with its format and size.
public struct AvatarRecord: Equatable, Sendable {
    public var userID: String
    /// `initials` or `image`.
    public var kind: String
    public var colour: String?
    public var format: String?
    public var width: Int?
    public var height: Int?
    public var bytes: [UInt8]?

    public init(userID: String, kind: String, colour: String? = nil, format: String? = nil, width: Int? = nil, height: Int? = nil, bytes: [UInt8]? = nil) {
        self.userID = userID
        self.kind = kind
        self.colour = colour
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// A stored session: only the hash of its token is kept.
public struct SessionRecord: Equatable, Sendable {
    /// SHA-256 of the token, in hexadecimal.
    public var tokenHash: String
    public var userID: String
    /// Seconds since 1970 in UTC.
    public var createdAt: Double
    /// When the session was last used (signed in, or found at a launch), seconds since 1970.
    public var lastUsedAt: Double
    /// What signed in, in words (`flows on this machine`, a server's client's user agent);
    /// empty for sessions from before it was kept.
    public var client: String

    public init(tokenHash: String, userID: String, createdAt: Double, lastUsedAt: Double? = nil, client: String = "") {
        self.tokenHash = tokenHash
        self.userID = userID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt ?? createdAt
        self.client = client
    }
}
