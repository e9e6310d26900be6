import Accounts
import DataChanges
import Expenses
import Foundation
import Friends
import Groups
import Preferences
import Primitives
import Sync

/// The services on one user's replica: what the replicated services read from.
public struct ReplicaReads: Sendable {
    public let accounts: any AccountsService
    public let friends: any FriendsService
    public let expenses: any ExpensesService
    public let groups: any GroupsService
    public let preferences: any PreferencesService
    /// The lines of the replica's activity, by id: what a write made offline made there.
    public let lines: any ExpensesSyncSource

    public init(
        accounts: any AccountsService, friends: any FriendsService, expenses: any ExpensesService, groups: any GroupsService,
        preferences: any PreferencesService, lines: any ExpensesSyncSource
    ) {
        self.accounts = accounts
        self.friends = friends
        self.expenses = expenses
        self.groups = groups
        self.preferences = preferences
        self.lines = lines
    }
}

/// Where each user's replica of a server is, and how it is brought up to date: what the
/// replicated services read from and pull into.
public protocol Replicas: Sendable {
    /// The services on `user`'s replica; nil before its first pull, or when it cannot be opened
    /// (the server answers then).
    func reads(for user: UserID) async -> ReplicaReads?
    /// Brings `user`'s replica up to date, as far as the server can be reached; a replica that
    /// could not be brought up to date shows what it had.
    func pull(for user: UserID) async
    /// The user of the session kept on this machine, as last seen signed in; nil for none.
    func keptUser() -> User?
    /// Keeps `user` as the session's (nil when the session ended).
    func keep(_ user: User?)
    /// Notes that the server could not be reached (as a session was looked for).
    func wentOffline()
    /// `user`'s writes made on their replica for the server; nil when the replica cannot be
    /// opened (a write then needs the server).
    func queue(for user: UserID) -> ReplicaQueue?
}

// The services of a server kept in a replica (docs/sync.md): every read that the replica holds
// is answered by the replica's own live services, every write goes to the server and is then
// pulled in, and what the replica does not hold (look-ups, sessions, what was imported) is the
// server's to answer.

/// `work`'s answer (a write on the server), once `user`'s replica has pulled what it wrote.
private func pulled<T, Failure: Error>(
    into replicas: any Replicas, for user: UserID, _ work: () async throws(Failure) -> T
) async throws(Failure) -> T {
    let result = try await work()
    await replicas.pull(for: user)
    return result
}

/// What an area's failure says of a write made with its server out of reach: the failures a
/// write offline (``writeOffline(_:also:by:in:keyed:online:queuedAs:summary:noting:offline:)``)
/// tells apart and throws.
protocol OfflineFailure: Error {
    /// Why the server could not be reached, when that is the failure.
    var unreachable: String? { get }
    static func serverUnreachable(_ reason: String) -> Self
    static func storeUnavailable(_ reason: String) -> Self
}

extension ExpensesError: OfflineFailure {
    var unreachable: String? { if case .serverUnreachable(let reason) = self { reason } else { nil } }
}

extension FriendsError: OfflineFailure {
    var unreachable: String? { if case .serverUnreachable(let reason) = self { reason } else { nil } }
}

extension AccountsError: OfflineFailure {
    var unreachable: String? { if case .serverUnreachable(let reason) = self { reason } else { nil } }
}

extension PreferencesError: OfflineFailure {
    var unreachable: String? { if case .serverUnreachable(let reason) = self { reason } else { nil } }
}

extension GroupsError: OfflineFailure {
    var unreachable: String? { if case .serverUnreachable(let reason) = self { reason } else { nil } }
}

/// Why a write is not sent while earlier ones wait.
private let waitingReason = "earlier changes made offline still wait for it"

/// A new id or idempotency key: a random UUID, in lower case as the contract writes them.
func newUUID() -> String { UUID().uuidString.lowercased() }

/// A write of `user`'s to `entity` (docs/sync.md): `online` on the server, then pulled; while
/// the server cannot be reached, or earlier writes still wait for it (a write never goes
/// before those made before it), queued as the operation `queuedAs` writes under a new key,
/// then made on the replica by the same live rules as on the server (`offline`). Queued
/// first: one killed before it is applied here is pushed and pulled in like any other, while
/// one applied and not queued would be lost. A write the rules refuse leaves the queue and
/// its refusal is thrown. What it made on the replica that the server gives anew is noted
/// with it: `entity` and `others`, and what `noting` finds after it that was not there before. Without a
/// replica to write (not caught up yet, or not to be opened), the write needs the server:
/// `serverUnreachable`.
func writeOffline<T, Failure: OfflineFailure>(
    _ entity: SyncEntity, also others: [SyncEntity] = [], by user: UserID, in replicas: any Replicas, keyed: Bool, online: () async throws(Failure) -> T,
    queuedAs operation: (any QueuedOperations, String) throws -> SyncOperation, summary: (ReplicaReads) async -> String,
    noting: (ReplicaReads) async -> Set<SyncEntity> = { _ in [] }, offline: (ReplicaReads) async throws(Failure) -> T
) async throws(Failure) -> T {
    // A change to what exists goes under the key it would be queued with (``WriteKey``): one
    // the server took whose every answer was lost is, pushed, the same change. (An add or a
    // payment is sent again under its connection's key, and made under an id of its own.)
    let key = newUUID()
    let unreachable: String
    do {
        return try await sent(by: user, in: replicas) { () async throws(Failure) -> T in
            guard keyed else { return try await online() }
            return try await under(key, online)
        }
    } catch {
        guard let reason = error.unreachable else { throw error }
        unreachable = reason
    }
    guard let queue = replicas.queue(for: user), let reads = await replicas.reads(for: user),
        let queued = try? operation(queue.operations, key)
    else { throw .serverUnreachable(unreachable) }
    do throws(SyncError) {
        try await queue.append(queued, summary: await summary(reads), for: user)
    } catch {
        throw .storeUnavailable(error.message)
    }
    let before = await noting(reads)
    let answer: T
    do {
        answer = try await offline(reads)
    } catch {
        _ = try? await queue.drop(queued.key, for: user)
        throw error
    }
    // Noted after: a write killed before this is pushed all the same, and what it made here
    // stays beside the server's until the replica starts again.
    let made = [entity] + others + (await noting(reads)).subtracting(before).sorted { ($0.kind.rawValue, $0.id) < ($1.kind.rawValue, $1.id) }
    try? await queue.made(made, by: queued.key, for: user)
    return answer
}

