import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsLive
import Crypto
import Foundation
import Primitives
import Synchronization
import Testing

@Suite("Accounts: sign up, sign in, sign out, the current session")
struct AccountsServiceTests {
    @Test("sign up creates the account and signs it in")
    func signUp() async throws {
        let fixture = AccountsFixture()
        let user = try await fixture.service.signUp(email: " Ada@Example.com ", displayName: " Ada ", password: "correct horse")
        #expect(user.email.value == "Ada@Example.com")
        #expect(user.displayName.value == "Ada")
        #expect(try await fixture.service.currentUser() == user)
        #expect(try fixture.count("user") == 1)
        #expect(try fixture.count("session") == 1)
    }

    @Test("another account's email and friend code go only where the visibility shows them; display names to anyone")
    func whoSeesWhom() async throws {
        let visibility = StubVisibility()
        let fixture = AccountsFixture(visibility: visibility)
        let service = fixture.service
        let ada = try await service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        let bob = try await service.signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
        let cy = try await service.signUp(email: "cy@example.com", displayName: "Cy", password: "correct horse")
        let nobody = UserID(rawValue: "no-account")
        let everyone: Set<UserID> = [ada.id, bob.id, cy.id, nobody]
        // Ada sees her own account only, until Bob is shown to her.
        #expect(try await service.users(everyone, for: ada.id) == [ada])
        visibility.show([bob.id, nobody], to: ada.id)
        #expect(try await service.users(everyone, for: ada.id).sorted { $0.displayName.value < $1.displayName.value } == [ada, bob])
        #expect(visibility.asked == [ada.id: [bob.id, cy.id, nobody]], "the user is never asked about")
        // Cy, to whom no one is shown, sees only herself, and asking about no one reads nothing.
        #expect(try await service.users(everyone, for: cy.id) == [cy])
        #expect(try await service.users([bob.id], for: cy.id).isEmpty)
        #expect(try await service.users([], for: cy.id).isEmpty)
        // Names are what a shared expense shows: anyone's, friends or not; no account, no name.
        #expect(try await service.displayNames(of: everyone, for: cy.id) == [ada.id: ada.displayName, bob.id: bob.displayName, cy.id: cy.displayName])
        // A visibility that cannot answer is an unavailable store, not an empty list.
        visibility.fail()
        await #expect(throws: AccountsError.storeUnavailable("Broken()")) { try await service.users([bob.id], for: ada.id) }
        #expect(try await service.users([ada.id], for: ada.id) == [ada])
    }

    @Test("each account gets its own friend code at sign-up, which signing in gives back unchanged")
    func friendCode() async throws {
        let fixture = AccountsFixture()
        let ada = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        let bob = try await fixture.service.signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
        #expect(ada.friendCode != bob.friendCode)
        #expect(try FriendCode(ada.friendCode.description) == ada.friendCode)
        let again = try await fixture.service.signIn(email: "ada@example.com", password: "correct horse")
        #expect(again.friendCode == ada.friendCode)
    }

