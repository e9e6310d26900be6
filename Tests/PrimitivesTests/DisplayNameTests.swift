import Primitives
import Testing

@Suite("DisplayName")
struct DisplayNameTests {
    @Test("trims and keeps 1 to 50 characters", arguments: [
        ("Ada", "Ada"),
        ("  Ada Lovelace  ", "Ada Lovelace"),
        ("A", "A"),
        (String(repeating: "x", count: 50), String(repeating: "x", count: 50)),
        ("Zoë 👩‍👩‍👧", "Zoë 👩‍👩‍👧"),
    ])
    func accepts(raw: String, value: String) throws {
        #expect(try DisplayName(raw).value == value)
    }

    @Test("counts characters as people see them: 50 emoji of two code points fit, and 40 family emoji")
    func countsGraphemes() throws {
        let thumbs = String(repeating: "👍🏽", count: 50)
        #expect(try DisplayName(thumbs).value == thumbs)
        let families = String(repeating: "👩‍👩‍👧", count: 40)
        #expect(try DisplayName(families).value == families)
    }

    @Test("at most 200 code points, what the store counts: 50 letters under four accents each are refused")
    func boundsCodePoints() throws {
        let heavy = String(repeating: "q\u{301}\u{302}\u{303}\u{304}", count: 50)
        #expect(heavy.count == 50)
        #expect(throws: DisplayName.Problem.tooManyMarks) { try DisplayName(heavy) }
        #expect(throws: DisplayName.Problem.tooManyMarks) { try DisplayName(String(repeating: "👩‍👩‍👧", count: 41)) }
        let fits = String(repeating: "q\u{301}\u{302}\u{303}", count: 50)
        #expect(try DisplayName(fits).value.unicodeScalars.count <= DisplayName.maximumScalars)
    }

    @Test("names are kept in NFC: an accent typed apart is the same name as one typed composed")
    func normalises() throws {
        let decomposed = try DisplayName("Ame\u{301}lie")
        #expect(Array(decomposed.value.unicodeScalars) == Array("Am\u{E9}lie".unicodeScalars))
        #expect(Array(try DisplayName("\u{212B}ngstr\u{F6}m").value.unicodeScalars).first == "\u{C5}")
    }

    @Test("invisible characters are refused; emoji sequences that use joiners are not", arguments: [
        "Ada\u{200B}", "\u{202E}adA", "A\u{2066}da", "Ad\u{AD}a", "\u{FEFF}Ada", "Ada\u{200D}", "A\u{200E}da", "Ada\u{E0041}",
    ])
    func refusesInvisible(raw: String) {
        #expect(throws: DisplayName.Problem.invisibleCharacters) { try DisplayName(raw) }
    }

    @Test("emoji with joiners and variation selectors are names like any other", arguments: ["👩‍💻 Ada", "❤️ Bob", "👨‍👩‍👧‍👦"])
    func keepsEmojiSequences(raw: String) throws {
        #expect(try DisplayName(raw).value == raw)
    }

    @Test("refuses empty, too long and control characters", arguments: [
        ("", DisplayName.Problem.empty),
        ("   \t ", .empty),
        (String(repeating: "x", count: 51), .tooLong),
        (String(repeating: "y", count: 10_000), .tooLong),
        ("Ada\u{7}", .controlCharacters),
        ("Ada\u{1B}[2J", .controlCharacters),
        ("Ada\u{9B}", .controlCharacters),
    ])
    func refuses(raw: String, problem: DisplayName.Problem) {
        #expect(throws: problem) { try DisplayName(raw) }
    }
}