/// `write`'s answer on the server, once the replica pulled what it wrote; while earlier
/// writes wait for the server and a push cannot take them, the server is not asked (the
/// writes stay in the order they were made): `serverUnreachable`.
private func sent<T, Failure: OfflineFailure>(
    by user: UserID, in replicas: any Replicas, _ write: () async throws(Failure) -> T
) async throws(Failure) -> T {
    if let queue = replicas.queue(for: user), await queue.isWaiting(for: user) {
        // A sync pushes the queue first.
        await replicas.pull(for: user)
        if await queue.isWaiting(for: user) { throw .serverUnreachable(waitingReason) }
    }
    do {
        return try await pulled(into: replicas, for: user, write)
    } catch {
        if error.unreachable != nil { replicas.wentOffline() }
        throw error
    }
}

/// `work`, sent under `key`.
private func under<T, Failure: OfflineFailure>(_ key: String, _ work: () async throws(Failure) -> T) async throws(Failure) -> T {
    do {
        return try await WriteKey.$current.withValue(key) { try await work() }
    } catch let error as Failure {
        throw error
    } catch {
        throw .storeUnavailable("\(error)")
    }
}

/// The accounts of a server, kept in its users' replicas. A session the server cannot be asked
/// about goes on offline as the user last seen signed in with it, until the server says it ended.
public struct ReplicatedAccounts: AccountsService {
    private let server: any AccountsService
    private let replicas: any Replicas

    public init(server: any AccountsService, replicas: any Replicas) {
        self.server = server
        self.replicas = replicas
    }

    func reads(_ user: UserID) async -> any AccountsService { await replicas.reads(for: user)?.accounts ?? server }

    public func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User {
        let user = try await server.signUp(email: email, displayName: displayName, password: password)
        replicas.keep(user)
        await replicas.pull(for: user.id)
        return user
    }

    public func signIn(email: String, password: String) async throws(AccountsError) -> User {
        let user = try await server.signIn(email: email, password: password)
        replicas.keep(user)
        await replicas.pull(for: user.id)
        return user
    }

    public func signOut() async throws(AccountsError) {
        try await server.signOut()
        replicas.keep(nil)
    }

    public func storedSession() async throws(AccountsError) -> StoredSession {
        let session: StoredSession
        do {
            session = try await server.storedSession()
        } catch .serverUnreachable(let reason) {
            guard let user = replicas.keptUser() else { throw .serverUnreachable(reason) }
            replicas.wentOffline()
            return .signedIn(user)
        }
        switch session {
        case .signedIn(let user):
            replicas.keep(user)
            await replicas.pull(for: user.id)
        case .signedOut, .expired:
            replicas.keep(nil)
        }
        return session
    }

    public func existing(among people: Set<UserID>) async throws(AccountsError) -> Set<UserID> { try await server.existing(among: people) }
    public func profile(withFriendCode code: FriendCode, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        try await server.profile(withFriendCode: code, for: user)
    }
    public func profile(withEmail email: String, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        try await server.profile(withEmail: email, for: user)
    }

