import Foundation
import Primitives

/// Someone a user shares costs with: another account (the friendship is mutual) or a contact,
/// a person without an account whom the user keeps and who takes part in expenses like anyone.
public struct Friend: Equatable, Hashable, Sendable, Codable {
    public enum Kind: Equatable, Hashable, Sendable, Codable {
        /// Another account, found by its friend code or its email.
        case account(email: EmailAddress, friendCode: FriendCode)
        /// A person without an account, with an email if one was given.
        case contact(email: EmailAddress?)
    }

    /// The person's id in expenses: an account's id, or the contact's own.
    public let id: UserID
    public let name: DisplayName
    public let kind: Kind

    public init(id: UserID, name: DisplayName, kind: Kind) {
        self.id = id
        self.name = name
        self.kind = kind
    }

    public var isContact: Bool {
        if case .contact = kind { true } else { false }
    }
}

/// What asking to be someone's friend came to.
public enum FriendAddition: Equatable, Sendable {
    /// A request waits for their answer (sent now, or already waiting): they become a friend
    /// when they accept.
    case requested(PublicProfile)
    /// Friends at once: they had asked first, or were a friend already (a link).
    case friends(Friend)
}

/// A request to become friends, seen by one of its two sides.
public struct FriendRequest: Equatable, Sendable {
    /// The other side: who sent it, or to whom it went.
    public let person: PublicProfile
    public let sentAt: Date
    /// The contact accepting links, when the request carries one.
    public let link: Link?

    /// A contact a request carries: accepting makes it the other account, its expenses and
    /// payments with it.
    public enum Link: Equatable, Sendable {
        /// The sender's contact, by the sender's name for it: its owner asked to link it to the
        /// recipient.
        case sendersContact(DisplayName)
        /// The recipient's contact, by their name for it, with the email the sender signed up
        /// with: the sender claims to be that contact, and only its owner's acceptance links it.
        case recipientsContact(DisplayName, email: String)
    }

    public init(person: PublicProfile, sentAt: Date, link: Link? = nil) {
        self.person = person
        self.sentAt = sentAt
        self.link = link
    }
}

/// A user's requests both ways, and whom they blocked.
public struct FriendRequests: Equatable, Sendable {
    /// Sent to the user, newest first.
    public var incoming: [FriendRequest]
    /// Sent by the user, newest first.
    public var outgoing: [FriendRequest]
    /// The accounts the user blocked, by name.
    public var blocked: [PublicProfile]

    public init(incoming: [FriendRequest] = [], outgoing: [FriendRequest] = [], blocked: [PublicProfile] = []) {
        self.incoming = incoming
        self.outgoing = outgoing
        self.blocked = blocked
    }
}

/// How an account is named when adding it as a friend or linking a contact to it.
public enum AccountQuery: Equatable, Sendable {
    /// A friend code as typed: any case, spaces and dashes anywhere.
    case friendCode(String)
    /// An email as typed.
    case email(String)

    /// What was typed, read: a friend code, or an email that is well formed (as typed, for the
    /// accounts to normalise). Refused with ``FriendsError/invalidFriendCode(_:)`` or
    /// ``FriendsError/invalidEmail(_:)``: the check the service makes first.
    public func read() throws(FriendsError) -> Read {
        switch self {
        case .friendCode(let text):
            do throws(FriendCodeProblem) { return .friendCode(try FriendCode(text)) } catch { throw .invalidFriendCode(error) }
        case .email(let text):
            do throws(EmailAddress.Problem) { _ = try EmailAddress(text) } catch { throw .invalidEmail(error) }
            return .email(text)
        }
    }

    /// What was typed, in words, to show beside what it found (a look-up answers no email):
    /// `friend code K7QX-M3RD-9`, `email ada@example.com`.
    public var summary: String {
        switch (self, try? read()) {
        case (_, .friendCode(let code)?): "friend code \(code)"
        case (.friendCode(let text), _): "friend code \(text.trimmingCharacters(in: .whitespaces))"
        case (.email(let text), _): "email \(text.trimmingCharacters(in: .whitespaces))"
        }
    }

