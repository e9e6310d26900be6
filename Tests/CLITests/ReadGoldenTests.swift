import Foundation
import Testing

/// The read commands' text, against a golden transcript: a flat's Splitwise export imported
/// into Ada's store and filed under the group Flat, then each command run in turn. Activity's
/// minutes depend on the clock and are written `YYYY-MM-DD HH:MM`.
///
/// `FLOWS_UPDATE_GOLDENS=1 swift test --filter ReadGoldenTests` writes the transcript afresh;
/// read its diff before committing it.
@Suite("The read commands' text")
struct ReadGoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let golden = fixtures.appendingPathComponent("read-commands/flat.txt")

    static let commands: [[String]] = [
        ["balances"],
        ["balances", "--in", "EUR"],
        ["friends"],
        ["groups"],
        ["expenses"],
        ["expenses", "--group", "Flat", "--since", "2026-10-05"],
        ["expenses", "--person", "王芳"],
        ["activity", "--limit", "4"],
    ]

    @Test("balances (also in one currency), friends, groups, expenses (filtered three ways) and activity read as the golden transcript says")
    func transcript() async throws {
        let flows = try FlowsProcess()
        defer { flows.removeHome() }
        let signUp = try await flows.run(["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "display-name=Ada Lovelace", "--set", "password=correct horse"])
        #expect(signUp.status == 0, "\(signUp.stderr)")
        let flat = Self.fixtures.appendingPathComponent("import/splitwise-flat.csv").path
        let imported = try await flows.run(["import", "splitwise", flat, "--group", "Flat", "--map", "Bob Stone=contact", "--map", "王芳=contact", "--map", "Cy Young=contact"])
        #expect(imported.status == 0, "\(imported.stderr)")

        var transcript = ""
        for arguments in Self.commands {
            let outcome = try await flows.run(arguments)
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "flows \(arguments.joined(separator: " ")): \(outcome.stderr)")
            transcript += "$ flows \(arguments.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " "))\n"
            transcript += Self.withoutMinutes(outcome.stdout) + "\n"
        }
        if ProcessInfo.processInfo.environment["FLOWS_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try transcript.write(to: Self.golden, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: Self.golden, encoding: .utf8)
        let got = transcript.split(separator: "\n", omittingEmptySubsequences: false)
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(got.count, want.count) {
            let line = index < got.count ? String(got[index]) : "(nothing)"
            let wanted = index < want.count ? String(want[index]) : "(nothing)"
            #expect(line == wanted, "line \(index + 1) of read-commands/flat.txt")
            if line != wanted { break }
        }
    }

    /// Activity's `2026-11-29 00:46` at the start of a line as `YYYY-MM-DD HH:MM`.
    static func withoutMinutes(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let prefix = line.prefix(16)
            let shape = prefix.map { $0.isNumber ? "9" : String($0) }.joined()
            return shape == "9999-99-99 99:99" ? "YYYY-MM-DD HH:MM" + line.dropFirst(16) : String(line)
        }.joined(separator: "\n")
    }
}
