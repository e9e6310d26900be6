import FlowsAPI
import FlowsWire
import Friends
import Primitives
import PrimitivesRemote

/// The Friends operations of the contract, each declared once: flows-server serves them and
/// ``RemoteFriendsService`` calls them.
///
/// Those of the service's operations tagged `/// - Contract:` are declared from the contract in
/// `FriendsAPI+Contract.swift`, which `Scripts/generate-services` writes; the rest are here.
public enum FriendsAPI {
    public typealias Call<Input: Sendable, Output: Sendable> = Endpoint<Input, Output, FriendsError>

    public static let addFriend = Call<AccountQuery, FriendAddition>(
        "addFriend", .post, "/friends", status: .created, request: .body(Wire.query), response: .json(Wire.addition), problems: problems
    )
    public static let findFriend = Call<AccountQuery, PublicProfile>(
        "findFriend", .post, "/friend-lookup", request: .body(Wire.query), response: .json(Wire.profile), problems: problems
    )
    public static let getFriend = Call<UserID, Friend>(
        "getFriend", .get, "/friends/{friendId}", request: .path("friendId", Wire.userID), response: .json(Wire.friend), problems: problems
    )
    public static let addContact = Call<((name: String, email: String?), UserID?), Friend>(
        "addContact", .post, "/contacts", status: .created, request: RequestCoding.body(Wire.contactDraft).query(optional: "id", Wire.userID),
        response: .json(Wire.friend), problems: problems
    )
    public static let linkContact = Call<(UserID, AccountQuery), FriendAddition>(
        "linkContact", .post, "/contacts/{contactId}/link", request: .path("contactId", Wire.userID, body: Wire.query), response: .json(Wire.addition),
        problems: problems
    )
    public static let previewContactLink = Call<(UserID, AccountQuery), PublicProfile>(
        "previewContactLink", .post, "/contacts/{contactId}/link-target", request: .path("contactId", Wire.userID, body: Wire.query),
        response: .json(Wire.profile), problems: problems
    )
    public static let listFriendsAmong = Call<Set<UserID>, Set<UserID>>(
        "listFriendsAmong", .post, "/people/friends", request: .body(Wire.userIDs), response: .json(Wire.userIDSet), problems: problems
    )
    public static let listNames = Call<Set<UserID>, [UserID: DisplayName]>(
        "listNames", .post, "/people/names", request: .body(Wire.userIDs), response: .json(Wire.names), problems: problems
    )