    /// A query that can be looked up.
    public enum Read: Equatable, Sendable {
        case friendCode(FriendCode)
        case email(String)
    }

    /// Why what was typed cannot name an account, or nil when it can be looked up: for a form
    /// to check as the user types, as the service will.
    public var problem: FriendsError? {
        do throws(FriendsError) {
            _ = try read()
            return nil
        } catch {
            return error
        }
    }
}

/// Friends and contacts, each read and change by the acting user on their own friends.
///
/// Every method that writes does so in one transaction, except linking, which moves a contact's
/// expenses and then ends the contact: a link cut short is finished by the owner's next read.
public protocol FriendsService: Sendable {
    /// The user's friends: accounts and contacts, by name.
    /// - Contract: listFriends
    /// - Replica: read
    func friends(of user: UserID) async throws(FriendsError) -> [Friend]

    /// One of the user's friends; nil for anyone else.
    /// - Replica: read
    func friend(_ id: UserID, of user: UserID) async throws(FriendsError) -> Friend?

    /// The account a friend code or email names, for the user to confirm before adding it: its
    /// id and name, never its email. Refused when it is the user, already a friend, or unknown.
    func find(_ query: AccountQuery, for user: UserID) async throws(FriendsError) -> PublicProfile

    /// Asks the account a friend code or email names to be friends: a request they accept,
    /// decline or block. One they had sent the user is accepted instead. Refused when either
    /// blocked the other, or when the user's friends and requests waiting reach the limit.
    func add(_ query: AccountQuery, by user: UserID) async throws(FriendsError) -> FriendAddition

    /// The user's requests waiting, both ways, and whom they blocked.
    /// - Contract: listFriendRequests
    /// - Replica: read
    func requests(of user: UserID) async throws(FriendsError) -> FriendRequests

    /// Accepts the request `person` sent the user: they become friends, and a contact the
    /// request carries is linked to the user. ``FriendsError/noRequest`` when there is none.
    /// - Contract: acceptFriendRequest
    func accept(_ person: UserID, by user: UserID) async throws(FriendsError) -> Friend

    /// Declines the request `person` sent the user, or takes back the one the user sent them.
    /// ``FriendsError/noRequest`` when there is neither.
    /// - Contract: dropFriendRequest
    func dropRequest(with person: UserID, by user: UserID) async throws(FriendsError)

    /// Blocks an account: ends a friendship or a request between them, and refuses their
    /// requests from now on. What they shared stays, and neither can add to it or change it.
    /// - Contract: blockPerson
    func block(_ person: UserID, by user: UserID) async throws(FriendsError)

    /// Lifts the user's block of `person` (nothing when there is none): requests may pass again.
    /// - Contract: unblockPerson
    func unblock(_ person: UserID, by user: UserID) async throws(FriendsError)

    /// Adds a contact: a name under the rules for display names, and an email or nil. Refused
    /// when the email belongs to an account (add the account instead) or to another of the
    /// user's contacts, or when another of their contacts has the same name. `id` is the
    /// contact's, made by a client that names it before the server has seen it (a replica, docs/
    /// sync.md): one any account or other contact holds is ``FriendsError/idTaken(_:)``, while the
    /// user's own contact under it is the same write again, answered as it is. Nil makes a new one.
    func addContact(name: String, email: String?, as id: UserID?, by user: UserID) async throws(FriendsError) -> Friend

    /// Renames one of the user's contacts, under the rules for display names; refused when
    /// another of their contacts has the name (in any case). Their expenses name them anew.
    /// - Contract: renameContact
    func renameContact(_ contact: UserID, to name: String, by user: UserID) async throws(FriendsError) -> Friend

    /// Removes a friend, only when the user is settled with them in every currency (refused
    /// with the balances otherwise). A removed contact is still named in past expenses.
    /// - Contract: removeFriend
    func remove(_ friend: UserID, by user: UserID) async throws(FriendsError)

