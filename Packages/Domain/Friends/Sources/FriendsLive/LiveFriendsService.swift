import Accounts
import Expenses
import Foundation
import Friends
import FriendsData
import Primitives

/// The friends service of the app, on top of a ``FriendsStore``: accounts are found through the
/// accounts service, balances read from the ledger, and a linked contact's expenses moved by it.
public struct LiveFriendsService: FriendsService {
    let store: any FriendsStore
    private let accounts: any AccountsService & AccountNames
    private let expenses: any ExpensesService
    private let merging: any PersonMerging
    private let random: any RandomSource
    private let now: @Sendable () -> Date
    private let limits = FriendLimits()

    public init(
        store: any FriendsStore,
        accounts: any AccountsService & AccountNames,
        expenses: any ExpensesService,
        merging: any PersonMerging,
        random: any RandomSource = SystemRandomSource(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.accounts = accounts
        self.expenses = expenses
        self.merging = merging
        self.random = random
        self.now = now
    }

    // MARK: - Reading

    public func friends(of user: UserID) async throws(FriendsError) -> [Friend] {
        try await finishLinks(of: user)
        let id = user.rawValue
        let (friendships, contacts) = try await storing {
            try await store.read { db in (try db.friendships(of: id), try db.contacts(ownerID: id)) }
        }
        let found = try await accountsNamed(Set(friendships.map { UserID(rawValue: $0.friendID) }), for: user)
        var friends = found.map(Self.friend(from:))
        for contact in contacts where contact.linkedTo == nil { friends.append(try Self.friend(from: contact)) }
        return friends.sorted { ($0.name.value.lowercased(), $0.id.rawValue) < ($1.name.value.lowercased(), $1.id.rawValue) }
    }

    public func friend(_ id: UserID, of user: UserID) async throws(FriendsError) -> Friend? {
        let (isFriend, contact) = try await storing {
            try await store.read { db in (try db.isFriend(user.rawValue, id.rawValue), try db.contact(id: id.rawValue)) }
        }
        if isFriend { return try await accountsNamed([id], for: user).first.map(Self.friend(from:)) }
        guard let contact, contact.ownerID == user.rawValue, !contact.removed, contact.linkedTo == nil else { return nil }
        return try Self.friend(from: contact)
    }

    public func friends(among people: Set<UserID>, of user: UserID) async throws(FriendsError) -> Set<UserID> {
        let (owner, ids) = (user.rawValue, people.map(\.rawValue))
        guard !ids.isEmpty else { return [] }
        return Set(try await storing { try await store.friendIDs(of: owner, among: ids) }.map(UserID.init(rawValue:)))
    }

    public func names(of people: Set<UserID>, for user: UserID) async throws(FriendsError) -> [UserID: DisplayName] {
        guard !people.isEmpty else { return [:] }
        // The user's own contacts (not linked to an account yet) by the names the user gave them;
        // accounts, friends or not, by their own. Only those asked for are read.
        var names: [UserID: DisplayName] = [:]
        let (owner, ids) = (user.rawValue, people.map(\.rawValue))
        let contacts = try await storing { try await store.read { db in try ids.compactMap { try db.contact(id: $0) } } }
        for contact in contacts where contact.ownerID == owner && !contact.removed && contact.linkedTo == nil {
            guard let name = try? DisplayName(contact.name) else { throw .storeUnavailable("the stored contact \(contact.id) is damaged") }
            names[UserID(rawValue: contact.id)] = name
        }
        let others = people.subtracting(names.keys)
        if !others.isEmpty { names.merge(try await accountsCall { try await accounts.displayNames(of: others, for: user) }) { contact, _ in contact } }
        return names
    }

    // MARK: - Adding and removing

    public func find(_ query: AccountQuery, for user: UserID) async throws(FriendsError) -> PublicProfile {
        let account = try await account(for: query, by: user)
        guard account.id != user else { throw .yourself }
        let (me, them) = (user.rawValue, account.id.rawValue)
        let name = account.name
        try await storing {
            try await store.read { db in
                if try db.isFriend(me, them) { throw FriendsError.alreadyFriends(name) }
                try Self.checkNoBlock(between: me, and: them, name: name, in: db)
            }
        }
        return account
    }

    public func add(_ query: AccountQuery, by user: UserID) async throws(FriendsError) -> FriendAddition {
        let account = try await find(query, for: user)
        return try await ask(account, by: user, linking: nil)
    }

    public func requests(of user: UserID) async throws(FriendsError) -> FriendRequests {
        let me = user.rawValue
        let (incoming, outgoing, blocks, contacts) = try await storing {
            try await store.read { db in
                let incoming = try db.requests(to: me)
                let outgoing = try db.requests(from: me)
                let contactIDs = (incoming + outgoing).compactMap(\.contactID)
                let contacts = try contactIDs.compactMap { try db.contact(id: $0) }
                return (incoming, outgoing, try db.blocks(by: me), contacts)
            }
        }
        let people = Set((incoming.map(\.fromID) + outgoing.map(\.toID) + blocks.map(\.blockedID)).map(UserID.init(rawValue:)))
        let names = people.isEmpty ? [:] : try await accountsCall { try await accounts.displayNames(of: people, for: user) }
        let contactsByID = Dictionary(contacts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func request(_ record: FriendRequestRecord, person: String) -> FriendRequest? {
            guard let name = names[UserID(rawValue: person)] else { return nil }
            var link: FriendRequest.Link?
            if let contact = record.contactID.flatMap({ contactsByID[$0] }), let contactName = try? DisplayName(contact.name) {
                // Whose contact it is says which way it goes: the sender's to the recipient, or
                // the recipient's claimed by the sender.
                link = contact.ownerID == record.fromID ? .sendersContact(contactName) : .recipientsContact(contactName, email: contact.email ?? "")
            }
            return FriendRequest(person: PublicProfile(id: UserID(rawValue: person), name: name), sentAt: Date(timeIntervalSince1970: record.sentAt), link: link)
        }
        let newestFirst: (FriendRequest, FriendRequest) -> Bool = { ($0.sentAt, $0.person.id.rawValue) > ($1.sentAt, $1.person.id.rawValue) }
        return FriendRequests(
            incoming: incoming.compactMap { request($0, person: $0.fromID) }.sorted(by: newestFirst),
            outgoing: outgoing.compactMap { request($0, person: $0.toID) }.sorted(by: newestFirst),
            blocked: blocks.compactMap { block in names[UserID(rawValue: block.blockedID)].map { PublicProfile(id: UserID(rawValue: block.blockedID), name: $0) } }
                .sorted { ($0.name.value.lowercased(), $0.id.rawValue) < ($1.name.value.lowercased(), $1.id.rawValue) }
        )
    }

    public func accept(_ person: UserID, by user: UserID) async throws(FriendsError) -> Friend {
        let (me, them, since, most) = (user.rawValue, person.rawValue, now().timeIntervalSince1970, limits.friends)
        let links = try await storing {
            try await store.write { db in
                guard let request = try db.request(from: them, to: me) else { throw FriendsError.noRequest }
                // The request already holds its sender's place: only the user needs room.
                guard try db.friendships(of: me).count + db.requests(from: me).count < most else { throw FriendsError.tooManyFriends(nil, limit: most) }
                try db.befriend(me, them, since: since)
                try db.deleteRequests(between: me, and: them)
                guard let link = try Self.link(carriedBy: request, in: db) else { return [Link]() }
                try db.setLinkedTo(link.account, contactID: link.contact.id)
                return [link]
            }
        }
        try await complete(links, by: user)
        return try await befriended(person, by: user)
    }

    public func dropRequest(with person: UserID, by user: UserID) async throws(FriendsError) {
        let (me, them) = (user.rawValue, person.rawValue)
        try await storing {
            try await store.write { db in
                let theirs = try db.request(from: them, to: me)
                guard try theirs != nil || db.request(from: me, to: them) != nil else { throw FriendsError.noRequest }
                // A claim of the user's contact, declined: the contact is not them, and is not
                // claimed by them again.
                if let contactID = theirs?.contactID, try db.contact(id: contactID)?.ownerID == me {
                    try db.declineClaim(contactID: contactID, accountID: them)
                }
                try db.deleteRequests(between: me, and: them)
            }
        }
    }

    public func block(_ person: UserID, by user: UserID) async throws(FriendsError) {
        guard person != user else { throw .yourself }
        // Only an account: a contact is the user's own to remove.
        let isContact = try await storing { try await store.read { try $0.contact(id: person.rawValue) != nil } }
        guard !isContact, try await accountsCall({ try await accounts.displayNames(of: [person], for: user) })[person] != nil else { throw .notAnAccount }
        let (me, them, since) = (user.rawValue, person.rawValue, now().timeIntervalSince1970)
        try await storing {
            try await store.write { db in
                try db.unfriend(me, them)
                try db.deleteRequests(between: me, and: them)
                try db.insert(BlockRecord(userID: me, blockedID: them, since: since))
            }
        }
    }

    public func unblock(_ person: UserID, by user: UserID) async throws(FriendsError) {
        let (me, them) = (user.rawValue, person.rawValue)
        try await storing { try await store.write { try $0.deleteBlock(of: them, by: me) } }
    }

    /// A contact the user asked to link to an account, and that account.
    private struct Link: Sendable {
        let contact: ContactRecord
        let account: String
    }

    /// What asking came to inside the write: a request sent, or friends with the links to make.
    private enum Asked: Sendable {
        case sent
        case friends([Link])
    }

    /// Asks `account` to be the user's friend, carrying the user's contact `contactID` to link
    /// to them once they accept; or, when they asked first, makes them friends (and links both
    /// requests' contacts); or, with a friend already, links the contact at once.
    private func ask(_ account: PublicProfile, by user: UserID, linking contactID: String?) async throws(FriendsError) -> FriendAddition {
        let (me, them, name, at, most) = (user.rawValue, account.id.rawValue, account.name, now().timeIntervalSince1970, limits.friends)
        let asked = try await storing {
            try await store.write { db -> Asked in
                if try db.isFriend(me, them) {
                    guard let contact = try Self.linkableContact(contactID, of: me, in: db) else { throw FriendsError.alreadyFriends(name) }
                    try db.setLinkedTo(them, contactID: contact.id)
                    return .friends([Link(contact: contact, account: them)])
                }
                try Self.checkNoBlock(between: me, and: them, name: name, in: db)
                // Counted inside the write: two at once cannot both take the last place.
                let mine = try db.friendships(of: me).count + db.requests(from: me).count
                if let theirs = try db.request(from: them, to: me) {
                    guard mine < most else { throw FriendsError.tooManyFriends(nil, limit: most) }
                    guard try db.friendships(of: them).count < most else { throw FriendsError.tooManyFriends(name, limit: most) }
                    try db.befriend(me, them, since: at)
                    try db.deleteRequests(between: me, and: them)
                    var links: [Link] = []
                    if let link = try Self.link(carriedBy: theirs, in: db) { links.append(link) }
                    if let contact = try Self.linkableContact(contactID, of: me, in: db) { links.append(Link(contact: contact, account: them)) }
                    for link in links { try db.setLinkedTo(link.account, contactID: link.contact.id) }
                    return .friends(links)
                }
                let waiting = try db.request(from: me, to: them)
                if waiting == nil {
                    guard mine < most else { throw FriendsError.tooManyFriends(nil, limit: most) }
                    // One they could not accept is not sent.
                    guard try db.friendships(of: them).count < most else { throw FriendsError.tooManyFriends(name, limit: most) }
                }
                try db.insert(FriendRequestRecord(fromID: me, toID: them, sentAt: waiting?.sentAt ?? at, contactID: contactID ?? waiting?.contactID))
                return .sent
            }
        }
        switch asked {
        case .sent:
            return .requested(account)
        case .friends(let links):
            try await complete(links, by: user)
            return .friends(try await befriended(account.id, by: user))
        }
    }

    /// Finishes links just agreed to: the user's own refused is theirs to hear; the other
    /// side's stays a contact of theirs.
    private func complete(_ links: [Link], by user: UserID) async throws(FriendsError) {
        for link in links {
            do throws(FriendsError) {
                try await complete(link.contact, linkedTo: link.account)
            } catch .cannotLink(let reason) {
                if link.contact.ownerID == user.rawValue { throw .cannotLink(reason) }
            }
        }
    }

    /// The link a request carries: its contact (the sender's, or the recipient's that the sender
    /// claimed) to the other of the two, when it may still be linked.
    private static func link(carriedBy request: FriendRequestRecord, in db: any FriendsReading) throws -> Link? {
        for (owner, account) in [(request.fromID, request.toID), (request.toID, request.fromID)] {
            if let contact = try linkableContact(request.contactID, of: owner, in: db) { return Link(contact: contact, account: account) }
        }
        return nil
    }

    /// The contact `id` when it is `owner`'s and may still be linked.
    private static func linkableContact(_ id: String?, of owner: String, in db: any FriendsReading) throws -> ContactRecord? {
        guard let id, let contact = try db.contact(id: id), contact.ownerID == owner, !contact.removed, contact.linkedTo == nil else { return nil }
        return contact
    }

    /// Refuses a request between two accounts when either blocked the other, saying which.
    private static func checkNoBlock(between me: String, and them: String, name: DisplayName, in db: any FriendsReading) throws {
        guard !(try db.blocked(among: [them], for: me)).isEmpty else { return }
        if try db.blocks(by: me).contains(where: { $0.blockedID == them }) { throw FriendsError.blockedByYou(name) }
        throw FriendsError.notTakingRequests(name)
    }

    public func addContact(name: String, email: String?, as given: UserID?, by user: UserID) async throws(FriendsError) -> Friend {
        let displayName: DisplayName
        do throws(DisplayName.Problem) { displayName = try DisplayName(name) } catch { throw .invalidName(error) }
        var address: EmailAddress?
        if let email, !email.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            do throws(EmailAddress.Problem) { address = try EmailAddress(email) } catch { throw .invalidEmail(error) }
        }
        if let address, try await accountsCall({ try await accounts.profile(withEmail: address.value, for: user) }) != nil {
            throw .emailHasAccount(address.value)
        }
        if let given, try await accountsCall({ try await accounts.existing(among: [given]) }).contains(given) { throw .idTaken(given) }
        let record = ContactRecord(
            id: (given ?? UserID.random(using: random)).rawValue, ownerID: user.rawValue, name: displayName.value,
            email: address?.value, emailKey: address.map { EmailAddress.key(for: $0.value) }, createdAt: now().timeIntervalSince1970
        )
        let nameKey = displayName.value.lowercased()
        let shownEmail = address?.value
        let most = limits.contacts
        let again = try await storing {
            try await store.write { db -> Friend? in
                // The same write again (its answer was lost): the contact as it is.
                if given != nil, let kept = try db.contact(id: record.id) {
                    guard kept.ownerID == record.ownerID, kept.linkedTo == nil else { throw FriendsError.idTaken(UserID(rawValue: record.id)) }
                    return try Self.friend(from: kept)
                }
                let contacts = try db.contacts(ownerID: record.ownerID).filter { $0.linkedTo == nil }
                for contact in contacts {
                    if let key = record.emailKey, contact.emailKey == key { throw FriendsError.contactEmailTaken(shownEmail ?? key) }
                    if contact.name.lowercased() == nameKey { throw FriendsError.contactNameTaken(displayName) }
                }
                guard contacts.count < most else { throw FriendsError.tooManyContacts(limit: most) }
                try db.insert(record)
                return nil
            }
        }
        if let again { return again }
        return Friend(id: UserID(rawValue: record.id), name: displayName, kind: .contact(email: address))
    }

    public func renameContact(_ contactID: UserID, to name: String, by user: UserID) async throws(FriendsError) -> Friend {
        let displayName: DisplayName
        do throws(DisplayName.Problem) { displayName = try DisplayName(name) } catch { throw .invalidName(error) }
        let nameKey = displayName.value.lowercased()
        let renamed = try await storing {
            try await store.write { db in
                guard var contact = try db.contact(id: contactID.rawValue), contact.ownerID == user.rawValue, !contact.removed, contact.linkedTo == nil else {
                    throw FriendsError.notAContact
                }
                for other in try db.contacts(ownerID: contact.ownerID) where other.linkedTo == nil && other.id != contact.id {
                    if other.name.lowercased() == nameKey { throw FriendsError.contactNameTaken(displayName) }
                }
                try db.setName(displayName.value, contactID: contact.id)
                contact.name = displayName.value
                return contact
            }
        }
        return try Self.friend(from: renamed)
    }

    public func remove(_ id: UserID, by user: UserID) async throws(FriendsError) {
        guard let friend = try await friend(id, of: user) else { throw .notAFriend }
        let open: [Money]
        do {
            open = try await expenses.balances(of: user).filter { $0.other == id && $0.amount.minorUnits != 0 }.map(\.amount)
        } catch {
            throw .storeUnavailable(error.message)
        }
        guard open.isEmpty else { throw .notSettled(friend.name, open) }
        let (me, them, isContact) = (user.rawValue, id.rawValue, friend.isContact)
        try await storing {
            try await store.write { db in
                if isContact { try db.setRemoved(contactID: them) } else { try db.unfriend(me, them) }
            }
        }
    }

    // MARK: - Linking contacts to accounts

    public func link(_ contactID: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> FriendAddition {
        let (contact, account) = try await linkable(contactID, to: query, by: user)
        return try await ask(account, by: user, linking: contact.id)
    }

    public func linkTarget(_ contactID: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> PublicProfile {
        try await linkable(contactID, to: query, by: user).account
    }

    /// The user's contact and the account the query names, when the one may be linked to the other.
    private func linkable(_ contactID: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> (contact: ContactRecord, account: PublicProfile) {
        let stored = try await storing { try await store.read { try $0.contact(id: contactID.rawValue) } }
        guard let contact = stored, contact.ownerID == user.rawValue, !contact.removed, contact.linkedTo == nil else {
            throw .notAContact
        }
        let account = try await account(for: query, by: user)
        guard account.id != user else { throw .cannotLink("A contact cannot be linked to your own account.") }
        return (contact, account)
    }

    public func claimContacts(for user: UserID) async throws(FriendsError) -> [UserID] {
        // Only an email the user proved is theirs claims anything.
        guard let me = try await accountsNamed([user], for: user).first, me.emailVerified else { return [] }
        let key = EmailAddress.key(for: me.email.value)
        let (id, at, most) = (user.rawValue, now().timeIntervalSince1970, limits.friends)
        // The home asks at every start: almost always nobody has, so a read answers without
        // taking the store's write lock.
        let waiting = try await storing { try await store.read { try $0.contacts(emailKey: key).contains { $0.ownerID != id } } }
        guard waiting else { return [] }
        let asked = try await storing {
            try await store.write { db in
                // Each claim is a request to the contact's owner, carrying their contact: only
                // their acceptance links it. One asked already, declined, or with a block between
                // the two is not asked again; one the user has no room for waits.
                var asked: [String] = []
                var mine = try db.friendships(of: id).count + db.requests(from: id).count
                for contact in try db.contacts(emailKey: key) where contact.ownerID != id {
                    let owner = contact.ownerID
                    guard try !db.isClaimDeclined(contactID: contact.id, accountID: id), try db.blocked(among: [owner], for: id).isEmpty else { continue }
                    if let existing = try db.request(from: id, to: owner) {
                        if existing.contactID == nil { try db.insert(FriendRequestRecord(fromID: id, toID: owner, sentAt: existing.sentAt, contactID: contact.id)) }
                        continue
                    }
                    // Asked by the owner already (a link of this contact, or a request): that
                    // request is theirs to answer from the other side.
                    guard try db.request(from: owner, to: id) == nil, mine < most else { continue }
                    try db.insert(FriendRequestRecord(fromID: id, toID: owner, sentAt: at, contactID: contact.id))
                    mine += 1
                    asked.append(owner)
                }
                return asked
            }
        }
        return asked.map(UserID.init(rawValue:))
    }

    /// Moves the contact's expenses to the account, then makes the owner and the account friends
    /// and ends the contact. Each step can run again: one cut short is finished by the next
    /// ``finishLinks(of:)``. A ledger that refuses takes the link back.
    private func complete(_ contact: ContactRecord, linkedTo account: String) async throws(FriendsError) {
        do {
            try await merging.merge(UserID(rawValue: contact.id), into: UserID(rawValue: account))
        } catch .cannotMerge(let reason) {
            try await storing { try await store.write { try $0.setLinkedTo(nil, contactID: contact.id) } }
            throw .cannotLink(reason)
        } catch .refused(let rule) {
            throw .refused(rule)
        } catch {
            throw .storeUnavailable(error.message)
        }
        let since = now().timeIntervalSince1970
        try await storing {
            try await store.write { db in
                try db.befriend(contact.ownerID, account, since: since)
                try db.deleteContact(id: contact.id)
            }
        }
    }

    /// Links the user asked for and that were cut short (a crash between moving the expenses
    /// and ending the contact).
    private func finishLinks(of user: UserID) async throws(FriendsError) {
        let id = user.rawValue
        let pending = try await storing { try await store.read { try $0.contacts(ownerID: id).filter { $0.linkedTo != nil } } }
        for contact in pending {
            guard let account = contact.linkedTo else { continue }
            do throws(FriendsError) {
                try await complete(contact, linkedTo: account)
            } catch .cannotLink {
                continue
            }
        }
    }

    // MARK: - Accounts

    private func account(for query: AccountQuery, by user: UserID) async throws(FriendsError) -> PublicProfile {
        switch try query.read() {
        case .friendCode(let code):
            guard let found = try await accountsCall({ try await accounts.profile(withFriendCode: code, for: user) }) else {
                throw .unknownFriendCode(code)
            }
            return found
        case .email(let text):
            guard let found = try await accountsCall({ try await accounts.profile(withEmail: text, for: user) }) else {
                throw .unknownEmail(text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return found
        }
    }

    /// A friend just made, as the user now sees them (email and friend code: see
    /// ``AccountVisibility``).
    private func befriended(_ friend: UserID, by user: UserID) async throws(FriendsError) -> Friend {
        guard let account = try await accountsNamed([friend], for: user).first else {
            throw .storeUnavailable("the account \(friend) went while it was added")
        }
        return Self.friend(from: account)
    }

    private func accountsNamed(_ ids: Set<UserID>, for user: UserID) async throws(FriendsError) -> [User] {
        guard !ids.isEmpty else { return [] }
        return try await accountsCall { try await accounts.users(ids, for: user) }
    }

    private func accountsCall<T>(_ work: () async throws -> T) async throws(FriendsError) -> T {
        do {
            return try await work()
        } catch let error as AccountsError {
            throw .storeUnavailable(error.message)
        } catch {
            throw .storeUnavailable("\(error)")
        }
    }

    private static func friend(from user: User) -> Friend {
        Friend(id: user.id, name: user.displayName, kind: .account(email: user.email, friendCode: user.friendCode))
    }

    private static func friend(from contact: ContactRecord) throws(FriendsError) -> Friend {
        do {
            return Friend(
                id: UserID(rawValue: contact.id), name: try DisplayName(contact.name),
                kind: .contact(email: try contact.email.map { email throws(EmailAddress.Problem) in try EmailAddress(email) })
            )
        } catch {
            throw .storeUnavailable("the stored contact \(contact.id) is damaged")
        }
    }

    /// Runs store work, turning its failures into ``FriendsError``s.
    func storing<T>(_ work: () async throws -> T) async throws(FriendsError) -> T {
        do {
            return try await work()
        } catch let error as FriendsError {
            throw error
        } catch let FriendsDataError.refused(rule) {
            throw .refused(rule)
        } catch {
            throw .storeUnavailable("\(error)")
        }
    }
}