    @Test("an email is unique without regard to case and surrounding spaces")
    func uniqueEmail() async throws {
        let fixture = AccountsFixture()
        _ = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        await #expect(throws: AccountsError.emailTaken) {
            try await fixture.service.signUp(email: "  ADA@example.COM", displayName: "Other", password: "another password")
        }
        #expect(try fixture.count("user") == 1)
    }

    @Test("a taken email is refused before the password is hashed: bcrypt at its highest cost, hours of work, is never reached", .timeLimit(.minutes(1)))
    func takenBeforeHashing() async throws {
        let fixture = AccountsFixture()
        _ = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        let slow = LiveAccountsService(
            store: SQLiteAccountsStore(database: fixture.database), tokens: InMemorySessionTokenStore(), hasher: PasswordHasher(cost: 31),
            visibility: OwnAccountOnly()
        )
        await #expect(throws: AccountsError.emailTaken) {
            try await slow.signUp(email: "Ada@Example.com", displayName: "Other", password: "another password")
        }
    }

    @Test("sign up re-checks every rule", arguments: [
        ("nope", "Ada", "correct horse", AccountsError.invalidEmail(.shape)),
        ("ada@example.com", "  ", "correct horse", .invalidDisplayName(.empty)),
        ("ada@example.com", "Ada", "short", .invalidPassword(.tooShort)),
        ("ada@example.com", "Ada", "bad\u{1B}password", .invalidPassword(.controlCharacters)),
    ])
    func signUpRules(email: String, name: String, password: String, error: AccountsError) async throws {
        let fixture = AccountsFixture()
        await #expect(throws: error) { try await fixture.service.signUp(email: email, displayName: name, password: password) }
        #expect(try fixture.count("user") == 0)
    }

    @Test("sign in with the right password, in any case of the email")
    func signIn() async throws {
        let fixture = AccountsFixture()
        let user = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        try await fixture.service.signOut()
        #expect(try await fixture.service.currentUser() == nil)

        let signedIn = try await fixture.service.signIn(email: " ADA@example.com", password: "correct horse")
        #expect(signedIn == user)
        #expect(try await fixture.service.currentUser() == user)
    }

    @Test("a wrong password and an unknown email fail the same way")
    func wrongCredentials() async throws {
        let fixture = AccountsFixture()
        _ = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        await #expect(throws: AccountsError.wrongEmailOrPassword) {
            try await fixture.service.signIn(email: "ada@example.com", password: "Correct horse")
        }
        await #expect(throws: AccountsError.wrongEmailOrPassword) {
            try await fixture.service.signIn(email: "bob@example.com", password: "correct horse")
        }
        #expect(AccountsError.wrongEmailOrPassword.message == "wrong email or password")
        #expect(try fixture.count("session") == 1)
    }

    @Test("a session token has 256 random bits and the store keeps only its SHA-256")
    func tokenStoredAsHash() async throws {
        let tokens = InMemorySessionTokenStore()
        let fixture = AccountsFixture(tokens: tokens)
        _ = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        let token = try #require(try tokens.load())
        let decoded = Data(base64Encoded: token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "=")
        #expect(decoded?.count == 32)

        let stored = try fixture.column("SELECT token_hash FROM session")
        #expect(stored == [SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()])
        #expect(!stored.contains(token))
        let everything = try fixture.column("SELECT email || display_name || password_hash FROM user")
        #expect(!everything.joined().contains("correct horse"))
    }

    @Test("sign out ends the session in the store and forgets the token")
    func signOut() async throws {
        let tokens = InMemorySessionTokenStore()
        let fixture = AccountsFixture(tokens: tokens)
        _ = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        try await fixture.service.signOut()
        #expect(try tokens.load() == nil)
        #expect(try fixture.count("session") == 0)
        #expect(try await fixture.service.currentUser() == nil)
        try await fixture.service.signOut()
    }

    @Test("a token the store does not know is nobody")
    func unknownToken() async throws {
        let fixture = AccountsFixture(tokens: InMemorySessionTokenStore(token: "forged-token"))
        #expect(try await fixture.service.currentUser() == nil)
    }

    @Test("when the token cannot be kept, sign up writes nothing")
    func failedWriteLeavesNothing() async throws {
        let fixture = AccountsFixture(tokens: FailingTokenStore())
        await #expect(throws: AccountsError.self) {
            try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        }
        #expect(try fixture.count("user") == 0)
        #expect(try fixture.count("session") == 0)
    }

    @Test("emails that look the same are one account: NFC before comparing and storing")
    func lookalikeEmails() async throws {
        let fixture = AccountsFixture()
        let user = try await fixture.service.signUp(email: "ade\u{301}le@example.com", displayName: "Ade\u{301}le", password: "correct horse")
        await #expect(throws: AccountsError.emailTaken) {
            try await fixture.service.signUp(email: "ad\u{E9}le@example.com", displayName: "Other", password: "another password")
        }
        #expect(try fixture.column("SELECT email_key || display_name FROM user") == ["ad\u{E9}le@example.comAd\u{E9}le"])
        try await fixture.service.signOut()
        #expect(try await fixture.service.signIn(email: "AD\u{C9}LE@example.com", password: "correct horse") == user)
    }

    @Test("a zero-width or direction character in an email or a name is refused, not stored")
    func invisibleRefused() async throws {
        let fixture = AccountsFixture()
        await #expect(throws: AccountsError.invalidEmail(.invisibleCharacters)) {
            try await fixture.service.signUp(email: "ada\u{200B}@example.com", displayName: "Ada", password: "correct horse")
        }
        await #expect(throws: AccountsError.invalidDisplayName(.invisibleCharacters)) {
            try await fixture.service.signUp(email: "ada@example.com", displayName: "\u{202E}adA", password: "correct horse")
        }
        #expect(try fixture.count("user") == 0)
    }

    @Test("any name the domain accepts, the store keeps: the two count length the same way")
    func nameRuleMatchesConstraint() async throws {
        let fixture = AccountsFixture()
        let marks = ["", "\u{300}", "\u{301}\u{302}", "\u{301}\u{302}\u{303}", "\u{301}\u{302}\u{303}\u{304}", "\u{301}\u{302}\u{303}\u{304}\u{305}"]
        let emoji = ["👩‍👩‍👧", "👍🏽", "🇫🇷", "x"]
        var stored = 0
        for (index, count) in [1, 25, 39, 40, 41, 49, 50].enumerated() {
            for piece in marks.map({ "q" + $0 }) + emoji {
                let name = String(repeating: piece, count: count)
                do {
                    _ = try await fixture.service.signUp(email: "u\(index)-\(stored)@example.com", displayName: name, password: "correct horse")
                    stored += 1
                } catch let error {
                    guard case .invalidDisplayName = error else {
                        Issue.record("\(count) × \(piece.debugDescription) was refused as \(error), not by the name's rule")
                        continue
                    }
                }
            }
        }
        #expect(try fixture.count("user") == stored)
        #expect(stored > 40)
    }

    @Test("a constraint of the store refusing a write is a refusal with its reason, not an unavailable store")
    func constraintIsRefusal() async throws {
        let fixture = AccountsFixture()
        let store = SQLiteAccountsStore(database: fixture.database)
        let record = UserRecord(id: "1", email: "a@b.co", emailKey: "a@b.co", displayName: String(repeating: "e\u{301}", count: 101), friendCode: testFriendCode, passwordHash: "x", createdAt: 0)
        await #expect(throws: AccountsDataError.refused("CHECK constraint failed: length(trim(display_name)) BETWEEN 1 AND 200")) {
            try await store.write { try $0.insert(record) }
        }
        #expect(AccountsError.refused("x").message.contains("refused"))
        #expect(!AccountsError.refused("x").message.contains("unavailable"))
    }

    @Test("one current session: signing in again ends the previous session of this store")
    func oneCurrentSession() async throws {
        let fixture = AccountsFixture()
        _ = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        _ = try await fixture.service.signIn(email: "ada@example.com", password: "correct horse")
        _ = try await fixture.service.signIn(email: "ada@example.com", password: "correct horse")
        #expect(try fixture.count("session") == 1)
        // Another person's session in another process is not this store's current one: it stays.
        let elsewhere = fixture.process(tokens: InMemorySessionTokenStore(), seed: 2)
        _ = try await elsewhere.signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
        _ = try await fixture.service.signIn(email: "ada@example.com", password: "correct horse")
        #expect(try fixture.count("session") == 2)
        #expect(try await elsewhere.currentUser()?.displayName.value == "Bob")
    }

    @Test("signing out removes the session from the store even when the session file is gone")
    func signOutWithoutFile() async throws {
        let tokens = InMemorySessionTokenStore()
        let fixture = AccountsFixture(tokens: tokens)
        _ = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        try tokens.clear()
        try await fixture.service.signOut()
        #expect(try fixture.count("session") == 0)
    }

    @Test("a session unused for more than 30 days ends: signed out, with a notice; use keeps it alive")
    func idleSessionsExpire() async throws {
        let tokens = InMemorySessionTokenStore()
        let fixture = AccountsFixture(tokens: tokens)
        let user = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        fixture.clock.advance(days: 29)
        #expect(try await fixture.service.storedSession() == .signedIn(user))
        fixture.clock.advance(days: 29)
        #expect(try await fixture.service.storedSession() == .signedIn(user))  // used 29 days ago
        fixture.clock.advance(days: 30.01)
        let later = fixture.process(tokens: tokens, seed: 3)
        #expect(try await later.storedSession() == .expired)
        #expect(try fixture.count("session") == 0)
        #expect(try tokens.load() == nil)
        #expect(try await later.storedSession() == .signedOut)
        #expect(StoredSession.expiredNotice.contains("30 days"))
    }

    @Test("finding a session used in the last minute only reads; a staler use is recorded")
    func recentUseIsNotWrittenAgain() async throws {
        let fixture = AccountsFixture()
        let user = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        let lastUse = { try fixture.column("SELECT CAST(last_used_at AS TEXT) FROM session") }
        let created = try lastUse()
        fixture.clock.advance(days: 30 / 86_400)
        #expect(try await fixture.service.storedSession() == .signedIn(user))
        #expect(try lastUse() == created)
        fixture.clock.advance(days: 60 / 86_400)
        #expect(try await fixture.service.storedSession() == .signedIn(user))
        #expect(try lastUse() != created)
    }

    @Test("signing in ends the user's own idle sessions left in the store")
    func signInSweepsIdleSessions() async throws {
        let fixture = AccountsFixture()
        _ = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        let laptop = fixture.process(tokens: InMemorySessionTokenStore(), seed: 4)
        _ = try await laptop.signIn(email: "ada@example.com", password: "correct horse")
        #expect(try fixture.count("session") == 2)
        fixture.clock.advance(days: 31)
        _ = try await fixture.service.signIn(email: "ada@example.com", password: "correct horse")
        #expect(try fixture.count("session") == 1)
    }
}

/// A visibility set by the test: whom each user is shown, and whom they asked about.
private final class StubVisibility: AccountVisibility, Sendable {
    struct Broken: Error {}

    private struct State {
        var shown: [UserID: Set<UserID>] = [:]
        var asked: [UserID: Set<UserID>] = [:]
        var broken = false
    }

    private let state = Mutex(State())

    var asked: [UserID: Set<UserID>] { state.withLock { $0.asked } }

    func show(_ people: Set<UserID>, to user: UserID) {
        state.withLock { $0.shown[user, default: []].formUnion(people) }
    }

    func fail() {
        state.withLock { $0.broken = true }
    }

    func shown(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID> {
        try state.withLock { state in
            if state.broken { throw Broken() }
            state.asked[user, default: []].formUnion(people)
            return (state.shown[user] ?? []).intersection(people)
        }
    }
}
