import Primitives

/// Making groups and changing who is in them.
///
/// Every method takes the acting user and reads or changes only groups that user is in: to
/// anyone else a group does not exist. What the members owe each other there is the Expenses
/// area's (``GroupsError/memberNotSettled(_:balances:)`` is read from it).
public protocol GroupsService: Sendable {
    /// Makes a group of `user` and the draft's members, each the user's friend or own contact.
    /// `id` is the group's, made by a client that names it before the server has seen it (a
    /// replica, docs/sync.md): one another group holds is ``GroupsError/idTaken(_:)``, while the
    /// user's own group under it is the same write again, answered as it is. Nil makes a new one.
    /// - Contract: createGroup
    func create(_ draft: GroupDraft, as id: GroupID?, by user: UserID) async throws(GroupsError) -> Group
    /// The groups `user` is in, by name: the open ones, or the archived ones.
    /// - Contract: listGroups
    /// - Replica: read
    func groups(of user: UserID, archived: Bool) async throws(GroupsError) -> [Group]
    /// A group `user` is in; nil for one that does not exist or that they are not in.
    /// - Replica: read
    func group(_ id: GroupID, for user: UserID) async throws(GroupsError) -> Group?
    /// Renames a group, or changes its kind, currency or debt simplifying; any member may.
    /// - Contract: updateGroup
    func update(_ id: GroupID, to settings: GroupSettings, by user: UserID) async throws(GroupsError) -> Group
    /// Adds the user's friends or own contacts to a group they are in (the ones already in it
    /// are left as they are).
    func addMembers(_ people: [UserID], to id: GroupID, by user: UserID) async throws(GroupsError) -> Group
    /// Takes a member out of a group, refused while they owe or are owed anything there; any
    /// member may. Taking oneself out is ``leave(_:by:)``.
    func removeMember(_ member: UserID, from id: GroupID, by user: UserID) async throws(GroupsError) -> Group
    /// Leaves a group, refused while the user owes or is owed anything there, and for its last
    /// member (who archives it instead).
    func leave(_ id: GroupID, by user: UserID) async throws(GroupsError)
    /// Archives a group once everyone in it is settled, or brings it back.
    func setArchived(_ archived: Bool, _ id: GroupID, by user: UserID) async throws(GroupsError) -> Group
}

extension GroupsService {
    /// Makes a group under a new id (``create(_:as:by:)``).
    public func create(_ draft: GroupDraft, by user: UserID) async throws(GroupsError) -> Group {
        try await create(draft, as: nil, by: user)
    }

    /// Every group `user` is in: the open ones, then the archived ones.
    public func everyGroup(of user: UserID) async throws(GroupsError) -> [Group] {
        try await groups(of: user, archived: false) + groups(of: user, archived: true)
    }

    /// The names of every group `user` is in, open or archived, to name a group beside a
    /// balance; empty when the groups cannot be read (a balance is then told without them).
    public func names(of user: UserID) async -> [GroupID: String] {
        let groups = (try? await everyGroup(of: user)) ?? []
        return Dictionary(groups.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Why a groups operation did not happen.
public enum GroupsError: Error, Equatable, Sendable {
    case invalid(GroupProblem)
    /// There is no such group, or the user is not in it.
    case notFound(GroupID)
    /// The people added are not the user's friends or contacts.
    case unknownPeople([UserID])
    /// The person to take out is not in the group.
    case notMember(UserID)
    /// The member owes or is owed this much there (positive: owed to them), per currency.
    case memberNotSettled(UserID, balances: [Money])
    /// Someone in the group still owes something there.
    case groupNotSettled
    /// The last member cannot leave; archiving keeps the group without anyone leaving it.
    case lastMember
    /// An archived group changes only by being brought back.
    case archived
    /// The id given for a new group is held by another group.
    case idTaken(GroupID)
    /// A rule of the store refused the write (one the checks above should have caught).
    case refused(String)
    case storeUnavailable(String)
    /// The session ended while in use (a server's service).
    case signedOut
    /// The server could not be reached, or answered something it should not.
    case serverUnreachable(String)

    public var message: String {
        switch self {
        case .invalid(let problem): problem.message
        case .notFound: "There is no such group among yours."
        case .unknownPeople(let people):
            "Not among your friends or contacts: \(people.map(\.rawValue).sorted().joined(separator: ", ")). Add them as a friend or a contact first."
        case .notMember: "They are not in this group."
        case .memberNotSettled(_, let balances):
            "Not settled in this group: \(balances.map { $0.isNegative ? "owes \((try? $0.negated()) ?? $0)" : "is owed \($0)" }.joined(separator: ", ")). Settle up first."
        case .groupNotSettled: "Someone in this group still owes something there; settle up first."
        case .lastMember: "You are its last member; archive it instead."
        case .archived: "This group is archived; bring it back to change it."
        case .idTaken(let id): "The id \(id) is already in use; nothing was saved."
        case .refused(let rule): "The store refused the change (\(rule)); nothing was saved."
        case .storeUnavailable(let reason): "The local store is unavailable: \(reason)"
        case .signedOut: ServerMessages.signedOut
        case .serverUnreachable(let reason): ServerMessages.unreachable(reason)
        }
    }
}

/// What a replica does with the groups it pulled (docs/sync.md): each written as the server has
/// it, its members in their order, without the rules a user's own change is checked by (the
/// server checked them).
public protocol GroupsReplica: Sendable {
    /// Puts `group` in place of what is kept of it, its members as it has them.
    func put(_ group: Group) async throws(GroupsError)
    /// Forgets group `id` (left, or no longer the user's to see): it has no members here from
    /// now on, so no one on the replica sees it.
    func removeGroup(_ id: GroupID) async throws(GroupsError)
}
