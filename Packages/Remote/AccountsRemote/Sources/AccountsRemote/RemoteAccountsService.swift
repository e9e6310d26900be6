import Accounts
import AccountsData
import FlowsAPIClient
import FlowsWire
import Primitives
import PrimitivesRemote

/// The accounts service of a flows-server, over HTTP: each operation is its ``AccountsAPI``
/// endpoint.
///
/// The session's token is kept in `tokens` (the CLI: a private file per server), sent with
/// every request by the connection. The server acts only as the user whose token it was sent:
/// the `user` of each call is the session's.
///
/// The operations sent as they stand are in `RemoteAccountsService+Contract.swift`, which
/// Scripts/generate-services writes from the `- Contract:` tags of ``AccountsService``; here are the rest.
public struct RemoteAccountsService: AccountsService {
    let connection: APIConnection
    private let tokens: any SessionTokenStore

    /// - Parameter connection: must read its token from `tokens`.
    public init(connection: APIConnection, tokens: any SessionTokenStore) {
        self.connection = connection
        self.tokens = tokens
    }

    // MARK: - Sessions

    public func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User {
        try keep(try await connection.send(AccountsAPI.signUp, (email, displayName, password)))
    }

    public func signIn(email: String, password: String) async throws(AccountsError) -> User {
        try keep(try await connection.send(AccountsAPI.signIn, (email, password)))
    }

    /// Keeps a new session's token, ending the previous one this app kept, if any.
    private func keep(_ session: AccountsAPI.NewSession) throws(AccountsError) -> User {
        do { try tokens.save(session.token) } catch { throw .storeUnavailable("the session could not be kept: \(error)") }
        return session.user
    }

    public func signOut() async throws(AccountsError) {
        let token: String?
        do { token = try tokens.load() } catch { throw .storeUnavailable("the session file cannot be read: \(error)") }
        guard token != nil else { return }
        var failure: AccountsError?
        do {
            try await connection.send(AccountsAPI.signOut)
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
        do {
            return .signedIn(try await connection.call(AccountsAPI.getCurrentSession, ()))
        } catch {
            guard error.isSignedOut else { throw AccountsAPI.problems.failure(error) }
            try? tokens.clear()
            return error.code == .sessionExpired ? .expired : .signedOut
        }
    }

    // MARK: - Other accounts

    public func existing(among people: Set<UserID>) async throws(AccountsError) -> Set<UserID> {
        var found = Set<UserID>()
        for ids in APIConnection.batches(people, of: WireText.maximumIDs) { found.formUnion(try await connection.send(AccountsAPI.listExistingUsers, ids)) }
        return found
    }

    public func users(_ people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [User] {
        var users: [User] = []
        for ids in APIConnection.batches(people, of: WireText.maximumIDs) { users += try await connection.send(AccountsAPI.listUsers, ids) }
        return users
    }

    public func profile(withFriendCode code: FriendCode, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        try await connection.send(AccountsAPI.findUserByFriendCode, code, nilFor: .userNotFound)
    }

    public func profile(withEmail email: String, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        try await connection.send(AccountsAPI.findUserByEmail, email, nilFor: .userNotFound)
    }

    // MARK: - Sessions

    public func sessions(of user: UserID) async throws(AccountsError) -> [SessionSummary] {
        try await connection.send(AccountsAPI.listSessions)
    }

    public func endSession(_ id: SessionSummary.ID, of user: UserID) async throws(AccountsError) {
        // Ending this session is signing out, which also forgets the token here.
        if try await sessions(of: user).contains(where: { $0.id == id && $0.isCurrent }) { return try await signOut() }
        try await connection.send(AccountsAPI.endSession, id)
    }

    public func endOtherSessions(of user: UserID) async throws(AccountsError) -> Int {
        try await connection.send(AccountsAPI.endOtherSessions)
    }

    // MARK: - Account settings

    public func changeEmail(to email: String, password: String, of user: UserID) async throws(AccountsError) -> User {
        try await connection.send(AccountsAPI.changeEmail, (email, password))
    }

    public func changePassword(from current: String, to new: String, of user: UserID) async throws(AccountsError) {
        try await connection.send(AccountsAPI.changePassword, (current, new))
    }
}
