import DataChanges

/// A transaction's writes, each noting the people it concerns, then done by `base`: both people
/// of each friendship, friend request or block. A contact's own changes concern its owner only,
/// except a link, which concerns the account.
public struct NotingFriendsWriting: FriendsWriting {
    private let base: any FriendsWriting
    private let people: ChangedPeople

    public init(_ base: any FriendsWriting, noting people: ChangedPeople) {
        self.base = base
        self.people = people
    }

    public func befriend(_ userID: String, _ friendID: String, since: Double) throws {
        people.note(userID, friendID)
        try base.befriend(userID, friendID, since: since)
    }

    public func unfriend(_ userID: String, _ friendID: String) throws {
        people.note(userID, friendID)
        try base.unfriend(userID, friendID)
    }

    public func insert(_ request: FriendRequestRecord) throws {
        people.note(request.fromID, request.toID)
        try base.insert(request)
    }

    public func deleteRequests(between userID: String, and otherID: String) throws {
        people.note(userID, otherID)
        try base.deleteRequests(between: userID, and: otherID)
    }

    public func insert(_ block: BlockRecord) throws {
        people.note(block.userID, block.blockedID)
        try base.insert(block)
    }

    public func deleteBlock(of blockedID: String, by userID: String) throws {
        people.note(userID, blockedID)
        try base.deleteBlock(of: blockedID, by: userID)
    }

    public func setLinkedTo(_ accountID: String?, contactID: String) throws {
        if let accountID { people.note(accountID) }
        try base.setLinkedTo(accountID, contactID: contactID)
    }

    public func insert(_ contact: ContactRecord) throws { try base.insert(contact) }
    public func setName(_ name: String, contactID: String) throws { try base.setName(name, contactID: contactID) }
    public func setRemoved(contactID: String) throws { try base.setRemoved(contactID: contactID) }
    public func deleteContact(id: String) throws { try base.deleteContact(id: id) }
    public func declineClaim(contactID: String, accountID: String) throws { try base.declineClaim(contactID: contactID, accountID: accountID) }

    public func friendships(of userID: String) throws -> [FriendshipRecord] { try base.friendships(of: userID) }
    public func isFriend(_ userID: String, _ friendID: String) throws -> Bool { try base.isFriend(userID, friendID) }
    public func contacts(ownerID: String) throws -> [ContactRecord] { try base.contacts(ownerID: ownerID) }
    public func contact(id: String) throws -> ContactRecord? { try base.contact(id: id) }
    public func contacts(emailKey: String) throws -> [ContactRecord] { try base.contacts(emailKey: emailKey) }
    public func requests(from userID: String) throws -> [FriendRequestRecord] { try base.requests(from: userID) }
    public func requests(to userID: String) throws -> [FriendRequestRecord] { try base.requests(to: userID) }
    public func request(from fromID: String, to toID: String) throws -> FriendRequestRecord? { try base.request(from: fromID, to: toID) }
    public func blocks(by userID: String) throws -> [BlockRecord] { try base.blocks(by: userID) }
    public func blocked(among ids: [String], for userID: String) throws -> Set<String> { try base.blocked(among: ids, for: userID) }
    public func isClaimDeclined(contactID: String, accountID: String) throws -> Bool {
        try base.isClaimDeclined(contactID: contactID, accountID: accountID)
    }
}
