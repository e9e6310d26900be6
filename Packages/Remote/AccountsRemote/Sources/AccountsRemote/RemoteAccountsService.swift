import Accounts
import AccountsData
import FlowsAPI
import FlowsAPIClient
import FlowsWire
import Foundation
import OpenAPIRuntime
import Primitives

/// The accounts service of a flows-server, over HTTP.
///
/// The session's token is kept in `tokens` (the CLI: a private file per server), sent with
/// every request by the connection. The server acts only as the user whose token it was sent:
/// the `user` of each call is the session's.
public struct RemoteAccountsService: AccountsService {
    private let connection: APIConnection
    private let tokens: any SessionTokenStore

    /// - Parameter connection: must read its token from `tokens`.
    public init(connection: APIConnection, tokens: any SessionTokenStore) {
        self.connection = connection
        self.tokens = tokens
    }

    // MARK: - Sessions

    public func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User {
        let body = Components.Schemas.SignUpRequest(email: email, displayName: displayName, password: password)
        let session = try await call { try await $0.signUp(body: .json(body)).created.body.json }
        return try keep(session)
    }

    public func signIn(email: String, password: String) async throws(AccountsError) -> User {
        let body = Components.Schemas.SignInRequest(email: email, password: password)
        let session = try await call { try await $0.signIn(body: .json(body)).ok.body.json }
        return try keep(session)
    }

    /// Keeps a new session's token, ending the previous one this app kept, if any.
    private func keep(_ session: Components.Schemas.Session) throws(AccountsError) -> User {
        let user = try Self.user(session.user, from: connection)
        do { try tokens.save(session.token) } catch { throw .storeUnavailable("the session could not be kept: \(error)") }
        return user
    }

    public func signOut() async throws(AccountsError) {
        let token: String?
        do { token = try tokens.load() } catch { throw .storeUnavailable("the session file cannot be read: \(error)") }
        guard token != nil else { return }
        var failure: AccountsError?
        do {
            _ = try await call { try await $0.signOut().noContent }
        } catch .signedOut {
            // Ended already, on the server: nothing more to end there.
        } catch {
            failure = error
        }
        // Forgotten here whatever the server said: signing out never leaves the user signed in.
        do { try tokens.clear() } catch { throw .storeUnavailable("the session file cannot be removed: \(error)") }
        if let failure { throw failure }
    }

    public func storedSession() async throws(AccountsError) -> StoredSession {
        let token: String?
        do { token = try tokens.load() } catch { throw .storeUnavailable("the session file cannot be read: \(error)") }
        guard token != nil else { return .signedOut }
        let current: Components.Schemas.CurrentSession
        do {
            current = try await connection.call { try await $0.getCurrentSession().ok.body.json }
        } catch {
            guard error.isSignedOut else { throw Self.error(error) }
            try? tokens.clear()
            return error.code == .sessionExpired ? .expired : .signedOut
        }
        return .signedIn(try Self.user(current.user, from: connection))
    }

    // MARK: - Other accounts

    public func existing(among people: Set<UserID>) async throws(AccountsError) -> Set<UserID> {
        var found = Set<UserID>()
        for ids in APIConnection.batches(people.map(\.rawValue)) {
            let list = try await call { try await $0.listExistingUsers(body: .json(.init(ids: ids))).ok.body.json }
            found.formUnion(list.ids.map(UserID.init(rawValue:)))
        }
        return found
    }

