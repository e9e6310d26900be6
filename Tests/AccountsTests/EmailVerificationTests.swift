import Accounts
import AccountsData
import AccountsLive
import Primitives
import Synchronization
import Testing

/// Keeps every code sent, as a mailbox would; refuses to send while `failing`.
final class Mailbox: VerificationCodeSender {
    struct Down: Error, CustomStringConvertible {
        var description: String { "the mail system is down" }
    }

    private let state = Mutex<(sent: [(code: String, to: String)], failing: Bool)>(([], false))

    var failing: Bool {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }

    /// Every code sent to `email`, oldest first.
    func codes(to email: String) -> [String] { state.withLock { $0.sent.filter { $0.to == email }.map(\.code) } }

    /// The last code sent to `email`.
    func last(to email: String) -> String? { codes(to: email).last }

    func send(code: String, to email: EmailAddress, name: DisplayName) async throws {
        try state.withLock { state in
            if state.failing { throw Down() }
            state.sent.append((code, email.value))
        }
    }
}

@Suite("Email verification")
struct EmailVerificationTests {
    @Test("sign-up sends a code; until it is entered nobody finds the account by its email; a wrong code costs a try")
    func signUpAndVerify() async throws {
        let mailbox = Mailbox()
        let fixture = AccountsFixture(verification: mailbox)
        let accounts = fixture.service
        let ada = try await accounts.signUp(email: "Ada@Example.com", displayName: "Ada Lovelace", password: "correct horse")
        #expect(!ada.emailVerified)
        let code = try #require(mailbox.last(to: "Ada@Example.com"))
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        // The store keeps a hash, never the code.
        #expect(try fixture.column("SELECT code_hash FROM email_verification") != [code])
        #expect(try await accounts.profile(withEmail: "ada@example.com", for: ada.id) == nil)
        #expect(try await accounts.currentUser()?.emailVerified == false)

        let wrong = code == "000000" ? "111111" : "000000"
        await #expect(throws: AccountsError.wrongCode(triesLeft: 4)) { try await accounts.verifyEmail(code: wrong, of: ada.id) }
        // Not a code at all: a slip, which costs no try.
        await #expect(throws: AccountsError.wrongCode(triesLeft: 4)) { try await accounts.verifyEmail(code: "12 34", of: ada.id) }
        let spaced = String(code.prefix(3)) + " " + String(code.suffix(3))
        let verified = try await accounts.verifyEmail(code: spaced, of: ada.id)
        #expect(verified.emailVerified && verified.id == ada.id)
        #expect(try await accounts.profile(withEmail: "ADA@example.com", for: ada.id) == ada.profile)
        #expect(try await accounts.currentUser()?.emailVerified == true)
        #expect(try fixture.count("email_verification") == 0)
        // Verified: entering a code again answers the account; there is nothing to send.
        #expect(try await accounts.verifyEmail(code: "999999", of: ada.id).emailVerified)
        await #expect(throws: AccountsError.alreadyVerified) { try await accounts.sendVerificationCode(to: ada.id) }
    }

    @Test("five tries, an hour, one code a minute; a new code ends the old one")
    func limits() async throws {
        let mailbox = Mailbox()
        let fixture = AccountsFixture(verification: mailbox)
        let accounts = fixture.service
        let bob = try await accounts.signUp(email: "bob@example.com", displayName: "Bob Stone", password: "correct horse")
        let first = try #require(mailbox.last(to: "bob@example.com"))
        let wrong = first == "000000" ? "111111" : "000000"
        for left in (0..<EmailVerificationPolicy.tries).reversed() {
            await #expect(throws: AccountsError.wrongCode(triesLeft: left)) { try await accounts.verifyEmail(code: wrong, of: bob.id) }
        }
        // Used up: even the right code is no good now.
        await #expect(throws: AccountsError.codeExpired) { try await accounts.verifyEmail(code: first, of: bob.id) }

        // Asking again within a minute of the last code is refused, saying how long to wait.
        await #expect(throws: AccountsError.tooManyAttempts(seconds: 60)) { try await accounts.sendVerificationCode(to: bob.id) }
        fixture.clock.advance(seconds: 45)
        await #expect(throws: AccountsError.tooManyAttempts(seconds: 15)) { try await accounts.sendVerificationCode(to: bob.id) }
        fixture.clock.advance(seconds: 15)
        try await accounts.sendVerificationCode(to: bob.id)
        let second = try #require(mailbox.last(to: "bob@example.com"))
        #expect(mailbox.codes(to: "bob@example.com").count == 2)

        // An hour later the code is over.
        fixture.clock.advance(seconds: EmailVerificationPolicy.codeLifetime + 1)
        await #expect(throws: AccountsError.codeExpired) { try await accounts.verifyEmail(code: second, of: bob.id) }
        try await accounts.sendVerificationCode(to: bob.id)
        let third = try #require(mailbox.last(to: "bob@example.com"))
        fixture.clock.advance(seconds: 61)
        try await accounts.sendVerificationCode(to: bob.id)
        let fourth = try #require(mailbox.last(to: "bob@example.com"))
        if third != fourth {
            await #expect(throws: AccountsError.wrongCode(triesLeft: 4)) { try await accounts.verifyEmail(code: third, of: bob.id) }
        }
        #expect(try await accounts.verifyEmail(code: fourth, of: bob.id).emailVerified)
    }

