import Primitives

/// A replica's accounts, as pulled from a server (docs/sync.md): what the replica's user may see
/// of each, written into the same store the way the service's own writes leave it, so that
/// every read answers on the replica as on the server.
///
/// An account is kept as a row without a password (nobody signs in on a replica with one). For
/// someone the user sees by name only, the email and the friend code are stand-ins that belong
/// to nobody and that no read shows: a name alone is what a shared expense or a group tells.
public protocol AccountsReplica: Sendable {
    /// Puts an account the user may see in full (their own, a friend's), in place of what is
    /// kept of it.
    func put(_ user: User) async throws(AccountsError)
    /// Puts the name of an account the user sees by name only, keeping whatever else is known.
    func put(_ profile: PublicProfile) async throws(AccountsError)
    /// Puts the avatar shown beside a person's name.
    func putAvatar(_ avatar: Avatar, of person: UserID) async throws(AccountsError)
}
