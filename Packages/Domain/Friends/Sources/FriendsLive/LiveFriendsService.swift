import Accounts
import Expenses
import Foundation
import Friends
import FriendsData
import Primitives

/// The friends service of the app, on top of a ``FriendsStore``: accounts are found through the
/// accounts service, balances read from the ledger, and a linked contact's expenses moved by it.
public struct LiveFriendsService: FriendsService {
    private let store: any FriendsStore
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
        if try await storing({ try await store.read { try $0.isFriend(me, them) } }) { throw .alreadyFriends(account.name) }
        return account
    }

    public func add(_ query: AccountQuery, by user: UserID) async throws(FriendsError) -> Friend {
        let friend = try await find(query, for: user)
        let (me, them, since) = (user.rawValue, friend.id.rawValue, now().timeIntervalSince1970)
        let most = limits.friends
        try await storing {
            try await store.write { db in
                // Counted inside the write: two adds at once cannot both take the last place.
                guard try db.friendships(of: me).count < most else { throw FriendsError.tooManyFriends(nil, limit: most) }
                guard try db.friendships(of: them).count < most else { throw FriendsError.tooManyFriends(friend.name, limit: most) }
                try db.befriend(me, them, since: since)
            }
        }
        return try await befriended(friend.id, by: user)
    }

    public func addContact(name: String, email: String?, by user: UserID) async throws(FriendsError) -> Friend {
        let displayName: DisplayName
        do throws(DisplayName.Problem) { displayName = try DisplayName(name) } catch { throw .invalidName(error) }
        var address: EmailAddress?
        if let email, !email.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            do throws(EmailAddress.Problem) { address = try EmailAddress(email) } catch { throw .invalidEmail(error) }
        }
        if let address, try await accountsCall({ try await accounts.profile(withEmail: address.value, for: user) }) != nil {
            throw .emailHasAccount(address.value)
        }
        let record = ContactRecord(
            id: UserID.random(using: random).rawValue, ownerID: user.rawValue, name: displayName.value,
            email: address?.value, emailKey: address.map { EmailAddress.key(for: $0.value) }, createdAt: now().timeIntervalSince1970
        )
        let nameKey = displayName.value.lowercased()
        let shownEmail = address?.value
        let most = limits.contacts
        try await storing {
            try await store.write { db in
                let contacts = try db.contacts(ownerID: record.ownerID).filter { $0.linkedTo == nil }
                for contact in contacts {
                    if let key = record.emailKey, contact.emailKey == key { throw FriendsError.contactEmailTaken(shownEmail ?? key) }
                    if contact.name.lowercased() == nameKey { throw FriendsError.contactNameTaken(displayName) }
                }
                guard contacts.count < most else { throw FriendsError.tooManyContacts(limit: most) }
                try db.insert(record)
            }
        }
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

    public func link(_ contactID: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> Friend {
        let (contact, account) = try await linkable(contactID, to: query, by: user)
        let (me, target, name, most) = (user.rawValue, account.id.rawValue, account.name, limits.friends)
        try await storing {
            try await store.write { db in
                // The link makes them friends: both need room for one more, as adding would.
                if try !db.isFriend(me, target) {
                    guard try db.friendships(of: me).count < most else { throw FriendsError.tooManyFriends(nil, limit: most) }
                    guard try db.friendships(of: target).count < most else { throw FriendsError.tooManyFriends(name, limit: most) }
                }
                try db.setLinkedTo(target, contactID: contact.id)
            }
        }
        try await complete(contact, linkedTo: target)
        return try await befriended(account.id, by: user)
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
        guard let me = try await accountsNamed([user], for: user).first else { return [] }
        let key = EmailAddress.key(for: me.email.value)
        let id = user.rawValue
        // The home asks at every start: almost always nobody has, so a read answers without
        // taking the store's write lock.
        let waiting = try await storing { try await store.read { try $0.contacts(emailKey: key).contains { $0.ownerID != id } } }
        guard waiting else { return [] }
        let most = limits.friends
        let claimed = try await storing {
            try await store.write { db in
                // Each claim makes the owner a friend: one that either side has no room for stays
                // a contact.
                var mine = try db.friendships(of: id).count
                var claimed: [ContactRecord] = []
                for contact in try db.contacts(emailKey: key) where contact.ownerID != id {
                    if try !db.isFriend(id, contact.ownerID) {
                        guard mine < most, try db.friendships(of: contact.ownerID).count < most else { continue }
                        mine += 1
                    }
                    try db.setLinkedTo(id, contactID: contact.id)
                    claimed.append(contact)
                }
                return claimed
            }
        }
        var owners: [UserID] = []
        for contact in claimed {
            // One that cannot be linked (they share an expense with the account) stays a contact.
            do throws(FriendsError) {
                try await complete(contact, linkedTo: id)
                owners.append(UserID(rawValue: contact.ownerID))
            } catch .cannotLink {
                continue
            }
        }
        return owners
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
    private func storing<T>(_ work: () async throws -> T) async throws(FriendsError) -> T {
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