    @Test("tries made at once each count: of eight wrong codes sent together, five are judged and three find the code ended")
    func triesAtOnce() async throws {
        let mailbox = Mailbox()
        let fixture = AccountsFixture(verification: mailbox)
        let carol = try await fixture.service.signUp(email: "carol@example.com", displayName: "Carol Reed", password: "correct horse")
        let code = try #require(mailbox.last(to: "carol@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        let results = await withTaskGroup(of: AccountsError?.self) { group in
            for seed in 0..<8 {
                let process = fixture.process(tokens: InMemorySessionTokenStore(), seed: UInt64(10 + seed))
                group.addTask {
                    do throws(AccountsError) {
                        _ = try await process.verifyEmail(code: wrong, of: carol.id)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [AccountsError?]()) { $0.append($1) }
        }
        let wrongs = results.compactMap { if case .wrongCode(let left)? = $0 { left } else { nil } }
        #expect(wrongs.sorted() == [0, 1, 2, 3, 4])
        #expect(results.filter { $0 == AccountsError.codeExpired }.count == 3)
    }

    @Test("a new email is unproved until its own code is entered; the same one in another case stays proved")
    func emailChange() async throws {
        let mailbox = Mailbox()
        let fixture = AccountsFixture(verification: mailbox)
        let accounts = fixture.service
        let ada = try await accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let old = try #require(mailbox.last(to: "ada@example.com"))
        _ = try await accounts.verifyEmail(code: old, of: ada.id)
        #expect(try await accounts.changeEmail(to: "ADA@example.com", password: "correct horse", of: ada.id).emailVerified)
        #expect(mailbox.codes(to: "ADA@example.com").isEmpty)

        let moved = try await accounts.changeEmail(to: "ada@new.example", password: "correct horse", of: ada.id)
        #expect(!moved.emailVerified)
        let new = try #require(mailbox.last(to: "ada@new.example"))
        #expect(try await accounts.profile(withEmail: "ada@new.example", for: ada.id) == nil)
        #expect(try await accounts.profile(withEmail: "ada@example.com", for: ada.id) == nil)
        // A code sent to the old address proves nothing about the new one.
        if old != new {
            await #expect(throws: AccountsError.wrongCode(triesLeft: 4)) { try await accounts.verifyEmail(code: old, of: ada.id) }
        }
        #expect(try await accounts.verifyEmail(code: new, of: ada.id).emailVerified)
        #expect(try await accounts.profile(withEmail: "ada@new.example", for: ada.id) == ada.profile)
    }

    @Test("mail that cannot be sent: the sign-up stands, the request says so, and a new code may be asked for at once")
    func mailDown() async throws {
        let mailbox = Mailbox()
        mailbox.failing = true
        let fixture = AccountsFixture(verification: mailbox)
        let accounts = fixture.service
        let bob = try await accounts.signUp(email: "bob@example.com", displayName: "Bob Stone", password: "correct horse")
        #expect(!bob.emailVerified)
        #expect(try fixture.count("email_verification") == 0)
        await #expect(throws: AccountsError.mailUnavailable("the mail system is down")) { try await accounts.sendVerificationCode(to: bob.id) }
        mailbox.failing = false
        try await accounts.sendVerificationCode(to: bob.id)
        let code = try #require(mailbox.last(to: "bob@example.com"))
        #expect(try await accounts.verifyEmail(code: code, of: bob.id).emailVerified)
    }

    @Test("without a sender (one machine) every email counts as verified, and there is no code to send")
    func noVerification() async throws {
        let fixture = AccountsFixture()
        let accounts = fixture.service
        let ada = try await accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        #expect(ada.emailVerified)
        #expect(try await accounts.profile(withEmail: "ada@example.com", for: ada.id) == ada.profile)
        await #expect(throws: AccountsError.alreadyVerified) { try await accounts.sendVerificationCode(to: ada.id) }
        #expect(try await accounts.verifyEmail(code: "123456", of: ada.id) == ada)
        #expect(try await accounts.changeEmail(to: "ada@new.example", password: "correct horse", of: ada.id).emailVerified)
        #expect(try fixture.count("email_verification") == 0)
    }
}
