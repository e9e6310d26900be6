import PropertyBased
import Primitives
import Testing

@Suite("EmailAddress")
struct EmailAddressTests {
    @Test("accepts ordinary addresses, trimmed", arguments: [
        ("ada@example.com", "ada@example.com"),
        ("  Ada.Lovelace+flows@Example.CO.uk \n", "Ada.Lovelace+flows@Example.CO.uk"),
        ("o'brien@mail.example.org", "o'brien@mail.example.org"),
        ("x@a-b.io", "x@a-b.io"),
    ])
    func accepts(raw: String, value: String) throws {
        let email = try EmailAddress(raw)
        #expect(email.value == value)
        #expect(email.key == value.lowercased())
    }

    @Test("refuses what is not an address, saying why", arguments: [
        ("", EmailAddress.Problem.empty),
        ("   ", .empty),
        ("ada", .shape),
        ("ada@", .shape),
        ("@example.com", .shape),
        ("ada@example", .shape),
        ("ada@@example.com", .shape),
        ("ada lovelace@example.com", .shape),
        ("ada@exa mple.com", .shape),
        ("ada@-example.com", .shape),
        ("ada@example.c0m", .shape),
        (".ada@example.com", .shape),
        ("a..da@example.com", .shape),
        ("ada@example..com", .shape),
        ("ada\u{1B}[31m@example.com", .controlCharacters),
        ("ada@example.com\u{0}", .controlCharacters),
    ])
    func refuses(raw: String, problem: EmailAddress.Problem) {
        #expect(throws: problem) { try EmailAddress(raw) }
    }

    @Test("refuses a 10,000-character answer as too long")
    func refusesVeryLong() {
        let raw = String(repeating: "a", count: 10_000) + "@example.com"
        #expect(throws: EmailAddress.Problem.tooLong) { try EmailAddress(raw) }
    }

    @Test("the same address in another case is the same key")
    func caseInsensitiveKey() throws {
        #expect(try EmailAddress("ADA@Example.com").key == EmailAddress(" ada@example.COM ").key)
    }

    @Test("addresses that look the same are the same key: NFC before comparing and storing")
    func normalisedKey() throws {
        let decomposed = try EmailAddress("ade\u{301}le@example.com")
        let composed = try EmailAddress("ad\u{E9}le@example.com")
        #expect(Array(decomposed.key.utf8) == Array(composed.key.utf8))
        #expect(Array(decomposed.value.utf8) == Array(composed.value.utf8))
        #expect(Array(EmailAddress.key(for: " ADE\u{301}LE@example.com").utf8) == Array(composed.key.utf8))
    }

    @Test("invisible characters are refused", arguments: ["ada\u{200B}@example.com", "ada@exa\u{202E}mple.com", "\u{FEFF}ada@example.com", "ad\u{AD}a@example.com"])
    func refusesInvisible(raw: String) {
        #expect(throws: EmailAddress.Problem.invisibleCharacters) { try EmailAddress(raw) }
    }

    @Test("every message says what is accepted")
    func messages() {
        for problem in EmailAddress.Problem.allCases {
            #expect(!problem.message.isEmpty)
            #expect(problem.message.hasSuffix("."))
        }
    }

    @Test("any text either parses to a trimmed address without control characters or is refused")
    func neverCrashes() async {
        await propertyCheck(count: 2_000, input: Gen.character(in: "\u{0}"..."\u{17F}").string(of: 0...60)) { raw in
            if let email = try? EmailAddress(raw) {
                #expect(email.value == raw.trimmingWhitespace())
                #expect(!email.value.containsControlCharacters)
                #expect((try? EmailAddress(email.value)) == email)
            }
        }
    }
}
