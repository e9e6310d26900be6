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
    func hashes() async {
        let hasher = PasswordHasher(cost: 4)
        let first = await hasher.hash("correct horse")
        let second = await hasher.hash("correct horse")
        #expect(first != second)
        #expect(first.hasPrefix("$2"))
        #expect(await hasher.verify("correct horse", against: first))
        #expect(await hasher.verify("correct horse", against: second))
        #expect(!(await hasher.verify("correct horsf", against: first)))
        #expect(!(await hasher.verify("correct horse", against: "not a hash")))
    }

    @Test("every character counts, beyond bcrypt's 72 bytes")
    func longPasswords() async {
        let hasher = PasswordHasher(cost: 4)
        let base = String(repeating: "a", count: 100)
        let hash = await hasher.hash(base + "1")
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
