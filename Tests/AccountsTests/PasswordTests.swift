import Accounts
import AccountsLive
import Testing

@Suite("Passwords")
struct PasswordTests {
    @Test("rules for a new password", arguments: [
        ("1234567", PasswordRules.Problem.tooShort),
        ("", .tooShort),
        (String(repeating: "p", count: 257), .tooLong),
        (String(repeating: "p", count: 10_000), .tooLong),
        ("password\n1", .controlCharacters),
        ("pass\u{0}word", .controlCharacters),
    ])
    func refused(password: String, problem: PasswordRules.Problem) {
        #expect(throws: problem) { try PasswordRules.check(password) }
    }

    @Test("8 to 256 characters of anything printable are fine", arguments: [
        "12345678", "correct horse battery staple", "pässwörd🔑", String(repeating: "p", count: 256),
    ])
    func accepted(password: String) throws {
        try PasswordRules.check(password)
    }

    @Test("bcrypt hashes are salted and check only the right password")
    func hashes() async throws {
        let hasher = PasswordHasher(cost: 4)
        let first = try await hasher.hash("correct horse")
        let second = try await hasher.hash("correct horse")
        #expect(first != second)
        #expect(first.hasPrefix("$2b$04$"))
        #expect(first.count == 60)
        #expect(await hasher.verify("correct horse", against: first))
        #expect(await hasher.verify("correct horse", against: second))
        #expect(!(await hasher.verify("correct horsf", against: first)))
        #expect(!(await hasher.verify("correct horse", against: "not a hash")))
    }

    @Test("hashes stored by earlier versions (OpenBSD's bcrypt, by HummingbirdBcrypt) still check")
    func earlierHashes() async {
        let hasher = PasswordHasher(cost: 4)
        // "correct horse", made by HummingbirdBcrypt 2.5 at cost 4 before bcrypt came from libcrypt.
        let stored = "$2b$04$G2d.tUD6BQbKogW8UE1mhe2HuA2nO7kTh8nHTWoadpJoP4mkGeneS"
        #expect(await hasher.verify("correct horse", against: stored))
        #expect(!(await hasher.verify("correct horsf", against: stored)))
        #expect(!(await hasher.verify("correct horse", against: String(stored.dropLast()) + "T")))
    }

    @Test("every character counts, beyond bcrypt's 72 bytes")
    func longPasswords() async throws {
        let hasher = PasswordHasher(cost: 4)
        let base = String(repeating: "a", count: 100)
        let hash = try await hasher.hash(base + "1")
        #expect(await hasher.verify(base + "1", against: hash))
        #expect(!(await hasher.verify(base + "2", against: hash)))
    }

    @Test("the cost is kept within bcrypt's range")
    func cost() {
        #expect(PasswordHasher(cost: 1).cost == 4)
        #expect(PasswordHasher(cost: 40).cost == 31)
        #expect(PasswordHasher().cost == 12)
    }
}