    /// On the server, then pulled; while the server cannot be reached, or earlier writes wait
    /// for it, on the replica's own account and queued (as the avatar below): the last the
    /// server takes is kept.
    public func changeDisplayName(to name: String, of user: UserID) async throws(AccountsError) -> User {
        let changed = try await writeOffline(
            SyncEntity(kind: .account, id: user.rawValue), by: user, in: replicas, keyed: false,
            online: { () async throws(AccountsError) in try await server.changeDisplayName(to: name, of: user) },
            queuedAs: { operations, key in try operations.changeDisplayName(to: name, key: key) },
            summary: { _ in "change your name to \(name)" },
            offline: { reads async throws(AccountsError) in try await reads.accounts.changeDisplayName(to: name, of: user) }
        )
        replicas.keep(changed)
        return changed
    }
    public func changeEmail(to email: String, password: String, of user: UserID) async throws(AccountsError) -> User {
        let changed = try await pulled(into: replicas, for: user) { () async throws(AccountsError) in try await server.changeEmail(to: email, password: password, of: user) }
        replicas.keep(changed)
        return changed
    }
    public func changePassword(from current: String, to new: String, of user: UserID) async throws(AccountsError) {
        try await server.changePassword(from: current, to: new, of: user)
    }
    public func sendVerificationCode(to user: UserID) async throws(AccountsError) { try await server.sendVerificationCode(to: user) }
    public func verifyEmail(code: String, of user: UserID) async throws(AccountsError) -> User {
        let verified = try await pulled(into: replicas, for: user) { () async throws(AccountsError) in try await server.verifyEmail(code: code, of: user) }
        replicas.keep(verified)
        return verified
    }
    public func sessions(of user: UserID) async throws(AccountsError) -> [SessionSummary] { try await server.sessions(of: user) }
    public func endSession(_ id: SessionSummary.ID, of user: UserID) async throws(AccountsError) { try await server.endSession(id, of: user) }
    public func endOtherSessions(of user: UserID) async throws(AccountsError) -> Int { try await server.endOtherSessions(of: user) }
    public func changeAvatar(to avatar: Avatar, of user: UserID) async throws(AccountsError) {
        let words = switch avatar {
        case .none: "take your avatar away"
        case .initials: "show your initials as your avatar"
        case .image: "change your avatar to a picture"
        }
        try await writeOffline(
            SyncEntity(kind: .account, id: user.rawValue), by: user, in: replicas, keyed: false,
            online: { () async throws(AccountsError) in try await server.changeAvatar(to: avatar, of: user) },
            queuedAs: { operations, key in try operations.changeAvatar(to: avatar, key: key) },
            summary: { _ in words },
            offline: { reads async throws(AccountsError) in try await reads.accounts.changeAvatar(to: avatar, of: user) }
        )
    }
}

/// The friends of a server's user, kept in their replica; finding an account is the server's.
public struct ReplicatedFriends: FriendsService {
    private let server: any FriendsService
    private let replicas: any Replicas

    public init(server: any FriendsService, replicas: any Replicas) {
        self.server = server
        self.replicas = replicas
    }

    func reads(_ user: UserID) async -> any FriendsService { await replicas.reads(for: user)?.friends ?? server }

