/// Where users and sessions are kept.
///
/// Work is done inside `read` or `write`; everything one `write` does is one transaction, so a
/// user path's write happens completely or not at all (a throw inside the body rolls it back).
public protocol AccountsStore: Sendable {
    func read<T: Sendable>(_ body: @escaping @Sendable (any AccountsReading) throws -> T) async throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (any AccountsWriting) throws -> T) async throws -> T
}

/// Look-ups inside a transaction.
public protocol AccountsReading {
    func user(id: String) throws -> UserRecord?
    func user(emailKey: String) throws -> UserRecord?
    func user(friendCode: String) throws -> UserRecord?
    func session(tokenHash: String) throws -> SessionRecord?
    /// The ids among `ids` that belong to a user.
    func existingUserIDs(among ids: [String]) throws -> Set<String>
    /// Every session of a user, oldest first.
    func sessions(userID: String) throws -> [SessionRecord]
    /// The user's avatar, or nil when they have none.
    func avatar(userID: String) throws -> AvatarRecord?
    /// The code waiting to prove the user's email, or nil.
    func emailVerification(userID: String) throws -> EmailVerificationRecord?
}

/// Changes inside a transaction.
public protocol AccountsWriting: AccountsReading {
    /// Throws ``AccountsDataError/emailTaken`` when another user has the same email key (the
    /// friend code is unique too: the caller picks a free one in the same transaction).
    func insert(_ user: UserRecord) throws
    func insert(_ session: SessionRecord) throws
    func deleteSession(tokenHash: String) throws
    /// Records that a session was used at `time`.
    func touchSession(tokenHash: String, at time: Double) throws
    /// Ends a user's sessions last used before `time`.
    func deleteSessions(userID: String, unusedSince time: Double) throws
    /// Ends every session of a user but the one with `tokenHash` (none kept when nil).
    func deleteSessions(userID: String, except tokenHash: String?) throws
    /// Replaces a user's display name.
    func updateDisplayName(userID: String, to name: String) throws
    /// Replaces a user's email; throws ``AccountsDataError/emailTaken`` when another user has
    /// the key.
    func updateEmail(userID: String, to email: String, key: String) throws
    /// Replaces a user's friend code (a replica's, which learns a friend's real code in place
    /// of the stand-in it kept for a name alone); unique as at sign-up.
    func updateFriendCode(userID: String, to code: String) throws
    /// Replaces a user's password hash.
    func updatePasswordHash(userID: String, to hash: String) throws
    /// Replaces a user's avatar; nil removes it.
    func saveAvatar(_ avatar: AvatarRecord?, userID: String) throws
    /// Records when the user's email was proved; nil makes it unproved.
    func setEmailVerified(userID: String, at time: Double?) throws
    /// Keeps `record` as the user's waiting code, in place of any other.
    func saveEmailVerification(_ record: EmailVerificationRecord) throws
    /// Takes one try of the user's waiting code, in one statement (tries made at once each
    /// count): how many are left after it, or nil when none was left to take.
    func takeEmailVerificationTry(userID: String) throws -> Int?
    /// Drops the user's waiting code, if any.
    func deleteEmailVerification(userID: String) throws
}

/// Failures a store reports in terms the domain can act on.
public enum AccountsDataError: Error, Equatable, Sendable {
    /// The unique email constraint refused the write.
    case emailTaken
    /// Another constraint of the store refused the write (a rule the domain should have
    /// checked first); the text says which.
    case refused(String)
}
