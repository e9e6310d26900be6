import FlowTesting
import FlowsApp
import Foundation
import Testing

@Suite("Golden transcripts")
struct GoldenSuiteTests {
    let suite = GoldenSuite(launcher: GoldenScripts.launch(for:))

    @Test("every golden of the project passes")
    func projectGoldens() async throws {
        let scripts = try GoldenSuite.scripts(under: ["Tests/Goldens"])
        #expect(scripts.count >= 20)
        for script in scripts {
            let result = await suite.run(scriptAt: script, update: false)
            #expect(result.passed, "\(script)\n\(result.report)")
        }
    }

    @Test("one character changed in a golden fails with a diff that shows the line")
    func changedGolden() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("goldens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("quit.flows").path
        try Data("flow Unauthenticated\ntap quit\nexpect result quit\n".utf8).write(to: URL(fileURLWithPath: script))

        let written = await suite.run(scriptAt: script, update: true)
        #expect(written.passed)
        let golden = GoldenSuite.goldenPath(for: script)
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(await suite.run(scriptAt: script, update: false).passed)

        try Data(text.replacingOccurrences(of: "Quit (quit", with: "Quiz (quit").utf8).write(to: URL(fileURLWithPath: golden))
        let failed = await suite.run(scriptAt: script, update: false)
        #expect(!failed.passed)
        #expect(failed.report.contains("- \(text.split(separator: "\n").first { $0.contains("Actions:") }!.replacingOccurrences(of: "Quit (quit", with: "Quiz (quit"))"))
        #expect(failed.report.contains("+ \(text.split(separator: "\n").first { $0.contains("Actions:") }!)"))
        #expect(failed.report.contains("@@ line 1 of \(golden) @@"))
    }

    @Test("a script without its golden fails, saying how to write one")
    func missingGolden() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("goldens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("x.flows").path
        try Data("flow SignUp\ncancel\n".utf8).write(to: URL(fileURLWithPath: script))
        let result = await suite.run(scriptAt: script, update: false)
        #expect(!result.passed)
        #expect(result.report.contains("no golden transcript at \(GoldenSuite.goldenPath(for: script)); write it with --update"))
    }
}

@Suite("TextDiff")
struct TextDiffTests {
    @Test("equal texts have no diff; a changed line shows as - and + with context")
    func diff() {
        #expect(TextDiff.unified(expected: "a\nb\n", actual: "a\nb\n") == nil)
        let lines = (1...10).map { "line \($0)" }
        var changed = lines
        changed[6] = "line seven"
        let diff = TextDiff.unified(expected: lines.joined(separator: "\n"), actual: changed.joined(separator: "\n"))
        #expect(diff == """
            --- expected
            +++ actual
            @@ line 4 of expected @@
              line 4
              line 5
              line 6
            - line 7
            + line seven
              line 8
              line 9
              line 10
            """)
    }

    @Test("added and removed lines at the ends")
    func ends() {
        let diff = TextDiff.unified(expected: "b\nc", actual: "a\nb")
        #expect(diff?.contains("+ a") == true)
        #expect(diff?.contains("- c") == true)
    }
}
