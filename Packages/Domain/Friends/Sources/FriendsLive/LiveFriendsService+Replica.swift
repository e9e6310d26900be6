import Friends
import FriendsData
import Primitives

/// A replica's friends, contacts and requests, as pulled: the rows the service's own writes
/// would have left for what the user sees.
extension LiveFriendsService: FriendsReplica {
    public func put(_ friend: Friend, of user: UserID) async throws(FriendsError) {
        let (me, id) = (user.rawValue, friend.id.rawValue)
        switch friend.kind {
        case .account:
            try await storing { try await store.write { db in try db.befriend(me, id, since: 0) } }
        case .contact(let email):
            let record = ContactRecord(
                id: id, ownerID: me, name: friend.name.value, email: email?.value, emailKey: email.map { EmailAddress.key(for: $0.value) }, createdAt: 0
            )
            try await storing {
                try await store.write { db in
                    if let kept = try db.contact(id: id) {
                        guard kept.ownerID == me else { throw FriendsError.notAContact }
                        if kept.email == record.email, !kept.removed, kept.linkedTo == nil {
                            if kept.name != record.name { try db.setName(record.name, contactID: id) }
                            return
                        }
                        try db.deleteContact(id: id)
                    }
                    try db.insert(record)
                }
            }
        }
    }

    public func removeFriend(_ id: UserID, of user: UserID) async throws(FriendsError) {
        let (me, them) = (user.rawValue, id.rawValue)
        try await storing {
            try await store.write { db in
                try db.unfriend(me, them)
                // A contact gone from the owner's list is kept, removed, as on the server: what
                // they were in still names them.
                if let contact = try db.contact(id: them), contact.ownerID == me, !contact.removed { try db.setRemoved(contactID: them) }
            }
        }
    }

    public func put(_ requests: FriendRequests, of user: UserID) async throws(FriendsError) {
        let me = user.rawValue
        try await storing {
            try await store.write { db in
                // The requests kept go, with the stand-ins for the others' contacts they carried.
                for old in try db.requests(to: me) + db.requests(from: me) {
                    try db.deleteRequests(between: old.fromID, and: old.toID)
                    if let contact = old.contactID, contact == Self.standInContact(from: old.fromID, to: old.toID) { try db.deleteContact(id: contact) }
                }
                for block in try db.blocks(by: me) { try db.deleteBlock(of: block.blockedID, by: me) }
                for (request, incoming) in requests.incoming.map({ ($0, true) }) + requests.outgoing.map({ ($0, false) }) {
                    let them = request.person.id.rawValue
                    let (from, to) = incoming ? (them, me) : (me, them)
                    // The contact a request carries stands in as a removed contact of its owner's
                    // (the sender's, or the recipient's), by its name: what reading the request
                    // shows of it. (The user's own may be off their list, being linked.)
                    var contactID: String?
                    switch request.link {
                    case nil: break
                    case .sendersContact(let name):
                        contactID = try Self.putStandIn(named: name, email: nil, owner: from, from: from, to: to, in: db)
                    case .recipientsContact(let name, let email):
                        contactID = try Self.putStandIn(named: name, email: email.isEmpty ? nil : email, owner: to, from: from, to: to, in: db)
                    }
                    try db.insert(FriendRequestRecord(fromID: from, toID: to, sentAt: request.sentAt.timeIntervalSince1970, contactID: contactID))
                }
                for person in requests.blocked { try db.insert(BlockRecord(userID: me, blockedID: person.id.rawValue, since: 0)) }
            }
        }
    }

    /// The id of the stand-in for another's contact that a request carries.
    private static func standInContact(from: String, to: String) -> String { "request.\(from).\(to)" }

    private static func putStandIn(named name: DisplayName, email: String?, owner: String, from: String, to: String, in db: any FriendsWriting) throws -> String {
        let id = standInContact(from: from, to: to)
        try db.deleteContact(id: id)
        try db.insert(
            ContactRecord(
                id: id, ownerID: owner, name: name.value, email: email, emailKey: email.map { EmailAddress.key(for: $0) }, createdAt: 0, removed: true
            )
        )
        return id
    }
}
