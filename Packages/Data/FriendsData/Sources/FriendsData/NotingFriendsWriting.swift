import DataChanges

/// A transaction's writes, each noting the people it concerns and what it changed for them,
/// then done by `base`: both people of each friendship, friend request or block (each one's
/// friend, each one's requests). A contact's own changes concern its owner only, except a link,
/// which concerns the account.
public struct NotingFriendsWriting: FriendsWriting {
    /// The transaction it wraps, whose reads it passes on as they are
    /// (NotingFriendsWriting+Reading.swift, which Scripts/generate-services writes).
    let base: any FriendsWriting
    private let people: ChangedPeople

    public init(_ base: any FriendsWriting, noting people: ChangedPeople) {
        self.base = base
        self.people = people
    }

    public func befriend(_ userID: String, _ friendID: String, since: Double) throws {
        friendshipChanged(userID, friendID)
        try base.befriend(userID, friendID, since: since)
    }

    public func unfriend(_ userID: String, _ friendID: String) throws {
        friendshipChanged(userID, friendID)
        try base.unfriend(userID, friendID)
    }

    public func insert(_ request: FriendRequestRecord) throws {
        requestsChanged(request.fromID, request.toID)
        try base.insert(request)
    }

    public func deleteRequests(between userID: String, and otherID: String) throws {
        requestsChanged(userID, otherID)
        try base.deleteRequests(between: userID, and: otherID)
    }

    public func insert(_ block: BlockRecord) throws {
        requestsChanged(block.userID, block.blockedID)
        try base.insert(block)
    }

    public func deleteBlock(of blockedID: String, by userID: String) throws {
        requestsChanged(userID, blockedID)
        try base.deleteBlock(of: blockedID, by: userID)
    }

    public func setLinkedTo(_ accountID: String?, contactID: String) throws {
        if let accountID {
            people.note(accountID)
            // The link is asked of the account, among its requests.
            people.changed(.requests, accountID, for: [accountID])
        }
        try contactChanged(contactID)
        try base.setLinkedTo(accountID, contactID: contactID)
    }

    public func insert(_ contact: ContactRecord) throws {
        people.changed(.friend, contact.id, for: [contact.ownerID])
        try base.insert(contact)
    }

    public func setName(_ name: String, contactID: String) throws {
        try contactChanged(contactID)
        try base.setName(name, contactID: contactID)
    }

    public func setRemoved(contactID: String) throws {
        try contactChanged(contactID)
        try base.setRemoved(contactID: contactID)
    }

    public func deleteContact(id: String) throws {
        try contactChanged(id)
        try base.deleteContact(id: id)
    }

    public func declineClaim(contactID: String, accountID: String) throws {
        people.changed(.requests, accountID, for: [accountID])
        try base.declineClaim(contactID: contactID, accountID: accountID)
    }

    /// Each of the two sees the other as a friend, or no longer.
    private func friendshipChanged(_ one: String, _ other: String) {
        people.changed(.friend, other, for: [one])
        people.changed(.friend, one, for: [other])
    }

    /// Each of the two has a request, an answer or a block more or fewer among their requests.
    private func requestsChanged(_ one: String, _ other: String) {
        people.changed(.requests, one, for: [one])
        people.changed(.requests, other, for: [other])
    }

    /// A contact is its owner's.
    private func contactChanged(_ id: String) throws {
        if let contact = try base.contact(id: id) { people.changed(.friend, id, for: [contact.ownerID]) }
    }
}
