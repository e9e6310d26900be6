import FlowsAPIClient
import Friends
import Primitives
import PrimitivesRemote

/// The friends service of a flows-server, over HTTP, for the signed-in user: each operation is
/// its ``FriendsAPI`` endpoint, called as the session's user (the server acts only as the user
/// whose token it was sent, whatever `user` says).
public struct RemoteFriendsService: FriendsService {
    private let connection: APIConnection

    public init(connection: APIConnection) {
        self.connection = connection
    }

    public func friends(of user: UserID) async throws(FriendsError) -> [Friend] {
        try await connection.send(FriendsAPI.listFriends)
    }

    public func friend(_ id: UserID, of user: UserID) async throws(FriendsError) -> Friend? {
        do { return try await connection.send(FriendsAPI.getFriend, id) } catch .notAFriend { return nil }
    }

    public func find(_ query: AccountQuery, for user: UserID) async throws(FriendsError) -> PublicProfile {
        try await connection.send(FriendsAPI.findFriend, query)
    }

    public func add(_ query: AccountQuery, by user: UserID) async throws(FriendsError) -> FriendAddition {
        try await connection.send(FriendsAPI.addFriend, query)
    }

    public func requests(of user: UserID) async throws(FriendsError) -> FriendRequests {
        try await connection.send(FriendsAPI.listFriendRequests)
    }

    public func accept(_ person: UserID, by user: UserID) async throws(FriendsError) -> Friend {
        try await connection.send(FriendsAPI.acceptFriendRequest, person)
    }

    public func dropRequest(with person: UserID, by user: UserID) async throws(FriendsError) {
        try await connection.send(FriendsAPI.dropFriendRequest, person)
    }

    public func block(_ person: UserID, by user: UserID) async throws(FriendsError) {
        try await connection.send(FriendsAPI.blockPerson, person)
    }

    public func unblock(_ person: UserID, by user: UserID) async throws(FriendsError) {
        try await connection.send(FriendsAPI.unblockPerson, person)
    }

    public func addContact(name: String, email: String?, as id: UserID?, by user: UserID) async throws(FriendsError) -> Friend {
        try await connection.send(FriendsAPI.addContact, ((name, email), id))
    }

    public func renameContact(_ contact: UserID, to name: String, by user: UserID) async throws(FriendsError) -> Friend {
        try await connection.send(FriendsAPI.renameContact, (contact, name))
    }

    public func remove(_ friend: UserID, by user: UserID) async throws(FriendsError) {
        try await connection.send(FriendsAPI.removeFriend, friend)
    }

    public func link(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> FriendAddition {
        try await connection.send(FriendsAPI.linkContact, (contact, query))
    }

    public func linkTarget(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> PublicProfile {
        try await connection.send(FriendsAPI.previewContactLink, (contact, query))
    }

    public func claimContacts(for user: UserID) async throws(FriendsError) -> [UserID] {
        try await connection.send(FriendsAPI.claimContacts)
    }

    public func friends(among people: Set<UserID>, of user: UserID) async throws(FriendsError) -> Set<UserID> {
        var found = Set<UserID>()
        for ids in APIConnection.batches(people, of: WireText.maximumIDs) { found.formUnion(try await connection.send(FriendsAPI.listFriendsAmong, ids)) }
        return found
    }

    public func names(of people: Set<UserID>, for user: UserID) async throws(FriendsError) -> [UserID: DisplayName] {
        var names: [UserID: DisplayName] = [:]
        for ids in APIConnection.batches(people, of: WireText.maximumIDs) { names.merge(try await connection.send(FriendsAPI.listNames, ids)) { $1 } }
        return names
    }
}
