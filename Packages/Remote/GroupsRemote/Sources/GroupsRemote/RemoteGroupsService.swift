import FlowsAPIClient
import Groups
import Primitives
import PrimitivesRemote

/// The groups service of a flows-server, over HTTP, for the signed-in user: each operation is
/// its ``GroupsAPI`` endpoint, called as the session's user (the server acts only as the user
/// whose token it was sent, whatever `user` says).
///
/// The operations sent as they stand are in `RemoteGroupsService+Contract.swift`, which
/// Scripts/generate-services writes from the `- Contract:` tags of ``GroupsService``; here are the rest.
public struct RemoteGroupsService: GroupsService {
    let connection: APIConnection

    public init(connection: APIConnection) {
        self.connection = connection
    }

    public func group(_ id: GroupID, for user: UserID) async throws(GroupsError) -> Group? {
        do { return try await connection.send(GroupsAPI.getGroup, id) } catch .notFound { return nil }
    }

    public func addMembers(_ people: [UserID], to id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        try await connection.send(GroupsAPI.addGroupMembers, (id, Set(people)))
    }

    public func removeMember(_ member: UserID, from id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        try await connection.send(GroupsAPI.removeGroupMember, (id, member))
    }

    public func leave(_ id: GroupID, by user: UserID) async throws(GroupsError) {
        _ = try await connection.send(GroupsAPI.removeGroupMember, (id, user))
    }

    public func setArchived(_ archived: Bool, _ id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        try await connection.send(GroupsAPI.setGroupArchived, (id, archived))
    }
}
