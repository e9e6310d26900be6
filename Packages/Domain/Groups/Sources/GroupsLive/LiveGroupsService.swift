import Expenses
import Foundation
import Groups
import GroupsData
import Primitives

/// The groups service of the app, on top of a ``GroupsStore``.
///
/// It is also the ledger's ``GroupMembership`` (who may be named in a group's expenses) and,
/// for linking a contact to an account, a ``PersonMerging`` of memberships.
public struct LiveGroupsService: GroupsService {
    let store: any GroupsStore
    private let people: any PeopleDirectory
    private let ledger: any GroupBalanceReading
    private let random: any RandomSource
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - people: whom each user may add: their friends and own contacts.
    ///   - ledger: what the members owe each other in each group, read before anyone leaves.
    public init(
        store: any GroupsStore,
        people: any PeopleDirectory,
        ledger: any GroupBalanceReading,
        random: any RandomSource = SystemRandomSource(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.people = people
        self.ledger = ledger
        self.random = random
        self.now = now
    }

    public func create(_ draft: GroupDraft, as given: GroupID?, by user: UserID) async throws(GroupsError) -> Group {
        let name = try Self.checked(draft.settings)
        let members = draft.members.reduce(into: [user]) { list, person in
            if !list.contains(person) { list.append(person) }
        }
        guard members.count <= Group.memberLimit else { throw .invalid(.tooManyMembers) }
        try await checkMayAdd(Set(members), by: user)
        let record = GroupRecord(
            id: given?.rawValue ?? UserID.random(using: random).rawValue, name: name, kind: SaveFormatter.text(draft.settings.kind),
            currency: SaveFormatter.text(draft.settings.currency), simplifyDebts: draft.settings.simplifyDebts, archived: false,
            createdBy: user.rawValue, createdAt: now().timeIntervalSince1970
        )
        let at = record.createdAt
        return try await storing {
            try await store.write { db in
                if given != nil, let kept = try db.group(id: record.id) {
                    // The same write again (its answer was lost): the group as it is.
                    guard kept.createdBy == record.createdBy else { throw GroupsError.idTaken(GroupID(rawValue: record.id)) }
                    return try Self.group(kept, members: db.members(of: kept.id))
                }
                try db.insert(record)
                for member in members { try db.addMember(member.rawValue, to: record.id, at: at) }
                return try Self.group(record, members: db.members(of: record.id))
            }
        }
    }

    public func groups(of user: UserID, archived: Bool) async throws(GroupsError) -> [Group] {
        let groups = try await storing {
            try await store.read { db in
                try db.groupIDs(of: user.rawValue).compactMap { id -> Group? in
                    guard let record = try db.group(id: id), record.archived == archived else { return nil }
                    return try Self.group(record, members: db.members(of: id))
                }
            }
        }
        return groups.sorted { ($0.name.lowercased(), $0.id.rawValue) < ($1.name.lowercased(), $1.id.rawValue) }
    }

    public func group(_ id: GroupID, for user: UserID) async throws(GroupsError) -> Group? {
        let group = try await storing {
            try await store.read { db -> Group? in
                guard let record = try db.group(id: id.rawValue) else { return nil }
                return try Self.group(record, members: db.members(of: id.rawValue))
            }
        }
        return group.flatMap { $0.members.contains(user) ? $0 : nil }
    }

    public func update(_ id: GroupID, to settings: GroupSettings, by user: UserID) async throws(GroupsError) -> Group {
        let name = try Self.checked(settings)
        return try await changing(id, by: user) { record, _, _ in
            record.name = name
            record.kind = SaveFormatter.text(settings.kind)
            record.currency = SaveFormatter.text(settings.currency)
            record.simplifyDebts = settings.simplifyDebts
        }
    }

    public func addMembers(_ people: [UserID], to id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        let current = try await member(of: id, user)
        let newcomers = people.reduce(into: [UserID]()) { list, person in
            if !current.members.contains(person), !list.contains(person) { list.append(person) }
        }
        guard !newcomers.isEmpty else { return current }
        try await checkMayAdd(Set(newcomers), by: user)
        let at = now().timeIntervalSince1970
        return try await changing(id, by: user) { record, members, db in
            guard members.count + newcomers.count <= Group.memberLimit else { throw GroupsError.invalid(.tooManyMembers) }
            for person in newcomers { try db.addMember(person.rawValue, to: record.id, at: at) }
        }
    }

    public func removeMember(_ member: UserID, from id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        let current = try await self.member(of: id, user)
        guard current.members.contains(member) else { throw .notMember(member) }
        guard current.members.count > 1 else { throw .lastMember }
        try await checkSettled(member, in: id)
        return try await changing(id, by: user) { record, members, db in
            guard members.count > 1 else { throw GroupsError.lastMember }
            try db.removeMember(member.rawValue, from: record.id)
        }
    }

    public func leave(_ id: GroupID, by user: UserID) async throws(GroupsError) {
        _ = try await removeMember(user, from: id, by: user)
    }

    public func setArchived(_ archived: Bool, _ id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        let current = try await member(of: id, user)
        guard current.archived != archived else { return current }
        if archived, try await !debts(in: id).isEmpty { throw .groupNotSettled }
        return try await changing(id, by: user, evenArchived: true) { record, _, _ in
            record.archived = archived
        }
    }

    // MARK: - Helpers

    /// The group, for one of its members; ``GroupsError/notFound(_:)`` for anyone else.
    private func member(of id: GroupID, _ user: UserID) async throws(GroupsError) -> Group {
        guard let group = try await group(id, for: user) else { throw .notFound(id) }
        return group
    }

    /// Reads the group inside a write, checks the user is in it (and that it is not archived,
    /// unless `evenArchived`), lets `change` alter its record and members, and writes the record.
    private func changing(
        _ id: GroupID, by user: UserID, evenArchived: Bool = false,
        _ change: @escaping @Sendable (inout GroupRecord, [String], any GroupsWriting) throws -> Void
    ) async throws(GroupsError) -> Group {
        try await storing {
            try await store.write { db in
                guard var record = try db.group(id: id.rawValue) else { throw GroupsError.notFound(id) }
                let members = try db.members(of: id.rawValue)
                guard members.contains(user.rawValue) else { throw GroupsError.notFound(id) }
                guard evenArchived || !record.archived else { throw GroupsError.archived }
                try change(&record, members, db)
                try db.update(record)
                return try Self.group(record, members: db.members(of: id.rawValue))
            }
        }
    }

    private func checkMayAdd(_ people: Set<UserID>, by user: UserID) async throws(GroupsError) {
        let others = people.subtracting([user])
        guard !others.isEmpty else { return }
        let strangers: Set<UserID>
        do {
            strangers = try await self.people.strangers(among: others, to: user).union(self.people.blocked(among: others, for: user))
        } catch {
            throw .storeUnavailable("\(error)")
        }
        guard strangers.isEmpty else { throw .unknownPeople(strangers.sorted { $0.rawValue < $1.rawValue }) }
    }

    /// Refuses to let `member` go while they owe or are owed anything in the group.
    private func checkSettled(_ member: UserID, in id: GroupID) async throws(GroupsError) {
        let theirs = try await debts(in: id).filter { $0.creditor == member || $0.debtor == member }
        guard !theirs.isEmpty else { return }
        // In 128 bits: a store changed by hand may hold amounts whose sum does not fit in 64.
        var owed: [Currency: Int128] = [:]
        for debt in theirs {
            owed[debt.amount.currency, default: 0] += debt.creditor == member ? Int128(debt.amount.minorUnits) : -Int128(debt.amount.minorUnits)
        }
        let balances = owed.map { Money(minorUnits: Int64(clamping: $0.value), currency: $0.key) }.sorted { $0.currency.code < $1.currency.code }
        throw .memberNotSettled(member, balances: balances)
    }

    private func debts(in id: GroupID) async throws(GroupsError) -> [Debt] {
        do {
            return try await ledger.debts(in: id)
        } catch {
            throw .storeUnavailable(error.message)
        }
    }

    private static func checked(_ settings: GroupSettings) throws(GroupsError) -> String {
        do {
            return try DisplayName(settings.name).value
        } catch {
            throw .invalid(.name(error))
        }
    }

    static func group(_ record: GroupRecord, members: [String]) throws -> Group {
        Group(
            id: GroupID(rawValue: record.id), name: record.name, kind: try SaveFormatter.value(GroupKind.self, from: record.kind),
            currency: try SaveFormatter.value(Currency.self, from: record.currency), simplifyDebts: record.simplifyDebts,
            members: members.map(UserID.init(rawValue:)), archived: record.archived, createdBy: UserID(rawValue: record.createdBy)
        )
    }
}

extension LiveGroupsService: GroupMembership {
    public func members(among people: Set<UserID>, of group: GroupID, seenBy user: UserID) async throws -> GroupMembers? {
        let asked = people.union([user]).map(\.rawValue)
        return try await store.read { db -> GroupMembers? in
            guard let record = try db.group(id: group.rawValue) else { return nil }
            let members = try db.members(of: group.rawValue, among: asked)
            guard members.contains(user.rawValue) else { return nil }
            return GroupMembers(members: Set(members.map(UserID.init(rawValue:))), archived: record.archived, simplifyDebts: record.simplifyDebts)
        }
    }
}

extension LiveGroupsService: PersonMerging {
    /// Makes the account a member wherever the contact was (the ledger's merge moves what they
    /// owe there).
    public func merge(_ contact: UserID, into account: UserID) async throws(ExpensesError) {
        do {
            try await store.write { db in try db.renameMember(from: contact.rawValue, to: account.rawValue) }
        } catch {
            throw .storeUnavailable("\(error)")
        }
    }
}

/// Runs store work, turning its failures into ``GroupsError``s.
func storing<T>(_ work: () async throws -> T) async throws(GroupsError) -> T {
    do {
        return try await work()
    } catch let error as GroupsError {
        throw error
    } catch let GroupsDataError.refused(rule) {
        throw .refused(rule)
    } catch {
        throw .storeUnavailable("\(error)")
    }
}