    /// Friends' errors as the contract's refusals, and back.
    public static let problems = ProblemTable<FriendsError>(
        problem: { error in
            switch error {
            case .invalidFriendCode(let problem): APIProblem(problem)
            case .invalidEmail(let problem): APIProblem(problem, field: "/email")
            case .invalidName(let problem): APIProblem(problem, field: "/name")
            case .yourself: APIProblem(.unprocessableContent, .yourself, error.message)
            case .alreadyFriends(let name): APIProblem(.conflict, .alreadyFriends, error.message, details: .init(name: name.value))
            case .unknownFriendCode(let code): APIProblem(.notFound, .unknownFriendCode, error.message, details: .init(friendCode: code.rawValue))
            case .unknownEmail(let email): APIProblem(.notFound, .unknownEmail, error.message, details: .init(email: email))
            case .emailHasAccount(let email): APIProblem(.conflict, .emailHasAccount, error.message, details: .init(email: email))
            case .contactEmailTaken(let email): APIProblem(.conflict, .contactEmailTaken, error.message, details: .init(email: email))
            case .contactNameTaken(let name): APIProblem(.conflict, .contactNameTaken, error.message, details: .init(name: name.value))
            case .notAFriend: APIProblem(.notFound, .notAFriend, error.message)
            case .notAContact: APIProblem(.notFound, .notAContact, error.message)
            case .notAnAccount: APIProblem(.notFound, .notAnAccount, error.message)
            case .noRequest: APIProblem(.notFound, .noRequest, error.message)
            case .notTakingRequests(let name): APIProblem(.conflict, .notTakingRequests, error.message, details: .init(name: name.value))
            case .blockedByYou(let name): APIProblem(.conflict, .blockedByYou, error.message, details: .init(name: name.value))
            case .notSettled(let name, let balances):
                APIProblem(.conflict, .notSettled, error.message, details: .init(name: name.value, balances: balances.map(Wire.money.write)))
            case .cannotLink(let reason): APIProblem(.conflict, .cannotLink, error.message, details: .init(reason: reason))
            case .tooManyFriends(let name, let limit):
                APIProblem(.conflict, .tooManyFriends, error.message, details: .init(name: name?.value, limit: Int64(limit)))
            case .tooManyContacts(let limit): APIProblem(.conflict, .tooManyContacts, error.message, details: .init(limit: Int64(limit)))
            case .idTaken(let id): APIProblem(.conflict, .idTaken, error.message, details: .init(people: [id.rawValue]))
            case .refused(let rule): .refused(rule)
            case .storeUnavailable(let reason), .serverUnreachable(let reason): .storeUnavailable(reason)
            case .signedOut: .unauthenticated(error.message, tokenSent: true)
            }
        },
        failure: { failure in
            if let problem = failure.problem(EmailAddress.Problem.self) { return .invalidEmail(problem) }
            if let problem = failure.problem(DisplayName.Problem.self) { return .invalidName(problem) }
            if let problem = failure.friendCodeProblem { return .invalidFriendCode(problem) }
            let details = failure.details
            switch failure.code {
            case .yourself?: return .yourself
            case .alreadyFriends?: if let name = failure.detailsName { return .alreadyFriends(name) }
            case .unknownFriendCode?: if let code = details?.friendCode.flatMap({ try? FriendCode($0) }) { return .unknownFriendCode(code) }
            case .unknownEmail?: if let email = details?.email { return .unknownEmail(email) }
            case .emailHasAccount?: if let email = details?.email { return .emailHasAccount(email) }
            case .contactEmailTaken?: if let email = details?.email { return .contactEmailTaken(email) }
            case .contactNameTaken?: if let name = failure.detailsName { return .contactNameTaken(name) }
            case .notAFriend?: return .notAFriend
            case .notAContact?: return .notAContact
            case .notAnAccount?: return .notAnAccount
            case .noRequest?: return .noRequest
            case .notTakingRequests?: if let name = failure.detailsName { return .notTakingRequests(name) }
            case .blockedByYou?: if let name = failure.detailsName { return .blockedByYou(name) }
            case .notSettled?: if let name = failure.detailsName { return .notSettled(name, RemoteFailure.money(details?.balances)) }
            case .cannotLink?: return .cannotLink(details?.reason ?? failure.message)
            case .tooManyFriends?: if let limit = details?.limit.flatMap(Int.init(exactly:)) { return .tooManyFriends(failure.detailsName, limit: limit) }
            case .tooManyContacts?: if let limit = details?.limit.flatMap(Int.init(exactly:)) { return .tooManyContacts(limit: limit) }
            case .idTaken?: if let id = details?.people?.first { return .idTaken(UserID(rawValue: id)) }
            case .refused?: return .refused(details?.reason ?? failure.message)
            case .storeUnavailable?: return .storeUnavailable(failure.message)
            case _ where failure.isSignedOut: return .signedOut
            default: break
            }
            return .serverUnreachable(failure.description)
        }
    )
}

// MARK: - Friends' values in the contract's form

extension Wire {
    public static var friend: WireValue<Friend, Components.Schemas.Friend> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                switch wire {
                case .account(let account):
                    Friend(
                        id: UserID(rawValue: account.id), name: try Wire.displayName.read(account.name, "\(field)/name"),
                        kind: .account(email: try Wire.email.read(account.email, "\(field)/email"), friendCode: try Wire.friendCode.read(account.friendCode, "\(field)/friendCode"))
                    )
                case .contact(let contact):
                    Friend(
                        id: UserID(rawValue: contact.id), name: try Wire.displayName.read(contact.name, "\(field)/name"),
                        kind: .contact(email: try contact.email.map { email throws(APIProblem) in try Wire.email.read(email, "\(field)/email") })
                    )
                }
            },
            write: { friend in
                switch friend.kind {
                case .account(let email, let code):
                    .account(.init(kind: .account, id: friend.id.rawValue, name: friend.name.value, email: email.value, friendCode: code.rawValue))
                case .contact(let email):
                    .contact(.init(kind: .contact, id: friend.id.rawValue, name: friend.name.value, email: email?.value))
                }
            }
        )
    }
}

