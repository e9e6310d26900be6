import FlowKit
import FlowTesting
import FlowsApp
import Testing

@Suite("Coverage")
struct CoverageTests {
    private func run(_ text: String) async throws -> ScriptRun {
        let script = try ScriptParser.parse(text, file: "c.flows")
        let launch = try GoldenScripts.launch(for: script)
        return await ScriptRunner.run(script, flow: launch.flow, prepare: launch.prepare, launch: launch.run)
    }

    @Test("counts the screens, actions and messages scripts reached, and lists the rest")
    func figures() async throws {
        let runs = [
            try await run("flow SignIn\nfill email nope\ncancel\n"),
            try await run("flow SignIn\ntap create-account\ntap cancel\ncancel\n"),
        ]
        let inventories = FlowCatalog.entries.filter { ["SignIn", "SignUp", "App"].contains($0.name) }.map { ($0.name, $0.inventory) }
        let coverage = Coverage(inventories: inventories, runs: runs)
        let signIn = try #require(coverage.flows.first { $0.name == "SignIn" })
        #expect(signIn.reachedScreens == ["sign-in"])
        #expect(signIn.reachedActions == ["sign-in/create-account"])
        #expect(signIn.missedActions == ["sign-in/sign-in", "sign-in/cancel"])
        #expect(signIn.reachedMessages == [.exact("Enter an email address like name@example.com.")])
        #expect(signIn.missedMessages.contains(.exact("wrong email or password")))
        let signUp = try #require(coverage.flows.first { $0.name == "SignUp" })
        #expect(signUp.reachedActions == ["sign-up/cancel"])
        let app = try #require(coverage.flows.first { $0.name == "App" })
        #expect(app.missedScreens == ["app-unavailable"])
        #expect(coverage.report.contains("SignIn\n  screens 1/1\n    reached: sign-in\n  actions 1/3"))
        #expect(coverage.report.contains("    never:   \"The local store is unavailable: ...\""))
    }
}
