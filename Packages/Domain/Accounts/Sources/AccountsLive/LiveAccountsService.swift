import Accounts
import AccountsData
import Foundation
import Primitives

/// The accounts service of the app, on top of an ``AccountsStore`` and a ``SessionTokenStore``.
public struct LiveAccountsService: AccountsService {
    private let store: any AccountsStore
    private let tokens: any SessionTokenStore
    private let hasher: PasswordHasher
    private let random: any RandomSource
    private let now: @Sendable () -> Date

    public init(
        store: any AccountsStore,
        tokens: any SessionTokenStore,
        hasher: PasswordHasher = PasswordHasher(),
        random: any RandomSource = SystemRandomSource(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.tokens = tokens
        self.hasher = hasher
        self.random = random
        self.now = now
    }

    public func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User {
        let address: EmailAddress
        let name: DisplayName
        do throws(EmailAddress.Problem) { address = try EmailAddress(email) } catch { throw .invalidEmail(error) }
        do throws(DisplayName.Problem) { name = try DisplayName(displayName) } catch { throw .invalidDisplayName(error) }
        do throws(PasswordRules.Problem) { try PasswordRules.check(password) } catch { throw .invalidPassword(error) }

        let user = User(id: .random(using: random), email: address, displayName: name)
        let record = UserRecord(
            id: user.id.rawValue,
            email: address.value,
            emailKey: address.key,
            displayName: name.value,
            passwordHash: await hasher.hash(password),
            createdAt: now().timeIntervalSince1970
        )
        let token = SessionToken.random(using: random)
        let session = SessionRecord(tokenHash: SessionToken.hash(token.text), userID: user.id.rawValue, createdAt: record.createdAt)
        let tokens = tokens
        try await storing {
            try await store.write { db in
                try db.insert(record)
                try db.insert(session)
                // Inside the transaction: if the token cannot be kept, the account is not created.
                try tokens.save(token.text)
            }
        }
        return user
    }

    public func signIn(email: String, password: String) async throws(AccountsError) -> User {
        let key = email.trimmingWhitespace().lowercased()
        let record = try await storing { try await store.read { try $0.user(emailKey: key) } }
        guard let record else {
            // Spend the same time as a real check, so timing does not tell which emails exist.
            await hasher.verifyDecoy(password)
            throw .wrongEmailOrPassword
        }
        guard await hasher.verify(password, against: record.passwordHash) else { throw .wrongEmailOrPassword }

        let token = SessionToken.random(using: random)
        let session = SessionRecord(tokenHash: SessionToken.hash(token.text), userID: record.id, createdAt: now().timeIntervalSince1970)
        let tokens = tokens
        try await storing {
            try await store.write { db in
                try db.insert(session)
                try tokens.save(token.text)
            }
        }
        return try user(from: record)
    }

    public func signOut() async throws(AccountsError) {
        let tokens = tokens
        try await storing {
            guard let token = try tokens.load() else { return }
            let hash = SessionToken.hash(token)
            try await store.write { db in
                try db.deleteSession(tokenHash: hash)
                try tokens.clear()
            }
        }
    }

    public func currentUser() async throws(AccountsError) -> User? {
        let tokens = tokens
        let record = try await storing { () async throws -> UserRecord? in
            guard let token = try tokens.load() else { return nil }
            let hash = SessionToken.hash(token)
            return try await store.read { db in
                guard let session = try db.session(tokenHash: hash) else { return nil }
                return try db.user(id: session.userID)
            }
        }
        return try record.map(user(from:))
    }

    // MARK: - Helpers

    private func user(from record: UserRecord) throws(AccountsError) -> User {
        do {
            return User(id: UserID(rawValue: record.id), email: try EmailAddress(record.email), displayName: try DisplayName(record.displayName))
        } catch {
            throw .storeUnavailable("the stored account \(record.id) is damaged")
        }
    }

    /// Runs store work, turning its failures into ``AccountsError``s.
    private func storing<T>(_ work: () async throws -> T) async throws(AccountsError) -> T {
        do {
            return try await work()
        } catch AccountsDataError.emailTaken {
            throw .emailTaken
        } catch {
            throw .storeUnavailable("\(error)")
        }
    }
}