extension Wire {
    static var addition: WireValue<FriendAddition, Components.Schemas.FriendAddition> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                switch (wire.status, wire.friend) {
                case (.requested, _): .requested(try Wire.profile.read(wire.person, "\(field)/person"))
                case (.friends, let friend?): .friends(try Wire.friend.read(friend, "\(field)/friend"))
                case (.friends, nil): throw .invalidRequest("`friends` comes with its friend.", field: "\(field)/friend")
                }
            },
            write: { addition in
                switch addition {
                case .requested(let profile): .init(status: .requested, person: Wire.profile.write(profile))
                case .friends(let friend):
                    .init(status: .friends, person: .init(id: friend.id.rawValue, name: friend.name.value), friend: Wire.friend.write(friend))
                }
            }
        )
    }

    public static var friendRequests: WireValue<FriendRequests, Components.Schemas.FriendRequests> {
        let request = WireValue<FriendRequest, Components.Schemas.FriendRequest>(
            read: { wire, field throws(APIProblem) in
                var link: FriendRequest.Link?
                if let name = wire.contactName {
                    let contact = try Wire.displayName.read(name, "\(field)/contactName")
                    link = wire.claimedEmail.map { .recipientsContact(contact, email: $0) } ?? .sendersContact(contact)
                }
                return FriendRequest(person: try Wire.profile.read(wire.person, "\(field)/person"), sentAt: wire.sentAt, link: link)
            },
            write: { request in
                let (name, email): (String?, String?) = switch request.link {
                case .sendersContact(let name): (name.value, nil)
                case .recipientsContact(let name, let email): (name.value, email)
                case nil: (nil, nil)
                }
                return .init(person: Wire.profile.write(request.person), sentAt: request.sentAt, contactName: name, claimedEmail: email)
            }
        )
        return WireValue(
            read: { wire, field throws(APIProblem) in
                FriendRequests(
                    incoming: try request.list().read(wire.incoming, "\(field)/incoming"),
                    outgoing: try request.list().read(wire.outgoing, "\(field)/outgoing"),
                    blocked: try Wire.profile.list().read(wire.blocked, "\(field)/blocked")
                )
            },
            write: { .init(incoming: $0.incoming.map(request.write), outgoing: $0.outgoing.map(request.write), blocked: $0.blocked.map(Wire.profile.write)) }
        )
    }
}

extension Wire {
    static var query: WireValue<AccountQuery, Components.Schemas.AccountQuery> {
        WireValue(
            read: { query, _ throws(APIProblem) in
                switch query {
                case .friendCode(let code): .friendCode(try Wire.text(atMost: WireText.Limit.friendCode).read(code.friendCode, "/friendCode"))
                case .email(let email): .email(try Wire.text(atMost: WireText.Limit.email).read(email.email, "/email"))
                }
            },
            write: { query in
                switch query {
                case .friendCode(let text): .friendCode(.init(by: .friendCode, friendCode: text))
                case .email(let text): .email(.init(by: .email, email: text))
                }
            }
        )
    }
}

extension Wire {
    static var contactDraft: WireValue<(name: String, email: String?), Components.Schemas.AddContactRequest> {
        WireValue(
            read: { draft, _ throws(APIProblem) in
                (
                    name: try Wire.text(atMost: WireText.Limit.displayName).read(draft.name, "/name"),
                    email: try draft.email.map { email throws(APIProblem) in try Wire.text(atMost: WireText.Limit.email).read(email, "/email") }
                )
            },
            write: { .init(name: $0.name, email: $0.email) }
        )
    }
}

extension Wire {
    /// A set of ids, answered in order.
    static var userIDSet: WireValue<Set<UserID>, Components.Schemas.UserIDList> {
        WireValue(read: { list, _ in Set(list.ids.map(UserID.init(rawValue:))) }, write: { .init(ids: $0.map(\.rawValue).sorted()) })
    }
}

extension Wire {
    static var names: WireValue<[UserID: DisplayName], Components.Schemas.NameList> {
        WireValue(
            read: { list, field throws(APIProblem) in
                var names: [UserID: DisplayName] = [:]
                for (index, entry) in list.names.enumerated() {
                    names[UserID(rawValue: entry.id)] = try Wire.displayName.read(entry.name, "\(field)/names/\(index)/name")
                }
                return names
            },
            write: { names in .init(names: names.map { .init(id: $0.key.rawValue, name: $0.value.value) }.sorted { $0.id < $1.id }) }
        )
    }
}
