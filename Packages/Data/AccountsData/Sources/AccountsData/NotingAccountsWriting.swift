import DataChanges

/// A transaction's writes, each noting what it changed and for whom, then done by `base`: a
/// user's own account, for them, whenever what it shows them changes (made, renamed, a new
/// email, proved or not, a new avatar). Sessions and codes are not part of what a replica holds.
public struct NotingAccountsWriting: AccountsWriting {
    /// The transaction it wraps, whose reads it passes on as they are
    /// (NotingAccountsWriting+Reading.swift, which Scripts/generate-services writes).
    let base: any AccountsWriting
    private let people: ChangedPeople

    public init(_ base: any AccountsWriting, noting people: ChangedPeople) {
        self.base = base
        self.people = people
    }

    public func insert(_ user: UserRecord) throws {
        accountChanged(user.id)
        try base.insert(user)
    }

    public func updateDisplayName(userID: String, to name: String) throws {
        accountChanged(userID)
        try base.updateDisplayName(userID: userID, to: name)
    }

    public func updateEmail(userID: String, to email: String, key: String) throws {
        accountChanged(userID)
        try base.updateEmail(userID: userID, to: email, key: key)
    }

    public func updateFriendCode(userID: String, to code: String) throws {
        accountChanged(userID)
        try base.updateFriendCode(userID: userID, to: code)
    }

    public func saveAvatar(_ avatar: AvatarRecord?, userID: String) throws {
        accountChanged(userID)
        try base.saveAvatar(avatar, userID: userID)
    }

    public func setEmailVerified(userID: String, at time: Double?) throws {
        accountChanged(userID)
        try base.setEmailVerified(userID: userID, at: time)
    }

    private func accountChanged(_ userID: String) { people.changed(.account, userID, for: [userID]) }

    // MARK: - Passed on as they are

    public func insert(_ session: SessionRecord) throws { try base.insert(session) }
    public func deleteSession(tokenHash: String) throws { try base.deleteSession(tokenHash: tokenHash) }
    public func touchSession(tokenHash: String, at time: Double) throws { try base.touchSession(tokenHash: tokenHash, at: time) }
    public func deleteSessions(userID: String, unusedSince time: Double) throws { try base.deleteSessions(userID: userID, unusedSince: time) }
    public func deleteSessions(userID: String, except tokenHash: String?) throws { try base.deleteSessions(userID: userID, except: tokenHash) }
    public func updatePasswordHash(userID: String, to hash: String) throws { try base.updatePasswordHash(userID: userID, to: hash) }
    public func saveEmailVerification(_ record: EmailVerificationRecord) throws { try base.saveEmailVerification(record) }
    public func takeEmailVerificationTry(userID: String) throws -> Int? { try base.takeEmailVerificationTry(userID: userID) }
    public func deleteEmailVerification(userID: String) throws { try base.deleteEmailVerification(userID: userID) }
}
