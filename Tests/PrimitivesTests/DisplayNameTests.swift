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

    @Test("counts characters as people see them: 50 family emoji fit")
    func countsGraphemes() throws {
        let name = String(repeating: "👩‍👩‍👧", count: 50)
        #expect(try DisplayName(name).value == name)
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
