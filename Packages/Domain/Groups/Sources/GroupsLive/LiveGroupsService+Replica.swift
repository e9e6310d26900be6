import Groups
import GroupsData
import Primitives

/// A replica's groups, as pulled: written into the same store as the service's own changes
/// leave them, so that every read of the service answers on the replica as on the server.
extension LiveGroupsService: GroupsReplica {
    public func put(_ group: Group) async throws(GroupsError) {
        let id = group.id.rawValue
        try await storing {
            try await store.write { db in
                let record = GroupRecord(
                    id: id, name: group.name, kind: SaveFormatter.text(group.kind), currency: SaveFormatter.text(group.currency),
                    simplifyDebts: group.simplifyDebts, archived: group.archived, createdBy: group.createdBy.rawValue,
                    createdAt: try db.group(id: id)?.createdAt ?? 0
                )
                if try db.group(id: id) == nil { try db.insert(record) } else { try db.update(record) }
                // The members in the group's order: when it differs, they join again in that order.
                let members = group.members.map(\.rawValue)
                let kept = try db.members(of: id)
                guard kept != members else { return }
                for member in kept { try db.removeMember(member, from: id) }
                for (index, member) in members.enumerated() { try db.addMember(member, to: id, at: Double(index)) }
            }
        }
    }

    public func removeGroup(_ id: GroupID) async throws(GroupsError) {
        try await storing {
            try await store.write { db in
                for member in try db.members(of: id.rawValue) { try db.removeMember(member, from: id.rawValue) }
            }
        }
    }
}
