import Groups
import GroupsRemote

extension EndpointRoutes {
    /// Groups' operations (``GroupsAPI``) whose input is not the call's arguments as they stand, or
    /// whose answer is more than the call's (the others are ``contract(_:)``'s). A group's ledger
    /// is served with the expenses.
    func groups(_ groups: any GroupsService) throws {
        try serve(GroupsAPI.getGroup) { id, user in
            guard let group = try await groups.group(id, for: user) else { throw GroupsError.notFound(id) }
            return group
        }
        try serve(GroupsAPI.addGroupMembers) { input, user in
            try await groups.addMembers(input.1.sorted { $0.rawValue < $1.rawValue }, to: input.0, by: user)
        }
        try serve(GroupsAPI.removeGroupMember) { input, user in try await groups.removeMember(input.1, from: input.0, by: user) }
        try serve(GroupsAPI.setGroupArchived) { input, user in try await groups.setArchived(input.1, input.0, by: user) }
    }
}
