/// One side of a friendship between two accounts; a friendship is kept as two rows, one each way.
public struct FriendshipRecord: Equatable, Sendable {
    public var userID: String
    public var friendID: String
    /// Seconds since 1970.
    public var since: Double

    public init(userID: String, friendID: String, since: Double) {
        self.userID = userID
        self.friendID = friendID
        self.since = since
    }
}

/// A person without an account, kept by the user who added them. Plain values: the domain
/// checks, the store keeps.
public struct ContactRecord: Equatable, Sendable {
    public var id: String
    public var ownerID: String
    public var name: String
    public var email: String?
    /// The email's normalised key, to find contacts by email.
    public var emailKey: String?
    public var createdAt: Double
    /// The account the contact is being linked to, once their owner asked; the contact goes when
    /// the link is done.
    public var linkedTo: String?
    /// Removed from the owner's friends; kept so the expenses they were in still name them.
    public var removed: Bool

    public init(
        id: String, ownerID: String, name: String, email: String?, emailKey: String?, createdAt: Double,
        linkedTo: String? = nil, removed: Bool = false
    ) {
        self.id = id
        self.ownerID = ownerID
        self.name = name
        self.email = email
        self.emailKey = emailKey
        self.createdAt = createdAt
        self.linkedTo = linkedTo
        self.removed = removed
    }
}

/// A request to become friends, from one account to another, waiting for the other's answer.
public struct FriendRequestRecord: Equatable, Sendable {
    public var fromID: String
    public var toID: String
    /// Seconds since 1970.
    public var sentAt: Double
    /// The sender's contact to link to the recipient once they accept, when the request came
    /// from linking it.
    public var contactID: String?

    public init(fromID: String, toID: String, sentAt: Double, contactID: String? = nil) {
        self.fromID = fromID
        self.toID = toID
        self.sentAt = sentAt
        self.contactID = contactID
    }
}

/// One account's block of another: no request passes between them while it stands.
public struct BlockRecord: Equatable, Sendable {
    public var userID: String
    public var blockedID: String
    /// Seconds since 1970.
    public var since: Double

    public init(userID: String, blockedID: String, since: Double) {
        self.userID = userID
        self.blockedID = blockedID
        self.since = since
    }
}

/// Where friendships and contacts are kept; everything one `write` does is one transaction.
public protocol FriendsStore: Sendable {
    func read<T: Sendable>(_ body: @escaping @Sendable (any FriendsReading) throws -> T) async throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (any FriendsWriting) throws -> T) async throws -> T
    /// The ones among `ids` that `userID` may name in an expense: the accounts they are friends
    /// with, and their own contacts (not removed, not being linked). Asked before every expense
    /// is added and whenever accounts are shown (whose email and friend code a user sees), so
    /// it is a call of its own rather than a read's: a store may answer many users' questions
    /// at once.
    func friendIDs(of userID: String, among ids: [String]) async throws -> Set<String>
}

/// Look-ups inside a transaction.
public protocol FriendsReading {
    /// The accounts `userID` is friends with.
    func friendships(of userID: String) throws -> [FriendshipRecord]
    func isFriend(_ userID: String, _ friendID: String) throws -> Bool
    /// The contacts `ownerID` keeps: not removed, linked or not.
    func contacts(ownerID: String) throws -> [ContactRecord]
    func contact(id: String) throws -> ContactRecord?
    /// Contacts (of anyone, not removed, not yet linked) whose email has this key.
    func contacts(emailKey: String) throws -> [ContactRecord]
    /// The requests `userID` sent that wait for an answer.
    func requests(from userID: String) throws -> [FriendRequestRecord]
    /// The requests sent to `userID` that wait for their answer.
    func requests(to userID: String) throws -> [FriendRequestRecord]
    func request(from fromID: String, to toID: String) throws -> FriendRequestRecord?
    /// The accounts `userID` blocked.
    func blocks(by userID: String) throws -> [BlockRecord]
    /// The ones among `ids` with a block between them and `userID`, either way.
    func blocked(among ids: [String], for userID: String) throws -> Set<String>
    /// Whether the owner of contact `contactID` said it is not account `accountID` (they
    /// declined the account's claim of it).
    func isClaimDeclined(contactID: String, accountID: String) throws -> Bool
}

/// Changes inside a transaction.
public protocol FriendsWriting: FriendsReading {
    /// Adds both rows of a friendship (nothing when it exists).
    func befriend(_ userID: String, _ friendID: String, since: Double) throws
    /// Removes both rows of a friendship.
    func unfriend(_ userID: String, _ friendID: String) throws
    func insert(_ contact: ContactRecord) throws
    func setLinkedTo(_ accountID: String?, contactID: String) throws
    func setName(_ name: String, contactID: String) throws
    func setRemoved(contactID: String) throws
    func deleteContact(id: String) throws
    /// Adds a request, or replaces the one from the same sender to the same recipient.
    func insert(_ request: FriendRequestRecord) throws
    /// Removes the requests between two accounts, both ways.
    func deleteRequests(between userID: String, and otherID: String) throws
    func insert(_ block: BlockRecord) throws
    func deleteBlock(of blockedID: String, by userID: String) throws
    /// Keeps that the owner of contact `contactID` declined account `accountID`'s claim of it.
    func declineClaim(contactID: String, accountID: String) throws
}

/// What a store refused.
public enum FriendsDataError: Error, Equatable, Sendable {
    /// A constraint of the store refused the write, named.
    case refused(String)
}
