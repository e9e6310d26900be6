/// A group as the store keeps it. Plain values: the domain checks, the store keeps.
public struct GroupRecord: Equatable, Sendable {
    public var id: String
    public var name: String
    public var kind: String
    public var currency: String
    public var simplifyDebts: Bool
    public var archived: Bool
    public var createdBy: String
    /// Seconds since 1970.
    public var createdAt: Double

    public init(id: String, name: String, kind: String, currency: String, simplifyDebts: Bool, archived: Bool, createdBy: String, createdAt: Double) {
        self.id = id
        self.name = name
        self.kind = kind
        self.currency = currency
        self.simplifyDebts = simplifyDebts
        self.archived = archived
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}

/// Where groups and their members are kept; everything one `write` does is one transaction.
public protocol GroupsStore: Sendable {
    func read<T: Sendable>(_ body: @escaping @Sendable (any GroupsReading) throws -> T) async throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (any GroupsWriting) throws -> T) async throws -> T
}

/// Look-ups inside a transaction.
public protocol GroupsReading {
    func group(id: String) throws -> GroupRecord?
    /// The members of `group`, in the order they joined.
    func members(of group: String) throws -> [String]
    /// The ids of the groups `user` is in, by index.
    func groupIDs(of user: String) throws -> [String]
    /// The ones among `users` who are members of `group`, each by its key.
    func members(of group: String, among users: [String]) throws -> Set<String>
}

/// Changes inside a transaction.
public protocol GroupsWriting: GroupsReading {
    func insert(_ group: GroupRecord) throws
    /// Writes a group's name, kind, currency, simplifying and archiving as `group` has them.
    func update(_ group: GroupRecord) throws
    /// Adds `user` after the group's last member; one already in it stays where they are.
    func addMember(_ user: String, to group: String, at: Double) throws
    func removeMember(_ user: String, from group: String) throws
    /// Puts `to` wherever `from` is a member (linking a contact to an account); where both are,
    /// `from` goes.
    func renameMember(from: String, to: String) throws
}

/// Failures a store reports in terms the domain can act on.
public enum GroupsDataError: Error, Equatable, Sendable {
    /// A constraint of the store refused the write; the text says which.
    case refused(String)
}
