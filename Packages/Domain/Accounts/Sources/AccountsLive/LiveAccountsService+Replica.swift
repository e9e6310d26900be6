import Accounts
import AccountsData
import Primitives

/// A replica's accounts, as pulled: rows without a password, the name and, where the user may
/// see them, the email and the friend code (stand-ins otherwise, which no read shows).
extension LiveAccountsService: AccountsReplica {
    public func put(_ user: User) async throws(AccountsError) {
        let record = UserRecord(
            id: user.id.rawValue, email: user.email.value, emailKey: EmailAddress.key(for: user.email.value), displayName: user.displayName.value,
            friendCode: user.friendCode.rawValue, passwordHash: Self.noPassword, createdAt: 0
        )
        let verified = user.emailVerified
        try await storing {
            try await store.write { db in
                try Self.freeEmail(record.emailKey, for: record.id, in: db)
                if let kept = try db.user(id: record.id) {
                    if kept.displayName != record.displayName { try db.updateDisplayName(userID: record.id, to: record.displayName) }
                    if kept.email != record.email || kept.emailKey != record.emailKey {
                        try db.updateEmail(userID: record.id, to: record.email, key: record.emailKey)
                    }
                    if kept.friendCode != record.friendCode { try db.updateFriendCode(userID: record.id, to: record.friendCode) }
                    if (kept.emailVerifiedAt != nil) != verified { try db.setEmailVerified(userID: record.id, at: verified ? 0 : nil) }
                } else {
                    try db.insert(record)
                    if verified { try db.setEmailVerified(userID: record.id, at: 0) }
                }
            }
        }
    }

    public func put(_ profile: PublicProfile) async throws(AccountsError) {
        let (id, name) = (profile.id.rawValue, profile.name.value)
        try await storing {
            try await store.write { db in
                if let kept = try db.user(id: id) {
                    if kept.displayName != name { try db.updateDisplayName(userID: id, to: name) }
                } else {
                    let email = Self.standInEmail(for: id)
                    try db.insert(
                        UserRecord(
                            id: id, email: email, emailKey: email, displayName: name, friendCode: Self.standInCode(for: id), passwordHash: Self.noPassword,
                            createdAt: 0
                        )
                    )
                }
            }
        }
    }

    public func putAvatar(_ avatar: Avatar, of person: UserID) async throws(AccountsError) {
        // Only a person kept on the replica has an avatar there: their row comes first.
        let id = person.rawValue
        guard try await storing({ try await store.read { db in try db.user(id: id) != nil } }) else { return }
        try await changeAvatar(to: avatar, of: person)
    }

    /// What a replica's row holds for a password: no bcrypt hash, so no password matches it.
    private static let noPassword = "-"

    /// An email that belongs to nobody (the `.invalid` domain is reserved for that), for an
    /// account seen by name alone.
    static func standInEmail(for id: String) -> String { "\(id.lowercased())@replica.invalid" }

    /// A friend code no real one can be (it starts with `~`), for an account seen by name alone:
    /// eight characters of a hash of its id (FNV-1a, the same on every machine).
    static func standInCode(for id: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var code = "~"
        for index in 0..<8 { code.append(alphabet[Int((hash >> UInt64(index * 5)) & 31)]) }
        return code
    }

    /// Gives another row holding `key` (an account whose email changed since, on the server) its
    /// stand-in, so the account pulled may have it.
    private static func freeEmail(_ key: String, for id: String, in db: any AccountsWriting) throws {
        guard let holder = try db.user(emailKey: key), holder.id != id else { return }
        let standIn = standInEmail(for: holder.id)
        try db.updateEmail(userID: holder.id, to: standIn, key: standIn)
    }
}
