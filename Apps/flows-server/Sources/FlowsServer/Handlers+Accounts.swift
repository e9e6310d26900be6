import Accounts
import AccountsData
import FlowsAPI
import FlowsWire
import Primitives
import PrimitivesRemote

extension Handlers {
    // MARK: - Sessions

    func signUp(_ input: Operations.SignUp.Input) async throws -> Operations.SignUp.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let email = try Read.text(body.email, atMost: Read.Limit.email, field: "/email")
        let name = try Read.text(body.displayName, atMost: Read.Limit.displayName, field: "/displayName")
        let password = try Read.text(body.password, atMost: Read.Limit.password, field: "/password")
        let address = RequestScope.origin?.limitKey ?? "unknown"
        // Counted before the account is made; a sign-up that makes none takes its count back.
        let claim = try await limits.signUps.claim(address, refusing: "Too many new accounts from this address")
        let tokens = InMemorySessionTokenStore()
        let user: User
        do {
            user = try await accounts { () async throws(AccountsError) in
                try await services.sessions(tokens).signUp(email: email, displayName: name, password: password)
            }
        } catch {
            await limits.signUps.release(claim)
            throw error
        }
        RequestScope.record?.user = user.id
        return .created(.init(body: .json(try session(of: user, in: tokens))))
    }

    func signIn(_ input: Operations.SignIn.Input) async throws -> Operations.SignIn.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let email = try Read.text(body.email, atMost: Read.Limit.email, field: "/email")
        let password = try Read.text(body.password, atMost: Read.Limit.password, field: "/password")
        let address = "address " + (RequestScope.origin?.limitKey ?? "unknown")
        let account = "account " + EmailAddress.key(for: email)
        // Counted as failures before the password is checked, so that attempts sent at once
        // cannot all pass the limits; a password that checks out takes them back.
        let refusal = "Too many attempts to sign in"
        let addressClaim = try await limits.addresses.claim(address, refusing: refusal)
        let accountClaim: AttemptClaim
        do {
            accountClaim = try await limits.accounts.claim(account, refusing: refusal)
        } catch {
            await limits.addresses.release(addressClaim)
            throw error
        }
        let tokens = InMemorySessionTokenStore()
        let user: User
        do {
            user = try await accounts { () async throws(AccountsError) in
                try await services.sessions(tokens).signIn(email: email, password: password)
            }
        } catch {
            if error.problem.error != .wrongEmailOrPassword {
                await limits.addresses.release(addressClaim)
                await limits.accounts.release(accountClaim)
            }
            throw error
        }
        await limits.addresses.release(addressClaim)
        await limits.accounts.reset(account)
        RequestScope.record?.user = user.id
        return .ok(.init(body: .json(try session(of: user, in: tokens))))
    }

    private func session(of user: User, in tokens: InMemorySessionTokenStore) throws(APIProblem) -> Components.Schemas.Session {
        // The service kept the new session's token in `tokens` in the same transaction.
        guard let token = try? tokens.load() else { throw APIProblem.internalError.logging("a new session has no token") }
        return .init(token: token, user: .init(user), idleDays: Int32(SessionPolicy.idleDays))
    }

    func getCurrentSession(_ input: Operations.GetCurrentSession.Input) async throws -> Operations.GetCurrentSession.Output {
        .ok(.init(body: .json(.init(user: .init(try session.user), idleDays: Int32(SessionPolicy.idleDays)))))
    }

    func signOut(_ input: Operations.SignOut.Input) async throws -> Operations.SignOut.Output {
        let session = try session
        try await accounts { () async throws(AccountsError) in try await session.accounts.signOut() }
        return .noContent(.init())
    }

    // MARK: - The user's own account

    func getCurrentUser(_ input: Operations.GetCurrentUser.Input) async throws -> Operations.GetCurrentUser.Output {
        .ok(.init(body: .json(.init(try session.user))))
    }

    func changeDisplayName(_ input: Operations.ChangeDisplayName.Input) async throws -> Operations.ChangeDisplayName.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let name = try Read.text(body.displayName, atMost: Read.Limit.displayName, field: "/displayName")
        let changed = try await accounts { () async throws(AccountsError) in
            try await services.accounts.changeDisplayName(to: name, of: user)
        }
        return .ok(.init(body: .json(.init(changed))))
    }

    func changeEmail(_ input: Operations.ChangeEmail.Input) async throws -> Operations.ChangeEmail.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let email = try Read.text(body.email, atMost: Read.Limit.email, field: "/email")
        let password = try Read.text(body.password, atMost: Read.Limit.password, field: "/password")
        let changed = try await checkingPassword(of: user) { () async throws(AccountsError) in
            try await services.accounts.changeEmail(to: email, password: password, of: user)
        }
        return .ok(.init(body: .json(.init(changed))))
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let session = try session
        let current = try Read.text(body.currentPassword, atMost: Read.Limit.password, field: "/currentPassword")
        let new = try Read.text(body.newPassword, atMost: Read.Limit.password, field: "/newPassword")
        // The request's own accounts service: it keeps this session and ends every other.
        try await checkingPassword(of: session.user.id) { () async throws(AccountsError) in
            try await session.accounts.changePassword(from: current, to: new, of: session.user.id)
        }
        return .noContent(.init())
    }

    /// Runs a change that checks the current password: a session may not guess it more often
    /// than sign-in may.
    private func checkingPassword<T>(of user: UserID, _ work: () async throws(AccountsError) -> T) async throws(APIProblem) -> T {
        let account = "user " + user.rawValue
        let claim = try await limits.accounts.claim(account, refusing: "Too many wrong passwords")
        do {
            let result = try await accounts(work)
            await limits.accounts.reset(account)
            return result
        } catch {
            if error.problem.error != .wrongPassword { await limits.accounts.release(claim) }
            throw error
        }
    }

    func getMyAvatar(_ input: Operations.GetMyAvatar.Input) async throws -> Operations.GetMyAvatar.Output {
        let user = try user
        let avatar = try await accounts { () async throws(AccountsError) in try await services.accounts.avatar(of: user) }
        return .ok(.init(body: .json(.init(avatar))))
    }

    func changeAvatar(_ input: Operations.ChangeAvatar.Input) async throws -> Operations.ChangeAvatar.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let avatar = try Read.avatar(body)
        try await accounts { () async throws(AccountsError) in try await services.accounts.changeAvatar(to: avatar, of: user) }
        return .noContent(.init())
    }

    // MARK: - Other accounts

    func listUsers(_ input: Operations.ListUsers.Input) async throws -> Operations.ListUsers.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let ids = try Wire.userIDs.read(body, "")
        // The user's own account and their friends' (see `AccountVisibility`).
        let users = ids.isEmpty ? [] : try await accounts { () async throws(AccountsError) in try await services.accounts.users(ids, for: user) }
        return .ok(.init(body: .json(.init(users: users.map(Components.Schemas.User.init)))))
    }

    func listExistingUsers(_ input: Operations.ListExistingUsers.Input) async throws -> Operations.ListExistingUsers.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        _ = try user
        let ids = try Wire.userIDs.read(body, "")
        let existing = try await accounts { () async throws(AccountsError) in try await services.accounts.existing(among: ids) }
        return .ok(.init(body: .json(.init(ids: existing.map(\.rawValue).sorted()))))
    }

    func findUserByFriendCode(_ input: Operations.FindUserByFriendCode.Input) async throws -> Operations.FindUserByFriendCode.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let code: FriendCode
        let typed = try Read.text(body.friendCode, atMost: Read.Limit.friendCode, field: "/friendCode")
        do throws(FriendCodeProblem) { code = try FriendCode(typed) } catch { throw APIProblem(error) }
        let found = try await accounts { () async throws(AccountsError) in try await services.accounts.user(withFriendCode: code, for: user) }
        guard let found else { throw APIProblem(.notFound, .userNotFound, "No account has the friend code \(code).") }
        return .ok(.init(body: .json(.init(found))))
    }

    func findUserByEmail(_ input: Operations.FindUserByEmail.Input) async throws -> Operations.FindUserByEmail.Output {
        guard case .json(let body) = input.body else { throw APIProblem.invalidRequest("The body is JSON.") }
        let user = try user
        let email = try Read.text(body.email, atMost: Read.Limit.email, field: "/email")
        let found = try await accounts { () async throws(AccountsError) in try await services.accounts.user(withEmail: email, for: user) }
        guard let found else { throw APIProblem(.notFound, .userNotFound, "No account has this email.") }
        return .ok(.init(body: .json(.init(found))))
    }

    func getUserAvatar(_ input: Operations.GetUserAvatar.Input) async throws -> Operations.GetUserAvatar.Output {
        let user = try user
        let person = try Read.userID(input.path.userId, field: "userId")
        let avatar = try await accounts { () async throws(AccountsError) in try await services.accounts.avatar(of: person, for: user) }
        return .ok(.init(body: .json(.init(avatar))))
    }
}
