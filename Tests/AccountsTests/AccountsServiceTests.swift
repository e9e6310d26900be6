import Accounts
import AccountsData
import AccountsLive
import Crypto
import Foundation
import Primitives
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

    @Test("an email is unique without regard to case and surrounding spaces")
    func uniqueEmail() async throws {
        let fixture = AccountsFixture()
        _ = try await fixture.service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        await #expect(throws: AccountsError.emailTaken) {
            try await fixture.service.signUp(email: "  ADA@example.COM", displayName: "Other", password: "another password")
        }
        #expect(try fixture.count("user") == 1)
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
}