    /// Links one of the user's contacts to the account a friend code or email names: the
    /// contact's expenses, payments and balances become the account's, unchanged, and the
    /// contact goes. With a friend this happens at once; anyone else is sent a request carrying
    /// the contact, and the link happens when they accept.
    func link(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> FriendAddition

    /// The account a link would go to, for the user to confirm (id and name): what
    /// ``link(_:to:by:)`` checks first, with nothing written. (An account that is already a
    /// friend may be linked to.)
    func linkTarget(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> PublicProfile

    /// Claims every contact that has the user's email (in anyone's list): each owner is sent a
    /// friend request carrying their contact, and only their acceptance links it to the user.
    /// What signing up with a contact's email does. A claim an owner declined, or with a block
    /// between the two, is not made again; an unverified email (``User/emailVerified``) claims
    /// nothing. Returns the owners asked now.
    /// - Contract: claimContacts
    @discardableResult
    func claimContacts(for user: UserID) async throws(FriendsError) -> [UserID]

    /// The ones among `people` that `user` may name in an expense or a payment: the accounts
    /// they are friends with and their own contacts (not removed, not being linked). Anyone
    /// else, however they learnt the id, is a stranger to the user's ledger.
    /// - Replica: read
    func friends(among people: Set<UserID>, of user: UserID) async throws(FriendsError) -> Set<UserID>

    /// The names `user` knows the ones among `people` by: their friends' and contacts' names,
    /// and other accounts' display names. Someone else's contact has no name for them (absent).
    /// - Replica: read
    func names(of people: Set<UserID>, for user: UserID) async throws(FriendsError) -> [UserID: DisplayName]
}

/// Why a change to friends was refused or could not be made.
public enum FriendsError: Error, Equatable, Sendable {
    case invalidFriendCode(FriendCodeProblem)
    case invalidEmail(EmailAddress.Problem)
    case invalidName(DisplayName.Problem)
    /// A user cannot be their own friend.
    case yourself
    case alreadyFriends(DisplayName)
    case unknownFriendCode(FriendCode)
    case unknownEmail(String)
    /// The email belongs to an account: add the account instead of a contact.
    case emailHasAccount(String)
    case contactEmailTaken(String)
    case contactNameTaken(DisplayName)
    /// The person is not one of the user's friends (or not a contact, for a link).
    case notAFriend
    case notAContact
    /// No account has that id (one to block).
    case notAnAccount
    /// No request waits between the user and that person.
    case noRequest
    /// The person blocked the user: they take no requests from them.
    case notTakingRequests(DisplayName)
    /// The user blocked the person: they unblock them before asking.
    case blockedByYou(DisplayName)
    /// Removing is refused while a balance is open; the balances, seen from the user's side.
    case notSettled(DisplayName, [Money])
    /// A contact cannot be linked to this account; the reason says why.
    case cannotLink(String)
    /// The user has as many friends as one may (``FriendLimits/friends``), or, named, the
    /// person they would befriend has.
    case tooManyFriends(DisplayName?, limit: Int)
    /// The user has as many contacts as one may (``FriendLimits/contacts``).
    case tooManyContacts(limit: Int)
    /// The id given for a new contact is held by an account or by another contact.
    case idTaken(UserID)
    /// A rule of the store refused the write.
    case refused(String)
    case storeUnavailable(String)
    /// The session ended while in use (a server's service).
    case signedOut
    /// The server could not be reached, or answered something it should not.
    case serverUnreachable(String)

    /// One sentence for the user.
    public var message: String {
        switch self {
        case .invalidFriendCode(let problem): problem.message
        case .invalidEmail(let problem): problem.message
        case .invalidName(let problem): problem.message
        case .yourself: "That is you: add someone else."
        case .alreadyFriends(let name): "\(name.value) is already your friend."
        case .unknownFriendCode(let code): "No account has the friend code \(code)."
        case .unknownEmail(let email): "No account has the email \(email)."
        case .emailHasAccount(let email): "\(email) has an account: add them by email instead."
        case .contactEmailTaken(let email): "One of your contacts already has the email \(email)."
        case .contactNameTaken(let name): "You already have a contact named \(name.value)."
        case .notAFriend: "That person is not one of your friends."
        case .notAContact: "That person is not one of your contacts."
        case .notAnAccount: "No account has that id."
        case .noRequest: "No friend request waits between you and that person."
        case .notTakingRequests(let name): "\(name.value) is not taking friend requests from you."
        case .blockedByYou(let name): "You blocked \(name.value): unblock them in Friend requests first."
        case .notSettled(let name, let balances):
            "Settle up with \(name.value) first: " + balances.map { Self.describe($0, name: name) }.joined(separator: ", ") + "."
        case .cannotLink(let reason): reason
        case .tooManyFriends(nil, let limit): "You have \(limit) friends and requests waiting, the most one may have: remove one first."
        case .tooManyFriends(let name?, let limit): "\(name.value) has \(limit) friends, the most one may have."
        case .tooManyContacts(let limit): "You have \(limit) contacts, the most one may have: remove or link one first."
        case .idTaken(let id): "The id \(id) is already in use; nothing was saved."
        case .refused(let rule): "The store refused the change (\(rule)); nothing was saved."
        case .storeUnavailable(let reason): "The local store is unavailable: \(reason)"
        case .signedOut: ServerMessages.signedOut
        case .serverUnreachable(let reason): ServerMessages.unreachable(reason)
        }
    }

    /// A balance from the user's side: positive when the friend owes them.
    public static func describe(_ balance: Money, name: DisplayName) -> String {
        if balance.minorUnits > 0 { return "\(name.value) owes you \(balance)" }
        if balance.minorUnits < 0, let owed = try? balance.negated() { return "you owe \(name.value) \(owed)" }
        return "settled up"
    }
}

/// How many friends and contacts one user may have: a list past these is no list to read, and
/// each is a row to scan.
public struct FriendLimits: Sendable, Equatable {
    public var friends: Int
    public var contacts: Int

    public init(friends: Int = 5_000, contacts: Int = 5_000) {
        self.friends = friends
        self.contacts = contacts
    }
}

extension FriendsService {
    /// Adds a contact under a new id (``addContact(name:email:as:by:)``).
    public func addContact(name: String, email: String?, by user: UserID) async throws(FriendsError) -> Friend {
        try await addContact(name: name, email: email, as: nil, by: user)
    }

    /// Asks the account `query` names to be the user's friend and accepts for them: two people
    /// made friends at once, by a tool that acts for both (the CLI's test fixtures, a
    /// benchmark's household, an embedding program setting up its own store). An app acting
    /// for one user never calls it, and a server's services, which act only as the signed-in
    /// user, cannot accept for the other.
    @discardableResult
    public func befriend(_ query: AccountQuery, by user: UserID) async throws(FriendsError) -> Friend {
        switch try await add(query, by: user) {
        case .friends(let friend):
            return friend
        case .requested(let person):
            _ = try await accept(user, by: person.id)
            guard let friend = try await friend(person.id, of: user) else { throw .notAFriend }
            return friend
        }
    }
}

/// A replica's friends, contacts and requests, as pulled from a server (docs/sync.md): written
/// into the same store the way the service's own writes leave it, so that every read answers on
/// the replica as on the server. The accounts they name are put by the accounts' replica first.
public protocol FriendsReplica: Sendable {
    /// Puts one of `user`'s friends (the friendship) or contacts, in place of what is kept.
    func put(_ friend: Friend, of user: UserID) async throws(FriendsError)
    /// Forgets a friend or contact of `user`'s: the friendship ended, or the contact was removed
    /// or linked.
    func removeFriend(_ id: UserID, of user: UserID) async throws(FriendsError)
    /// Puts `user`'s requests both ways and the people they blocked, in place of those kept.
    func put(_ requests: FriendRequests, of user: UserID) async throws(FriendsError)
}
