import DataChanges

/// A transaction's writes, each noting the people it concerns and that the group changed for
/// them, then done by `base`: every member of each group it makes, changes, joins or leaves,
/// and whoever joins or leaves, for whom the group's whole ledger changed too (``Change/Kind/ledger``).
public struct NotingGroupsWriting: GroupsWriting {
    /// The transaction it wraps, whose reads it passes on as they are
    /// (NotingGroupsWriting+Reading.swift, which Scripts/generate-services writes).
    let base: any GroupsWriting
    private let people: ChangedPeople

    public init(_ base: any GroupsWriting, noting people: ChangedPeople) {
        self.base = base
        self.people = people
    }

    public func insert(_ group: GroupRecord) throws {
        people.changed(.group, group.id, for: [group.createdBy])
        try base.insert(group)
    }

    public func update(_ group: GroupRecord) throws {
        people.changed(.group, group.id, for: try base.members(of: group.id))
        try base.update(group)
    }

    public func addMember(_ user: String, to group: String, at: Double) throws {
        people.changed(.group, group, for: try base.members(of: group) + [user])
        people.changed(.ledger, group, for: [user])
        try base.addMember(user, to: group, at: at)
    }

    public func removeMember(_ user: String, from group: String) throws {
        people.changed(.group, group, for: try base.members(of: group) + [user])
        people.changed(.ledger, group, for: [user])
        try base.removeMember(user, from: group)
    }

    public func renameMember(from: String, to: String) throws {
        // A contact merged into an account: the account is now a member of the contact's groups.
        for group in try base.groupIDs(of: from) {
            people.changed(.group, group, for: try base.members(of: group) + [to])
            people.changed(.ledger, group, for: [to])
        }
        people.note(to)
        try base.renameMember(from: from, to: to)
    }
}