    public func users(_ people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [User] {
        var users: [User] = []
        for ids in APIConnection.batches(people.map(\.rawValue)) {
            let list = try await call { try await $0.listUsers(body: .json(.init(ids: ids))).ok.body.json }
            for wire in list.users { users.append(try Self.user(wire, from: connection)) }
        }
        return users
    }

    public func user(withFriendCode code: FriendCode, for user: UserID) async throws(AccountsError) -> User? {
        try await lookUp { try await $0.findUserByFriendCode(body: .json(.init(friendCode: code.rawValue))).ok.body.json }
    }

    public func user(withEmail email: String, for user: UserID) async throws(AccountsError) -> User? {
        try await lookUp { try await $0.findUserByEmail(body: .json(.init(email: email))).ok.body.json }
    }

    /// An account, or nil for `404 user-not-found`.
    private func lookUp(_ work: (Client) async throws -> Components.Schemas.User) async throws(AccountsError) -> User? {
        do {
            return try Self.user(try await connection.call(work), from: connection)
        } catch let failure as RemoteFailure {
            if failure.code == .userNotFound { return nil }
            throw Self.error(failure)
        } catch let error as AccountsError {
            throw error
        } catch {
            throw .serverUnreachable("\(error)")
        }
    }

    public func avatar(of person: UserID, for user: UserID) async throws(AccountsError) -> Avatar {
        try Self.avatar(try await call { try await $0.getUserAvatar(path: .init(userId: person.rawValue)).ok.body.json }, from: connection)
    }

    // MARK: - Account settings

    public func changeDisplayName(to name: String, of user: UserID) async throws(AccountsError) -> User {
        let wire = try await call { try await $0.changeDisplayName(body: .json(.init(displayName: name))).ok.body.json }
        return try Self.user(wire, from: connection)
    }

    public func changeEmail(to email: String, password: String, of user: UserID) async throws(AccountsError) -> User {
        let wire = try await call { try await $0.changeEmail(body: .json(.init(email: email, password: password))).ok.body.json }
        return try Self.user(wire, from: connection)
    }

    public func changePassword(from current: String, to new: String, of user: UserID) async throws(AccountsError) {
        _ = try await call { try await $0.changePassword(body: .json(.init(currentPassword: current, newPassword: new))).noContent }
    }

    public func avatar(of user: UserID) async throws(AccountsError) -> Avatar {
        try Self.avatar(try await call { try await $0.getMyAvatar().ok.body.json }, from: connection)
    }

    public func changeAvatar(to avatar: Avatar, of user: UserID) async throws(AccountsError) {
        let change: Components.Schemas.AvatarChange = switch avatar {
        case .none: .none(.init(kind: .none))
        case .initials(let colour): .initials(.init(kind: .initials, colour: Components.Schemas.AvatarColour(rawValue: colour.rawValue) ?? .blue))
        case .image(let image): .image(.init(kind: .image, data: Base64EncodedData(image.bytes)))
        }
        _ = try await call { try await $0.changeAvatar(body: .json(change)).noContent }
    }

    // MARK: - Reading answers

    private func call<T>(_ work: (Client) async throws -> T) async throws(AccountsError) -> T {
        do { return try await connection.call(work) } catch { throw Self.error(error) }
    }

    static func user(_ wire: Components.Schemas.User, from connection: APIConnection) throws(AccountsError) -> User {
        do {
            return User(
                id: UserID(rawValue: wire.id), email: try EmailAddress(wire.email), displayName: try DisplayName(wire.displayName),
                friendCode: try FriendCode(wire.friendCode)
            )
        } catch {
            throw .serverUnreachable("\(connection.server.absoluteString) answered an account this app cannot read")
        }
    }

    static func avatar(_ wire: Components.Schemas.Avatar, from connection: APIConnection) throws(AccountsError) -> Avatar {
        switch wire {
        case .none: return .none
        case .initials(let initials): return .initials(AvatarColour(rawValue: initials.colour.rawValue) ?? .standIn(for: UserID(rawValue: "")))
        case .image(let image):
            do throws(AvatarProblem) {
                return .image(try AvatarImage(bytes: Array(image.data.data)))
            } catch {
                throw .serverUnreachable("\(connection.server.absoluteString) answered a picture this app cannot read: \(error.message)")
            }
        }
    }

    /// The domain's error for a failed call: the Problem's code names the case.
    static func error(_ failure: RemoteFailure) -> AccountsError {
        if let problem = failure.problem(EmailAddress.Problem.self, prefix: "invalid-email-") { return .invalidEmail(problem) }
        if let problem = failure.problem(DisplayName.Problem.self, prefix: "invalid-display-name-") { return .invalidDisplayName(problem) }
        if let problem = failure.problem(PasswordRules.Problem.self, prefix: "invalid-password-") { return .invalidPassword(problem) }
        switch failure.code {
        case .emailTaken?: return .emailTaken
        case .wrongEmailOrPassword?: return .wrongEmailOrPassword
        case .wrongPassword?: return .wrongPassword
        case .samePassword?: return .samePassword
        case .noSuchAccount?: return .noSuchAccount
        case .unauthenticated?, .sessionExpired?: return .signedOut
        case .rateLimited?:
            if case .refused(_, _, let seconds) = failure { return .tooManyAttempts(seconds: seconds ?? 60) }
            return .tooManyAttempts(seconds: 60)
        case .refused?: return .refused(failure.details?.reason ?? failure.message)
        case .storeUnavailable?: return .storeUnavailable(failure.message)
        default: return .serverUnreachable(failure.description)
        }
    }
}
