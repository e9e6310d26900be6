import Accounts
import AccountsData
import AccountsRemote
import FlowsAPI
import FlowsWire
import Primitives

extension EndpointRoutes {
    /// Accounts' operations (``AccountsAPI``): signing up and in are limited per address and
    /// account; a change that checks the current password, per account.
    func accounts(_ services: ServerServices, limits: RequestLimits) throws {
        let accounts = services.accounts
        try serveOpen(AccountsAPI.signUp) { draft in try await limits.signUp(draft, on: services) }
        try serveOpen(AccountsAPI.signIn) { draft in try await limits.signIn(draft, on: services) }
        try serveSession(AccountsAPI.getCurrentSession) { _, session in session.user }
        try serveSession(AccountsAPI.signOut) { _, session in try await session.accounts.signOut() }
        try serveSession(AccountsAPI.getCurrentUser) { _, session in session.user }
        try serveSession(AccountsAPI.changeEmail) { change, session in
            // The request's own accounts service: it keeps this session and ends every other.
            try await limits.checkingPassword(of: session.user.id) { () async throws(AccountsError) in
                try await session.accounts.changeEmail(to: change.email, password: change.password, of: session.user.id)
            }
        }
        try serveSession(AccountsAPI.changePassword) { change, session in
            // The request's own accounts service: it keeps this session and ends every other.
            try await limits.checkingPassword(of: session.user.id) { () async throws(AccountsError) in
                try await session.accounts.changePassword(from: change.current, to: change.new, of: session.user.id)
            }
        }
        // The request's own accounts service: it knows which session is this one.
        try serveSession(AccountsAPI.listSessions) { _, session in try await session.accounts.sessions(of: session.user.id) }
        try serveSession(AccountsAPI.endSession) { id, session in try await session.accounts.endSession(id, of: session.user.id) }
        try serveSession(AccountsAPI.endOtherSessions) { _, session in try await session.accounts.endOtherSessions(of: session.user.id) }
        // The user's own account and their friends' (see `AccountVisibility`).
        try serve(AccountsAPI.listUsers) { ids, user in ids.isEmpty ? [] : try await accounts.users(ids, for: user) }
        try serve(AccountsAPI.listExistingUsers) { ids, _ in try await accounts.existing(among: ids).sorted { $0.rawValue < $1.rawValue } }
        try serve(AccountsAPI.findUserByFriendCode) { code, user in
            try await limits.lookUp(by: user)
            guard let found = try await accounts.profile(withFriendCode: code, for: user) else {
                throw APIProblem(.notFound, .userNotFound, "No account has the friend code \(code).")
            }
            return found
        }
        try serve(AccountsAPI.findUserByEmail) { email, user in
            try await limits.lookUp(by: user)
            guard let found = try await accounts.profile(withEmail: email, for: user) else { throw APIProblem(.notFound, .userNotFound, "No account has this email.") }
            return found
        }
    }
}

extension RequestLimits {
    /// Signs up, counted against the address before the account is made. A refusal keeps its
    /// count (a taken email says so, and must not be free to ask about, one email after another);
    /// only a store that failed gives it back.
    func signUp(
        _ draft: (email: String, displayName: String, password: String), on services: ServerServices
    ) async throws -> AccountsAPI.NewSession {
        let tokens = InMemorySessionTokenStore()
        let user = try await signUp(draft, from: RequestScope.origin?.limitKey ?? "unknown", with: services.sessions(tokens))
        RequestScope.record?.user = user.id
        return (try Self.token(in: tokens), user)
    }

    /// Signs up with `accounts` (which keeps the new session), counted against `address`.
    func signUp(
        _ draft: (email: String, displayName: String, password: String), from address: String, with accounts: any AccountsService
    ) async throws -> User {
        let claim = try await signUps.claim(address, refusing: "Too many new accounts from this address")
        do {
            return try await accounts.signUp(email: draft.email, displayName: draft.displayName, password: draft.password)
        } catch {
            if case AccountsError.storeUnavailable = error { await signUps.release(claim) }
            throw error
        }
    }

    /// Signs in, counted as a failure before the password is checked, so that attempts sent at
    /// once cannot all pass the limits: against the address, against the account from this
    /// address, and, from an address the account has not signed in from lately, against the
    /// account from every such address together. A password that checks out takes them back
    /// and makes the address known: someone guessing from elsewhere never locks the owner out.
    func signIn(_ draft: (email: String, password: String), on services: ServerServices) async throws -> AccountsAPI.NewSession {
        let tokens = InMemorySessionTokenStore()
        let user = try await signIn(draft, from: RequestScope.origin?.limitKey ?? "unknown", with: services.sessions(tokens))
        RequestScope.record?.user = user.id
        return (try Self.token(in: tokens), user)
    }

    /// Signs in with `accounts` (which keeps the new session), counted against `origin`, the
    /// client's address.
    func signIn(_ draft: (email: String, password: String), from origin: String, with accounts: any AccountsService) async throws -> User {
        let emailKey = EmailAddress.key(for: draft.email)
        let here = "account " + emailKey + " from " + origin
        let refusal = "Too many attempts to sign in"
        var claims: [(any AttemptCounts, AttemptClaim)] = []
        func releaseAll() async { for (counts, claim) in claims { await counts.release(claim) } }
        do {
            claims.append((addresses, try await addresses.claim("address " + origin, refusing: refusal)))
            claims.append((self.accounts, try await self.accounts.claim(here, refusing: refusal)))
            if await !knownAddresses.contains(here) {
                claims.append((newAddresses, try await newAddresses.claim("account " + emailKey, refusing: refusal)))
            }
        } catch {
            await releaseAll()
            throw error
        }
        let user: User
        do {
            user = try await accounts.signIn(email: draft.email, password: draft.password)
        } catch {
            if error != .wrongEmailOrPassword { await releaseAll() }
            throw error
        }
        await releaseAll()
        await self.accounts.reset(here)
        await knownAddresses.reset(here)
        _ = try? await knownAddresses.claim(here)
        return user
    }

    /// Counts one look-up of an account (by friend code or email) against the user and the
    /// address: every one counts, found or not, so a scan of codes or emails soon stops.
    func lookUp(by user: UserID, from origin: String = RequestScope.origin?.limitKey ?? "unknown") async throws(APIProblem) {
        let refusal = "Too many look-ups of accounts"
        let address = try await lookupsByAddress.claim("address " + origin, refusing: refusal)
        do {
            _ = try await lookupsByUser.claim("user " + user.rawValue, refusing: refusal)
        } catch {
            await lookupsByAddress.release(address)
            throw error
        }
    }

    /// The new session's token, which the service kept in `tokens` in the same transaction.
    private static func token(in tokens: InMemorySessionTokenStore) throws(APIProblem) -> String {
        guard let token = try? tokens.load() else { throw APIProblem.internalError.logging("a new session has no token") }
        return token
    }

    /// Runs a change that checks the current password: a session may not guess it more often
    /// than sign-in may.
    func checkingPassword<T>(of user: UserID, _ work: () async throws(AccountsError) -> T) async throws -> T {
        let account = "user " + user.rawValue
        let claim = try await accounts.claim(account, refusing: "Too many wrong passwords")
        do {
            let result = try await work()
            await accounts.reset(account)
            return result
        } catch {
            if error != .wrongPassword { await accounts.release(claim) }
            throw error
        }
    }
}