    public func find(_ query: AccountQuery, for user: UserID) async throws(FriendsError) -> PublicProfile { try await server.find(query, for: user) }
    public func linkTarget(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> PublicProfile {
        try await server.linkTarget(contact, to: query, by: user)
    }

    public func add(_ query: AccountQuery, by user: UserID) async throws(FriendsError) -> FriendAddition {
        try await pulled(into: replicas, for: user) { () async throws(FriendsError) in try await server.add(query, by: user) }
    }
    /// On the server, then pulled: a friend is an account whose email and friend code only the
    /// server tells (a request names its sender by name alone).
    public func accept(_ person: UserID, by user: UserID) async throws(FriendsError) -> Friend {
        try await pulled(into: replicas, for: user) { () async throws(FriendsError) in try await server.accept(person, by: user) }
    }
    // Declining or withdrawing a request, blocking, renaming a contact and removing someone: on
    // the server, then pulled; while the server cannot be reached, or earlier writes wait for
    // it, on the replica by the same rules and queued. The server checks them again when they
    // are pushed (a friend with a balance opened meanwhile is not removed, and the replica gets
    // the server's view back).
    public func dropRequest(with person: UserID, by user: UserID) async throws(FriendsError) {
        try await write(person, also: [requests(of: user)], by: user, online: { () async throws(FriendsError) in try await server.dropRequest(with: person, by: user) },
            queuedAs: { operations, key in try operations.dropRequest(with: person, key: key) },
            summary: { reads in "drop the friend request with \(await Self.name(of: person, in: reads, for: user))" },
            offline: { reads async throws(FriendsError) in try await reads.friends.dropRequest(with: person, by: user) }
        )
    }
    public func block(_ person: UserID, by user: UserID) async throws(FriendsError) {
        try await write(person, also: [requests(of: user)], by: user, online: { () async throws(FriendsError) in try await server.block(person, by: user) },
            queuedAs: { operations, key in try operations.block(person, key: key) },
            summary: { reads in "block \(await Self.name(of: person, in: reads, for: user))" },
            offline: { reads async throws(FriendsError) in try await reads.friends.block(person, by: user) }
        )
    }
    public func unblock(_ person: UserID, by user: UserID) async throws(FriendsError) {
        try await write(person, also: [requests(of: user)], by: user, online: { () async throws(FriendsError) in try await server.unblock(person, by: user) },
            queuedAs: { operations, key in try operations.unblock(person, key: key) },
            summary: { reads in "unblock \(await Self.name(of: person, in: reads, for: user))" },
            offline: { reads async throws(FriendsError) in try await reads.friends.unblock(person, by: user) }
        )
    }
    /// On the server, then pulled; while the server cannot be reached, or earlier writes wait
    /// for it, on the replica and queued under an id made here, so that an expense added
    /// offline can name the contact before the server has seen it. Whether the email has an
    /// account only the server knows: it refuses the contact then, when it is pushed.
    public func addContact(name: String, email: String?, as id: UserID?, by user: UserID) async throws(FriendsError) -> Friend {
        let madeHere = id ?? UserID(rawValue: newUUID())
        return try await writeOffline(
            SyncEntity(kind: .friend, id: madeHere.rawValue), by: user, in: replicas, keyed: false,
            online: { () async throws(FriendsError) in try await server.addContact(name: name, email: email, as: id, by: user) },
            queuedAs: { operations, key in try operations.addContact(name: name, email: email, as: madeHere, key: key) },
            summary: { _ in "add the contact \(name)" },
            offline: { reads async throws(FriendsError) in try await reads.friends.addContact(name: name, email: email, as: madeHere, by: user) }
        )
    }
    public func renameContact(_ contact: UserID, to name: String, by user: UserID) async throws(FriendsError) -> Friend {
        try await write(contact, keyed: false, by: user, online: { () async throws(FriendsError) in try await server.renameContact(contact, to: name, by: user) },
            queuedAs: { operations, key in try operations.renameContact(contact, to: name, key: key) },
            summary: { reads in "rename the contact \(await Self.name(of: contact, in: reads, for: user)) to \(name)" },
            offline: { reads async throws(FriendsError) in try await reads.friends.renameContact(contact, to: name, by: user) }
        )
    }
    public func remove(_ friend: UserID, by user: UserID) async throws(FriendsError) {
        try await write(friend, by: user, online: { () async throws(FriendsError) in try await server.remove(friend, by: user) },
            queuedAs: { operations, key in try operations.removeFriend(friend, key: key) },
            summary: { reads in "remove \(await Self.name(of: friend, in: reads, for: user))" },
            offline: { reads async throws(FriendsError) in try await reads.friends.remove(friend, by: user) }
        )
    }
    public func link(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> FriendAddition {
        try await pulled(into: replicas, for: user) { () async throws(FriendsError) in try await server.link(contact, to: query, by: user) }
    }
    public func claimContacts(for user: UserID) async throws(FriendsError) -> [UserID] {
        try await pulled(into: replicas, for: user) { () async throws(FriendsError) in try await server.claimContacts(for: user) }
    }

    /// A write of `user`'s to their friendship with `person` (and to `others`):
    /// ``writeOffline(_:also:by:in:keyed:online:queuedAs:summary:noting:offline:)``, sent
    /// under the key it would be queued with unless it is the same change made twice.
    private func write<T>(
        _ person: UserID, also others: [SyncEntity] = [], keyed: Bool = true, by user: UserID, online: () async throws(FriendsError) -> T,
        queuedAs operation: (any QueuedOperations, String) throws -> SyncOperation, summary: (ReplicaReads) async -> String,
        offline: (ReplicaReads) async throws(FriendsError) -> T
    ) async throws(FriendsError) -> T {
        try await writeOffline(
            SyncEntity(kind: .friend, id: person.rawValue), also: others, by: user, in: replicas, keyed: keyed, online: online, queuedAs: operation,
            summary: summary, offline: offline
        )
    }

    /// `user`'s requests and blocks, one entity.
    private func requests(of user: UserID) -> SyncEntity { SyncEntity(kind: .requests, id: user.rawValue) }

    /// `person` as the replica names them: a friend, a contact, or someone in a request.
    private static func name(of person: UserID, in reads: ReplicaReads, for user: UserID) async -> String {
        if let name = (try? await reads.friends.names(of: [person], for: user))?[person] { return name.value }
        let requests = try? await reads.friends.requests(of: user)
        let people = (requests?.incoming.map(\.person) ?? []) + (requests?.outgoing.map(\.person) ?? []) + (requests?.blocked ?? [])
        return people.first { $0.id == person }?.name.value ?? "someone"
    }
}

/// The groups of a server's user, kept in their replica.
public struct ReplicatedGroups: GroupsService {
    private let server: any GroupsService
    private let replicas: any Replicas

    public init(server: any GroupsService, replicas: any Replicas) {
        self.server = server
        self.replicas = replicas
    }

    func reads(_ user: UserID) async -> any GroupsService { await replicas.reads(for: user)?.groups ?? server }


    /// On the server, then pulled; while the server cannot be reached, or earlier writes wait
    /// for it, on the replica and queued under an id made here, so that an expense added offline
    /// can be in the group before the server has seen it. The server checks the members again
    /// when it is pushed.
    public func create(_ draft: GroupDraft, as id: GroupID?, by user: UserID) async throws(GroupsError) -> Group {
        let madeHere = id ?? GroupID(rawValue: newUUID())
        return try await write(madeHere, keyed: false, by: user, online: { () async throws(GroupsError) in try await server.create(draft, as: id, by: user) },
            queuedAs: { operations, key in try operations.createGroup(draft, as: madeHere, key: key) },
            summary: { _ in "make the group \(draft.settings.name)" },
            offline: { reads async throws(GroupsError) in try await reads.groups.create(draft, as: madeHere, by: user) }
        )
    }
    // Changing a group, who is in it, and archiving it: on the server, then pulled; while the
    // server cannot be reached, or earlier writes wait for it, on the replica by the same rules
    // (a member still owing is not taken out) and queued. The server checks them again when
    // they are pushed.
    public func update(_ id: GroupID, to settings: GroupSettings, by user: UserID) async throws(GroupsError) -> Group {
        try await write(id, keyed: false, by: user, online: { () async throws(GroupsError) in try await server.update(id, to: settings, by: user) },
            queuedAs: { operations, key in try operations.updateGroup(id, to: settings, key: key) },
            summary: { reads in
                let name = await Self.name(of: id, in: reads, for: user)
                return name == settings.name ? "change the settings of the group \(name)" : "rename the group \(name) to \(settings.name)"
            },
            offline: { reads async throws(GroupsError) in try await reads.groups.update(id, to: settings, by: user) }
        )
    }
    public func addMembers(_ people: [UserID], to id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        try await write(id, by: user, online: { () async throws(GroupsError) in try await server.addMembers(people, to: id, by: user) },
            queuedAs: { operations, key in try operations.addGroupMembers(people, to: id, key: key) },
            summary: { reads in
                let names = (try? await reads.friends.names(of: Set(people), for: user)) ?? [:]
                return "add \(people.map { names[$0]?.value ?? "someone" }.joined(separator: ", ")) to the group \(await Self.name(of: id, in: reads, for: user))"
            },
            offline: { reads async throws(GroupsError) in try await reads.groups.addMembers(people, to: id, by: user) }
        )
    }
    public func removeMember(_ member: UserID, from id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        try await write(id, by: user, online: { () async throws(GroupsError) in try await server.removeMember(member, from: id, by: user) },
            queuedAs: { operations, key in try operations.removeGroupMember(member, from: id, key: key) },
            summary: { reads in
                let name = (try? await reads.friends.names(of: [member], for: user))?[member]?.value ?? "someone"
                return "take \(name) out of the group \(await Self.name(of: id, in: reads, for: user))"
            },
            offline: { reads async throws(GroupsError) in try await reads.groups.removeMember(member, from: id, by: user) }
        )
    }
    public func leave(_ id: GroupID, by user: UserID) async throws(GroupsError) {
        try await write(id, by: user, online: { () async throws(GroupsError) in try await server.leave(id, by: user) },
            queuedAs: { operations, key in try operations.removeGroupMember(user, from: id, key: key) },
            summary: { reads in "leave the group \(await Self.name(of: id, in: reads, for: user))" },
            offline: { reads async throws(GroupsError) in try await reads.groups.leave(id, by: user) }
        )
    }
    public func setArchived(_ archived: Bool, _ id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        try await write(id, by: user, online: { () async throws(GroupsError) in try await server.setArchived(archived, id, by: user) },
            queuedAs: { operations, key in try operations.setGroupArchived(archived, id, key: key) },
            summary: { reads in "\(archived ? "archive" : "bring back") the group \(await Self.name(of: id, in: reads, for: user))" },
            offline: { reads async throws(GroupsError) in try await reads.groups.setArchived(archived, id, by: user) }
        )
    }

    /// A write of `user`'s to group `id`: ``writeOffline(_:also:by:in:keyed:online:queuedAs:summary:noting:offline:)``,
    /// sent under the key it would be queued with unless it is the same change made twice.
    private func write<T>(
        _ id: GroupID, keyed: Bool = true, by user: UserID, online: () async throws(GroupsError) -> T,
        queuedAs operation: (any QueuedOperations, String) throws -> SyncOperation, summary: (ReplicaReads) async -> String,
        offline: (ReplicaReads) async throws(GroupsError) -> T
    ) async throws(GroupsError) -> T {
        try await writeOffline(
            SyncEntity(kind: .group, id: id.rawValue), by: user, in: replicas, keyed: keyed, online: online, queuedAs: operation, summary: summary,
            offline: offline
        )
    }

    /// Group `id`'s name on the replica.
    private static func name(of id: GroupID, in reads: ReplicaReads, for user: UserID) async -> String {
        (try? await reads.groups.group(id, for: user))?.name ?? "that is gone"
    }
}

/// A server's user's preferences, kept in their replica; their changes as the replica sees them
/// (each sync brings the server's), so that an open app does not ask the server every moment.
public struct ReplicatedPreferences: PreferencesService {
    private let server: any PreferencesService
    private let replicas: any Replicas

    public init(server: any PreferencesService, replicas: any Replicas) {
        self.server = server
        self.replicas = replicas
    }

    public func preferences(of user: UserID) async throws(PreferencesError) -> Preferences {
        try await (await replicas.reads(for: user)?.preferences ?? server).preferences(of: user)
    }

    /// On the server, then pulled; while the server cannot be reached, or earlier writes wait
    /// for it, on the replica (whose watchers the screens follow) and queued. The last one the
    /// server takes is the one kept: preferences have no versions to conflict.
    public func update(_ preferences: Preferences, of user: UserID) async throws(PreferencesError) {
        let words = switch preferences.theme {
        case .light: "light"
        case .dark: "dark"
        case .highContrast: "high-contrast"
        case .noColour: "colourless"
        }
        try await writeOffline(
            SyncEntity(kind: .preferences, id: user.rawValue), by: user, in: replicas, keyed: false,
            online: { () async throws(PreferencesError) in try await server.update(preferences, of: user) },
            queuedAs: { operations, key in try operations.updatePreferences(preferences, key: key) },
            summary: { _ in "set the \(words) theme and \(preferences.defaultCurrency.code) as the usual currency" },
            offline: { reads async throws(PreferencesError) in try await reads.preferences.update(preferences, of: user) }
        )
    }

    /// The replica's changes; the server's while there is no replica to read (before its first
    /// pull).
    public func changes(of user: UserID) -> AsyncStream<Preferences> {
        let (replicas, server) = (replicas, server)
        return AsyncStream { continuation in
            let task = Task {
                let source = await replicas.reads(for: user)?.preferences ?? server
                for await preferences in source.changes(of: user) { continuation.yield(preferences) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The expenses and payments of a server's user, kept in their replica, and their series, with
/// the ledger of each of their groups. What the replica does not hold is the server's to
/// answer: what was imported.
public struct ReplicatedExpenses: ExpensesService, RecurringExpenses {
    private let server: any ExpensesService & RecurringExpenses
    private let replicas: any Replicas

    public init(server: any ExpensesService & RecurringExpenses, replicas: any Replicas) {
        self.server = server
        self.replicas = replicas
    }

    func reads(_ user: UserID) async -> any ExpensesService { await replicas.reads(for: user)?.expenses ?? server }

    // MARK: Reads the replica answers
    // (and those ExpensesService tags `- Replica: read`, in ReplicatedExpenses+Reads.swift, which
    // Scripts/generate-services writes; a group's ledger is among them: everything filed under a
    // group of the user's is pulled, the expenses and payments they are not in too)

    public func series(of user: UserID, after day: Day) async throws(ExpensesError) -> [UpcomingOccurrence] {
        try await (reads(user) as? any RecurringExpenses ?? server).series(of: user, after: day)
    }
    public func series(containing id: ExpenseID, for user: UserID) async throws(ExpensesError) -> ExpenseSeries? {
        try await (reads(user) as? any RecurringExpenses ?? server).series(containing: id, for: user)
    }

    // MARK: Reads the server answers

    public func importedKeys(among keys: [String], by user: UserID) async throws(ExpensesError) -> Set<String> {
        try await server.importedKeys(among: keys, by: user)
    }
    // MARK: Writes, on the server, then pulled

    /// On the server, then pulled; while the server cannot be reached, or earlier writes still
    /// wait for it, on the replica and queued, under an id made here (so later writes can name
    /// it before the server has seen it). Online the server makes the id, as it does for any
    /// client. (The connection sends a write again under its key while no answer comes; a write
    /// the server took whose every answer was lost would be queued again, under a new id.)
    public func add(_ draft: ExpenseDraft, as id: ExpenseID?, by user: UserID) async throws(ExpensesError) -> Expense {
        let madeHere = id ?? ExpenseID(rawValue: newUUID())
        return try await write(
            .expense, madeHere, by: user, online: { () async throws(ExpensesError) in try await server.add(draft, as: id, by: user) },
            queuedAs: { operations, key in try operations.addExpense(draft, as: madeHere, key: key) },
            summary: { _ in "add \(draft.description), \(draft.amount)" },
            offline: { reads async throws(ExpensesError) in try await reads.expenses.add(draft, as: madeHere, by: user) }
        )
    }

    /// As ``add(_:as:by:)``: offline, on the replica from `version` and queued with it; the
    /// server refuses it as a conflict should the expense have changed there since.
    public func edit(_ id: ExpenseID, to draft: ExpenseDraft, from version: Int, by user: UserID) async throws(ExpensesError) -> Expense {
        try await write(
            .expense, id, by: user, keyed: true, online: { () async throws(ExpensesError) in try await server.edit(id, to: draft, from: version, by: user) },
            queuedAs: { operations, key in try operations.editExpense(id, to: draft, from: version, key: key) },
            summary: { _ in "change \(draft.description), \(draft.amount)" },
            offline: { reads async throws(ExpensesError) in try await reads.expenses.edit(id, to: draft, from: version, by: user) }
        )
    }

    /// As ``edit(_:to:from:by:)``.
    public func delete(_ id: ExpenseID, from version: Int, by user: UserID) async throws(ExpensesError) {
        try await write(
            .expense, id, by: user, keyed: true, online: { () async throws(ExpensesError) in try await server.delete(id, from: version, by: user) },
            queuedAs: { operations, key in try operations.deleteExpense(id, from: version, key: key) },
            summary: { reads in "delete \((try? await reads.expenses.expense(id, for: user))?.description ?? id.rawValue)" },
            offline: { reads async throws(ExpensesError) in try await reads.expenses.delete(id, from: version, by: user) }
        )
    }

    /// A write of `user`'s to `expense`, an expense or a payment (`kind`): ``writeOffline(_:also:by:in:keyed:online:queuedAs:summary:noting:offline:)``,
    /// noting the lines of activity it made on the replica (the server gives its own).
    private func write<T>(
        _ kind: SyncKind, _ expense: ExpenseID, by user: UserID, keyed: Bool = false, online: () async throws(ExpensesError) -> T,
        queuedAs operation: (any QueuedOperations, String) throws -> SyncOperation, summary: (ReplicaReads) async -> String,
        offline: (ReplicaReads) async throws(ExpensesError) -> T
    ) async throws(ExpensesError) -> T {
        try await writeOffline(
            SyncEntity(kind: kind, id: expense.rawValue), by: user, in: replicas, keyed: keyed, online: online, queuedAs: operation, summary: summary,
            noting: { reads in
                Set(((try? await reads.lines.lineIDs(of: expense, for: user)) ?? []).map { line in
                    SyncEntity(kind: .activity, id: Change.activityID(subject: expense.rawValue, line: line))
                })
            },
            offline: offline
        )
    }

    /// As ``edit(_:to:from:by:)``: offline, restored on the replica (which keeps what was
    /// deleted) and queued.
    public func restore(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) -> Expense {
        try await write(
            .expense, id, by: user, keyed: true, online: { () async throws(ExpensesError) in try await server.restore(id, by: user) },
            queuedAs: { operations, key in try operations.restoreExpense(id, key: key) },
            summary: { reads in "restore \((try? await reads.lines.deletedExpense(id, for: user))?.description ?? id.rawValue)" },
            offline: { reads async throws(ExpensesError) in try await reads.expenses.restore(id, by: user) }
        )
    }
    /// As ``add(_:as:by:)``: offline, recorded on the replica under an id made here, and queued.
    public func settle(from: UserID, to: UserID, amount: Money, day: Day, in group: GroupID?, as id: ExpenseID?, by user: UserID) async throws(ExpensesError)
        -> Settlement
    {
        let madeHere = id ?? ExpenseID(rawValue: newUUID())
        return try await write(
            .payment, madeHere, by: user,
            online: { () async throws(ExpensesError) in try await server.settle(from: from, to: to, amount: amount, day: day, in: group, as: id, by: user) },
            queuedAs: { operations, key in try operations.settleUp(from: from, to: to, amount: amount, day: day, in: group, as: madeHere, by: user, key: key) },
            summary: { reads in await Self.paymentSummary(from: from, to: to, amount: amount, in: reads, for: user) },
            offline: { reads async throws(ExpensesError) in
                try await reads.expenses.settle(from: from, to: to, amount: amount, day: day, in: group, as: madeHere, by: user)
            }
        )
    }

    /// A payment in a word or two, as the queue lists it: `pay Bob Stone 20.00 EUR`, or `Bob
    /// Stone paid you 20.00 EUR`.
    private static func paymentSummary(from: UserID, to: UserID, amount: Money, in reads: ReplicaReads, for user: UserID) async -> String {
        let name = await name(of: user == from ? to : from, in: reads, for: user)
        return user == from ? "pay \(name) \(amount)" : "\(name) paid you \(amount)"
    }

    /// `other` as `user`'s replica names them.
    private static func name(of other: UserID, in reads: ReplicaReads, for user: UserID) async -> String {
        (try? await reads.friends.names(of: [other], for: user))?[other]?.value ?? "someone"
    }

    /// As ``settle(from:to:amount:day:in:as:by:)``: offline, converted on the replica (from the
    /// balance it holds, which the server checks again) under an id made here, and queued.
    public func convert(
        _ balance: Money, with other: UserID, at rate: ExchangeRate, source: String, day: Day, in group: GroupID?, as id: ExpenseID?, by user: UserID
    ) async throws(ExpensesError) -> Settlement {
        let madeHere = id ?? ExpenseID(rawValue: newUUID())
        return try await write(
            .payment, madeHere, by: user,
            online: { () async throws(ExpensesError) in
                try await server.convert(balance, with: other, at: rate, source: source, day: day, in: group, as: id, by: user)
            },
            queuedAs: { operations, key in
                try operations.convertBalance(balance, with: other, at: rate, source: source, day: day, in: group, as: madeHere, key: key)
            },
            summary: { reads in
                let whole = Money(minorUnits: Int64(clamping: balance.minorUnits.magnitude), currency: balance.currency)
                return "convert \(whole) with \(await Self.name(of: other, in: reads, for: user)) at \(rate)"
            },
            offline: { reads async throws(ExpensesError) in
                try await reads.expenses.convert(balance, with: other, at: rate, source: source, day: day, in: group, as: madeHere, by: user)
            }
        )
    }

    /// As ``settle(from:to:amount:day:in:as:by:)``: offline, taken back on the replica and queued.
    public func undoSettlement(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) {
        try await write(
            .payment, id, by: user, keyed: true, online: { () async throws(ExpensesError) in try await server.undoSettlement(id, by: user) },
            queuedAs: { operations, key in try operations.undoSettlement(id, key: key) },
            summary: { reads in
                guard let payment = try? await reads.expenses.settlement(id, for: user) else { return "take back a payment" }
                let name = await Self.name(of: user == payment.from ? payment.to : payment.from, in: reads, for: user)
                return user == payment.from ? "take back your payment to \(name), \(payment.amount)" : "take back \(name)'s payment, \(payment.amount)"
            },
            offline: { reads async throws(ExpensesError) in try await reads.expenses.undoSettlement(id, by: user) }
        )
    }

    /// As ``add(_:as:by:)``: offline, added to the replica's thread under an id made here, and
    /// queued (the expense is what the write made there: comments come with it).
    public func comment(_ text: String, on id: ExpenseID, as comment: CommentID?, by user: UserID) async throws(ExpensesError) -> ExpenseComment {
        let madeHere = comment ?? CommentID(rawValue: newUUID())
        return try await write(
            .expense, id, by: user, online: { () async throws(ExpensesError) in try await server.comment(text, on: id, as: comment, by: user) },
            queuedAs: { operations, key in try operations.addComment(text, on: id, as: madeHere, key: key) },
            summary: { reads in "comment on \((try? await reads.expenses.expense(id, for: user))?.description ?? id.rawValue)" },
            offline: { reads async throws(ExpensesError) in try await reads.expenses.comment(text, on: id, as: madeHere, by: user) }
        )
    }

    /// As ``edit(_:to:from:by:)``: offline, deleted from the replica's thread and queued.
    public func deleteComment(_ comment: CommentID, on id: ExpenseID, by user: UserID) async throws(ExpensesError) {
        try await write(
            .expense, id, by: user, keyed: true, online: { () async throws(ExpensesError) in try await server.deleteComment(comment, on: id, by: user) },
            queuedAs: { operations, key in try operations.deleteComment(comment, on: id, key: key) },
            summary: { reads in "delete a comment on \((try? await reads.expenses.expense(id, for: user))?.description ?? id.rawValue)" },
            offline: { reads async throws(ExpensesError) in try await reads.expenses.deleteComment(comment, on: id, by: user) }
        )
    }
    public func importEntries(_ entries: [ImportedEntry], by user: UserID, progress: ImportProgress?) async throws(ExpensesError) -> Set<String> {
        try await pulled(into: replicas, for: user) { () async throws(ExpensesError) in try await server.importEntries(entries, by: user, progress: progress) }
    }
    /// On the server, then pulled; while the server cannot be reached, or earlier writes wait
    /// for it, on the replica and queued under an id made here. Its later occurrences are the
    /// server's to make, when due: offline, none is made here.
    public func repeatExpense(
        _ id: ExpenseID, every frequency: Recurrence.Frequency, until end: Recurrence.End?, as series: SeriesID?, by user: UserID
    ) async throws(ExpensesError) -> ExpenseSeries {
        let madeHere = series ?? SeriesID(rawValue: newUUID())
        return try await writeOffline(
            SyncEntity(kind: .series, id: madeHere.rawValue), by: user, in: replicas, keyed: false,
            online: { () async throws(ExpensesError) in try await server.repeatExpense(id, every: frequency, until: end, as: series, by: user) },
            queuedAs: { operations, key in try operations.repeatExpense(id, every: frequency, until: end, as: madeHere, key: key) },
            summary: { reads in "repeat \((try? await reads.expenses.expense(id, for: user))?.description ?? id.rawValue)" },
            offline: { reads async throws(ExpensesError) in
                guard let recurring = reads.expenses as? any RecurringExpenses else { throw .serverUnreachable(waitingReason) }
                return try await recurring.repeatExpense(id, every: frequency, until: end, as: madeHere, by: user)
            }
        )
    }
    public func editSeries(_ id: SeriesID, to template: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> ExpenseSeries {
        try await writeOffline(
            SyncEntity(kind: .series, id: id.rawValue), by: user, in: replicas, keyed: false,
            online: { () async throws(ExpensesError) in try await server.editSeries(id, to: template, by: user) },
            queuedAs: { operations, key in try operations.editSeries(id, to: template, key: key) },
            summary: { _ in "change the repeats of \(template.description) to \(template.amount)" },
            offline: { reads async throws(ExpensesError) in
                guard let recurring = reads.expenses as? any RecurringExpenses else { throw .serverUnreachable(waitingReason) }
                return try await recurring.editSeries(id, to: template, by: user)
            }
        )
    }
    public func stopSeries(_ id: SeriesID, after day: Day, by user: UserID) async throws(ExpensesError) -> ExpenseSeries {
        try await writeOffline(
            SyncEntity(kind: .series, id: id.rawValue), by: user, in: replicas, keyed: true,
            online: { () async throws(ExpensesError) in try await server.stopSeries(id, after: day, by: user) },
            queuedAs: { operations, key in try operations.stopSeries(id, after: day, key: key) },
            summary: { reads in
                let series = try? await (reads.expenses as? any RecurringExpenses)?.series(of: user, after: day).first { $0.series.id == id }
                return "stop repeating \(series?.series.template.description ?? "a series") after \(day)"
            },
            offline: { reads async throws(ExpensesError) in
                guard let recurring = reads.expenses as? any RecurringExpenses else { throw .serverUnreachable(waitingReason) }
                return try await recurring.stopSeries(id, after: day, by: user)
            }
        )
    }
    /// Pulled afterwards whatever this call made: an occurrence the server's own round (or
    /// another process) made first is in the server's store once this call passes over its day,
    /// and the replica must show it too.
    ///
    /// Nothing is asked of the server when the replica, caught up, holds no series of the
    /// user's: none is due (one made since comes with a pull, and the server's round makes its
    /// occurrences). So opening the app does not wait on the server for most people.
    public func createDueOccurrences(through day: Day, for user: UserID) async throws(ExpensesError) -> [Expense] {
        if let reads = await replicas.reads(for: user), let series = try? await reads.lines.seriesIDs(of: user), series.isEmpty { return [] }
        return try await pulled(into: replicas, for: user) { () async throws(ExpensesError) in
            try await server.createDueOccurrences(through: day, for: user)
        }
    }
}
