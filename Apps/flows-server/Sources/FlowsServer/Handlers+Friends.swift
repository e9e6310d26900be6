import FlowsAPI
import Friends
import FriendsRemote

extension EndpointRoutes {
    /// Friends' operations (``FriendsAPI``), each one call of the service.
    func friends(_ friends: any FriendsService) throws {
        try serve(FriendsAPI.listFriends) { _, user in try await friends.friends(of: user) }
        try serve(FriendsAPI.addFriend) { query, user in try await friends.add(query, by: user) }
        try serve(FriendsAPI.findFriend) { query, user in try await friends.find(query, for: user) }
        try serve(FriendsAPI.getFriend) { id, user in
            guard let friend = try await friends.friend(id, of: user) else { throw FriendsError.notAFriend }
            return friend
        }
        try serve(FriendsAPI.removeFriend) { id, user in try await friends.remove(id, by: user) }
        try serve(FriendsAPI.addContact) { draft, user in try await friends.addContact(name: draft.name, email: draft.email, by: user) }
        try serve(FriendsAPI.claimContacts) { _, user in try await friends.claimContacts(for: user) }
        try serve(FriendsAPI.linkContact) { input, user in try await friends.link(input.0, to: input.1, by: user) }
        try serve(FriendsAPI.previewContactLink) { input, user in try await friends.linkTarget(input.0, to: input.1, by: user) }
        try serve(FriendsAPI.listFriendsAmong) { ids, user in try await friends.friends(among: ids, of: user) }
        try serve(FriendsAPI.listNames) { ids, user in try await friends.names(of: ids, for: user) }
    }
}

/// The generated protocol's Friends operations, which ``EndpointRoutes`` serves in their place
/// (``RecordingTransport`` does not register these).
extension Handlers {
    func listFriends(_ input: Operations.ListFriends.Input) async throws -> Operations.ListFriends.Output { throw ServedByEndpoint() }
    func addFriend(_ input: Operations.AddFriend.Input) async throws -> Operations.AddFriend.Output { throw ServedByEndpoint() }
    func findFriend(_ input: Operations.FindFriend.Input) async throws -> Operations.FindFriend.Output { throw ServedByEndpoint() }
    func getFriend(_ input: Operations.GetFriend.Input) async throws -> Operations.GetFriend.Output { throw ServedByEndpoint() }
    func removeFriend(_ input: Operations.RemoveFriend.Input) async throws -> Operations.RemoveFriend.Output { throw ServedByEndpoint() }
    func addContact(_ input: Operations.AddContact.Input) async throws -> Operations.AddContact.Output { throw ServedByEndpoint() }
    func claimContacts(_ input: Operations.ClaimContacts.Input) async throws -> Operations.ClaimContacts.Output { throw ServedByEndpoint() }
    func linkContact(_ input: Operations.LinkContact.Input) async throws -> Operations.LinkContact.Output { throw ServedByEndpoint() }
    func previewContactLink(_ input: Operations.PreviewContactLink.Input) async throws -> Operations.PreviewContactLink.Output {
        throw ServedByEndpoint()
    }
    func listFriendsAmong(_ input: Operations.ListFriendsAmong.Input) async throws -> Operations.ListFriendsAmong.Output {
        throw ServedByEndpoint()
    }
    func listNames(_ input: Operations.ListNames.Input) async throws -> Operations.ListNames.Output { throw ServedByEndpoint() }
}

/// An operation of the generated protocol that an ``Endpoint`` serves instead: never registered.
struct ServedByEndpoint: Error {}
