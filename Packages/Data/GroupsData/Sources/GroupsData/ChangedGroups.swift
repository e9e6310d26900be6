import Synchronization

/// Told, after a write to a Groups store, whose groups it changed: every member of each group
/// it made, changed, joined or left, and whoever joined or left (never nobody). A server
/// passes it on to their open pages.
public typealias GroupsChanged = @Sendable (_ people: Set<String>) -> Void

/// A transaction's writes, each noting the people of its group, then done by `base`.
public struct NotingGroupsWriting: GroupsWriting {
    private let base: any GroupsWriting
    private let people: Noted

    /// The people noted so far, shared by every attempt of one write.
    public final class Noted: Sendable {
        private let people = Mutex<Set<String>>([])

        public init() {}

        func note(_ some: [String]) { people.withLock { $0.formUnion(some) } }

        public var all: Set<String> { people.withLock { $0 } }
    }

    public init(_ base: any GroupsWriting, noting people: Noted) {
        self.base = base
        self.people = people
    }

    /// Runs `write` with a fresh note when someone is told of changes, and tells them once it
    /// has gone through.
    public static func watching<T>(_ observer: GroupsChanged?, _ write: (Noted?) async throws -> T) async throws -> T {
        guard let observer else { return try await write(nil) }
        let noted = Noted()
        let result = try await write(noted)
        let people = noted.all
        if !people.isEmpty { observer(people) }
        return result
    }

    public func insert(_ group: GroupRecord) throws {
        people.note([group.createdBy])
        try base.insert(group)
    }

    public func update(_ group: GroupRecord) throws {
        people.note(try base.members(of: group.id))
        try base.update(group)
    }

    public func addMember(_ user: String, to group: String, at: Double) throws {
        people.note(try base.members(of: group) + [user])
        try base.addMember(user, to: group, at: at)
    }

    public func removeMember(_ user: String, from group: String) throws {
        people.note(try base.members(of: group) + [user])
        try base.removeMember(user, from: group)
    }

    public func renameMember(from: String, to: String) throws {
        people.note([to])
        try base.renameMember(from: from, to: to)
    }

    public func group(id: String) throws -> GroupRecord? { try base.group(id: id) }
    public func members(of group: String) throws -> [String] { try base.members(of: group) }
    public func groupIDs(of user: String) throws -> [String] { try base.groupIDs(of: user) }
    public func members(of group: String, among users: [String]) throws -> Set<String> { try base.members(of: group, among: users) }
}
