import Accounts
import AccountsData
import AccountsDataPostgres
import AccountsLive
import PostgresStore
import Primitives
import Synchronization
import Testing

@Suite("Accounts on PostgreSQL", TestDatabase.required)
struct AccountsPostgresTests {
    @Test("sign-up, the same email in another case refused, sign-in, sessions ended after 30 idle days")
    func signUpAndSessions() async throws {
        try await PostgresWorld.run { world in
            let accounts = world.services.accounts
            let ada = try await accounts.signUp(email: "Ada@Example.com", displayName: "Ada Lovelace", password: "correct horse")
            #expect(ada.email.value == "Ada@Example.com")
            await #expect(throws: AccountsError.emailTaken) {
                try await accounts.signUp(email: "ada@EXAMPLE.com", displayName: "Another Ada", password: "correct horse")
            }
            await #expect(throws: AccountsError.wrongEmailOrPassword) { try await accounts.signIn(email: "ada@example.com", password: "wrong horse") }
            await #expect(throws: AccountsError.wrongEmailOrPassword) { try await accounts.signIn(email: "bob@example.com", password: "correct horse") }
            #expect(try await accounts.signIn(email: "ADA@example.com", password: "correct horse") == ada)
            #expect(try await accounts.storedSession() == .signedIn(ada))
            // Each use moves the idle limit on; 30 days without one ends the session.
            world.clock.advance(seconds: Double(SessionPolicy.idleDays - 1) * 86_400)
            #expect(try await accounts.storedSession() == .signedIn(ada))
            world.clock.advance(seconds: Double(SessionPolicy.idleDays) * 86_400 + 1)
            #expect(try await accounts.storedSession() == .expired)
            #expect(try await accounts.storedSession() == .signedOut)
            #expect(try await sessions(world, of: ada.id) == 0)
        }
    }

    @Test("changing the name, the email (after the password) and the password, which ends the other sessions")
    func settings() async throws {
        try await PostgresWorld.run { world in
            let accounts = world.services.accounts
            let bob = try await accounts.signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
            let ada = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
            #expect(try await accounts.changeDisplayName(to: "  Ada Lovelace ", of: ada.id).displayName.value == "Ada Lovelace")
            await #expect(throws: AccountsError.wrongPassword) { try await accounts.changeEmail(to: "ada@new.example", password: "nope nope", of: ada.id) }
            await #expect(throws: AccountsError.emailTaken) { try await accounts.changeEmail(to: "BOB@example.com", password: "correct horse", of: ada.id) }
            // The same address in another case is hers to take.
            #expect(try await accounts.changeEmail(to: "ADA@example.com", password: "correct horse", of: ada.id).email.value == "ADA@example.com")
            #expect(try await accounts.changeEmail(to: "ada@new.example", password: "correct horse", of: ada.id).email.value == "ada@new.example")
            await #expect(throws: AccountsError.wrongEmailOrPassword) { try await accounts.signIn(email: "ada@example.com", password: "correct horse") }
            // Another device signed in as Ada (its own token store) loses its session with the new password.
            let laptop = LiveAccountsService(
                store: PostgresAccountsStore(database: world.database), tokens: InMemorySessionTokenStore(), hasher: PasswordHasher(cost: 4),
                random: SeededRandomSource(seed: 99), now: { world.clock.now }, visibility: OwnAccountOnly()
            )
            _ = try await laptop.signIn(email: "ada@new.example", password: "correct horse")
            _ = try await accounts.signIn(email: "ada@new.example", password: "correct horse")
            #expect(try await sessions(world, of: ada.id) == 2)
            await #expect(throws: AccountsError.samePassword) { try await accounts.changePassword(from: "correct horse", to: "correct horse", of: ada.id) }
            try await accounts.changePassword(from: "correct horse", to: "battery staple", of: ada.id)
            #expect(try await sessions(world, of: ada.id) == 1)
            #expect(try await laptop.storedSession() == .signedOut)
            #expect(try await accounts.storedSession() == .signedIn(try await accounts.signIn(email: "ada@new.example", password: "battery staple")))
            #expect(try await accounts.existing(among: [ada.id, bob.id, UserID(rawValue: "nobody")]) == [ada.id, bob.id])
        }
    }

    @Test("avatars: initials, a picture kept whole, none; the store's checks refuse what the domain would")
    func avatars() async throws {
        try await PostgresWorld.run { world in
            let accounts = world.services.accounts
            let ada = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
            #expect(try await accounts.avatar(of: ada.id) == .none)
            try await accounts.changeAvatar(to: .initials(.teal), of: ada.id)
            #expect(try await accounts.avatar(of: ada.id) == .initials(.teal))
            // The header of a 3 x 2 PNG: all a picture needs to be taken.
            let bytes: [UInt8] = [
                0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x03,
                0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0x12, 0x16, 0xF1, 0x4D,
            ]
            let picture = try AvatarImage(bytes: bytes)
            try await accounts.changeAvatar(to: .image(picture), of: ada.id)
            #expect(try await accounts.avatar(of: ada.id) == .image(picture))
            try await accounts.changeAvatar(to: .none, of: ada.id)
            #expect(try await accounts.avatar(of: ada.id) == .none)
            await #expect(throws: AccountsError.noSuchAccount) { try await accounts.changeAvatar(to: .initials(.red), of: UserID(rawValue: "nobody")) }
            let store = PostgresAccountsStore(database: world.database)
            let id = ada.id.rawValue
            await #expect(throws: AccountsDataError.self) {
                try await store.write { try $0.saveAvatar(AvatarRecord(userID: id, kind: "image", format: "png", width: 5000, height: 1, bytes: [1]), userID: id) }
            }
            await #expect(throws: AccountsDataError.self) {
                try await store.write { try $0.saveAvatar(AvatarRecord(userID: id, kind: "initials"), userID: id) }
            }
        }
    }

    @Test("the store refuses a taken email key as emailTaken, other constraints as refusals naming the rule")
    func storeRefusals() async throws {
        try await PostgresWorld.run { world in
            let store = PostgresAccountsStore(database: world.database)
            @Sendable func insert(_ user: UserRecord) async throws { try await store.write { try $0.insert(user) } }
            let ada = UserRecord(id: "ada", email: "ada@example.com", emailKey: "ada@example.com", displayName: "Ada", friendCode: "ABCDEFGH2", passwordHash: "x", createdAt: 1)
            try await insert(ada)
            var twin = ada
            twin.id = "twin"
            twin.friendCode = "ABCDEFGH3"
            await #expect(throws: AccountsDataError.emailTaken) { try await insert(twin) }
            // What the database counts is code points: 200 of them is the most a name can have.
            var long = twin
            long.emailKey = "long@example.com"
            long.displayName = String(repeating: "é", count: 201)
            do {
                try await insert(long)
                Issue.record("a 201 code point name was kept")
            } catch AccountsDataError.refused(let rule) {
                #expect(rule.contains("account_display_name_check"))
            }
            long.displayName = String(repeating: "é", count: 200)
            try await insert(long)
            var shouting = twin
            shouting.id = "shouting"
            shouting.emailKey = "SHOUT@example.com"
            await #expect(throws: AccountsDataError.self) { try await insert(shouting) }
            shouting.emailKey = "shout@example.com"
            shouting.friendCode = ada.friendCode
            do {
                try await insert(shouting)
                Issue.record("a friend code was given twice")
            } catch AccountsDataError.refused(let rule) {
                #expect(rule.contains("account_friend_code"))
            }
        }
    }

    @Test("email verification: unverified until the mailed code; eight wrong codes at once spend the five tries, no more")
    func emailVerification() async throws {
        try await PostgresWorld.run { world in
            let codes = SentCodes()
            @Sendable func service(_ seed: UInt64) -> LiveAccountsService {
                LiveAccountsService(
                    store: PostgresAccountsStore(database: world.database), tokens: InMemorySessionTokenStore(), hasher: PasswordHasher(cost: 4),
                    random: SeededRandomSource(seed: seed), now: { world.clock.now }, visibility: OwnAccountOnly(), verification: codes
                )
            }
            let accounts = service(1)
            let ada = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
            #expect(!ada.emailVerified)
            #expect(try await accounts.profile(withEmail: "ada@example.com", for: ada.id) == nil)
            let code = try #require(codes.last)
            let wrong = code == "000000" ? "111111" : "000000"
            let results = await withTaskGroup(of: AccountsError?.self) { group in
                for seed in 0..<8 {
                    let other = service(UInt64(10 + seed))
                    group.addTask {
                        do throws(AccountsError) {
                            _ = try await other.verifyEmail(code: wrong, of: ada.id)
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                return await group.reduce(into: [AccountsError?]()) { $0.append($1) }
            }
            #expect(results.compactMap { if case .wrongCode(let left)? = $0 { left } else { nil } }.sorted() == [0, 1, 2, 3, 4])
            #expect(results.filter { $0 == AccountsError.codeExpired }.count == 3)
            await #expect(throws: AccountsError.codeExpired) { try await accounts.verifyEmail(code: code, of: ada.id) }
            world.clock.advance(seconds: 61)
            try await accounts.sendVerificationCode(to: ada.id)
            let fresh = try #require(codes.last)
            #expect(try await accounts.verifyEmail(code: fresh, of: ada.id).emailVerified)
            #expect(try await accounts.profile(withEmail: "ADA@example.com", for: ada.id) == ada.profile)
        }
    }

    @Test("two sign-ups with one email at the same moment: one account, the other told the email is taken")
    func concurrentSignUps() async throws {
        try await PostgresWorld.run { world in
            let results = await withTaskGroup(of: Result<User, AccountsError>.self) { group in
                for index in 0..<8 {
                    let service = LiveAccountsService(
                        store: PostgresAccountsStore(database: world.database), tokens: InMemorySessionTokenStore(), hasher: PasswordHasher(cost: 4),
                        random: SeededRandomSource(seed: UInt64(100 + index)), now: { world.clock.now }, visibility: OwnAccountOnly()
                    )
                    group.addTask {
                        do throws(AccountsError) {
                            return .success(try await service.signUp(email: index.isMultiple(of: 2) ? "same@example.com" : "SAME@example.com", displayName: "Same", password: "correct horse"))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { if case .success = $0 { true } else { false } }.count == 1)
            #expect(results.filter { $0 == .failure(.emailTaken) }.count == 7)
        }
    }
}

/// Keeps the codes sent, as a mailbox would.
private final class SentCodes: VerificationCodeSender {
    private let codes = Mutex<[String]>([])
    var last: String? { codes.withLock { $0.last } }
    func send(code: String, to email: EmailAddress, name: DisplayName) async throws { codes.withLock { $0.append(code) } }
}

/// How many sessions a user has in the store.
private func sessions(_ world: PostgresWorld, of user: UserID) async throws -> Int {
    let id = user.rawValue
    return try await PostgresAccountsStore(database: world.database).read { try $0.sessions(userID: id).count }
}

extension Result: @retroactive Equatable where Success: Equatable, Failure: Equatable {}
