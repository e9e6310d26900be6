import FlowsAPIClient
import Friends
import Primitives
import PrimitivesRemote

/// The friends service of a flows-server, over HTTP, for the signed-in user: each operation is
/// its ``FriendsAPI`` endpoint, called as the session's user (the server acts only as the user
/// whose token it was sent, whatever `user` says).
///
/// The operations sent as they stand are in `RemoteFriendsService+Contract.swift`, which
/// Scripts/generate-services writes from the `- Contract:` tags of ``FriendsService``; here are the rest.
public struct RemoteFriendsService: FriendsService {
    let connection: APIConnection

    public init(connection: APIConnection) {
        self.connection = connection
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

    public func addContact(name: String, email: String?, as id: UserID?, by user: UserID) async throws(FriendsError) -> Friend {
        try await connection.send(FriendsAPI.addContact, ((name, email), id))
    }

    public func link(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> FriendAddition {
        try await connection.send(FriendsAPI.linkContact, (contact, query))
    }

    public func linkTarget(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> PublicProfile {
        try await connection.send(FriendsAPI.previewContactLink, (contact, query))
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
