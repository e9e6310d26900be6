import FlowsAPI
import FlowsAPIClient
import Friends
import OpenAPIRuntime
import Primitives

/// The friends service of a flows-server, over HTTP, for the signed-in user.
///
/// The server acts only as the user whose token it was sent: the `user` of each call is the
/// session's.
public struct RemoteFriendsService: FriendsService {
    private let connection: APIConnection

    public init(connection: APIConnection) {
        self.connection = connection
    }

    public func friends(of user: UserID) async throws(FriendsError) -> [Friend] {
        let list = try await call { try await $0.listFriends().ok.body.json }
        var friends: [Friend] = []
        for wire in list.friends { friends.append(try friend(wire)) }
        return friends
    }

    public func friend(_ id: UserID, of user: UserID) async throws(FriendsError) -> Friend? {
        do {
            return try friend(try await call { try await $0.getFriend(path: .init(friendId: id.rawValue)).ok.body.json })
        } catch .notAFriend {
            return nil
        }
    }

    public func find(_ query: AccountQuery, for user: UserID) async throws(FriendsError) -> Friend {
        try friend(try await call { try await $0.findFriend(body: .json(Self.query(query))).ok.body.json })
    }

    public func add(_ query: AccountQuery, by user: UserID) async throws(FriendsError) -> Friend {
        try friend(try await call { try await $0.addFriend(body: .json(Self.query(query))).created.body.json })
    }

    public func addContact(name: String, email: String?, by user: UserID) async throws(FriendsError) -> Friend {
        try friend(try await call { try await $0.addContact(body: .json(.init(name: name, email: email))).created.body.json })
    }

    public func remove(_ friend: UserID, by user: UserID) async throws(FriendsError) {
        _ = try await call { try await $0.removeFriend(path: .init(friendId: friend.rawValue)).noContent }
    }

    public func link(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> Friend {
        try friend(try await call {
            try await $0.linkContact(path: .init(contactId: contact.rawValue), body: .json(Self.query(query))).ok.body.json
        })
    }

    public func linkTarget(_ contact: UserID, to query: AccountQuery, by user: UserID) async throws(FriendsError) -> Friend {
        try friend(try await call {
            try await $0.previewContactLink(path: .init(contactId: contact.rawValue), body: .json(Self.query(query))).ok.body.json
        })
    }

    public func claimContacts(for user: UserID) async throws(FriendsError) -> [UserID] {
        try await call { try await $0.claimContacts().ok.body.json }.ids.map(UserID.init(rawValue:))
    }

    public func friends(among people: Set<UserID>, of user: UserID) async throws(FriendsError) -> Set<UserID> {
        var found = Set<UserID>()
        for ids in APIConnection.batches(people.map(\.rawValue)) {
            found.formUnion(try await call { try await $0.listFriendsAmong(body: .json(.init(ids: ids))).ok.body.json }.ids.map(UserID.init(rawValue:)))
        }
        return found
    }

    public func names(of people: Set<UserID>, for user: UserID) async throws(FriendsError) -> [UserID: DisplayName] {
        var names: [UserID: DisplayName] = [:]
        for ids in APIConnection.batches(people.map(\.rawValue)) {
            for entry in try await call({ try await $0.listNames(body: .json(.init(ids: ids))).ok.body.json }).names {
                guard let name = try? DisplayName(entry.name) else { throw unreadable("a name") }
                names[UserID(rawValue: entry.id)] = name
            }
        }
        return names
    }

    // MARK: - Reading answers

    private func call<T>(_ work: (Client) async throws -> T) async throws(FriendsError) -> T {
        do { return try await connection.call(work) } catch { throw Self.error(error) }
    }

    private func unreadable(_ what: String) -> FriendsError {
        .serverUnreachable("\(connection.server.absoluteString) answered \(what) this app cannot read")
    }

    private func friend(_ wire: Components.Schemas.Friend) throws(FriendsError) -> Friend {
        do {
            switch wire {
            case .account(let account):
                return Friend(
                    id: UserID(rawValue: account.id), name: try DisplayName(account.name),
                    kind: .account(email: try EmailAddress(account.email), friendCode: try FriendCode(account.friendCode))
                )
            case .contact(let contact):
                return Friend(
                    id: UserID(rawValue: contact.id), name: try DisplayName(contact.name),
                    kind: .contact(email: try contact.email.map { text throws in try EmailAddress(text) })
                )
            }
        } catch {
            throw unreadable("a friend")
        }
    }

    static func query(_ query: AccountQuery) -> Components.Schemas.AccountQuery {
        switch query {
        case .friendCode(let text): .friendCode(.init(by: .friendCode, friendCode: text))
        case .email(let text): .email(.init(by: .email, email: text))
        }
    }

    /// The domain's error for a failed call: the Problem's code names the case, its details
    /// the values.
    static func error(_ failure: RemoteFailure) -> FriendsError {
        if let problem = failure.problem(EmailAddress.Problem.self, prefix: "invalid-email-") { return .invalidEmail(problem) }
        if let problem = failure.problem(DisplayName.Problem.self, prefix: "invalid-display-name-") { return .invalidName(problem) }
        let details = failure.details
        let name = details?.name.flatMap { try? DisplayName($0) }
        switch failure.code {
        case .invalidFriendCodeLength?: return .invalidFriendCode(.length(Int(details?.length ?? 0)))
        case .invalidFriendCodeCharacter?: return .invalidFriendCode(.character(details?.character?.first ?? "?"))
        case .invalidFriendCodeCheck?: return .invalidFriendCode(.check)
        case .yourself?: return .yourself
        case .alreadyFriends?: if let name { return .alreadyFriends(name) }
        case .unknownFriendCode?:
            if let code = details?.friendCode.flatMap({ try? FriendCode($0) }) { return .unknownFriendCode(code) }
        case .unknownEmail?: if let email = details?.email { return .unknownEmail(email) }
        case .emailHasAccount?: if let email = details?.email { return .emailHasAccount(email) }
        case .contactEmailTaken?: if let email = details?.email { return .contactEmailTaken(email) }
        case .contactNameTaken?: if let name { return .contactNameTaken(name) }
        case .notAFriend?: return .notAFriend
        case .notAContact?: return .notAContact
        case .notSettled?:
            if let name {
                let balances = (details?.balances ?? []).compactMap { wire in
                    Currency(code: wire.currency).map { Money(minorUnits: wire.minorUnits, currency: $0) }
                }
                return .notSettled(name, balances)
            }
        case .cannotLink?: return .cannotLink(details?.reason ?? failure.message)
        case .refused?: return .refused(details?.reason ?? failure.message)
        case .storeUnavailable?: return .storeUnavailable(failure.message)
        case .unauthenticated?, .sessionExpired?, .noSuchAccount?: return .signedOut
        default: break
        }
        return .serverUnreachable(failure.description)
    }
}
