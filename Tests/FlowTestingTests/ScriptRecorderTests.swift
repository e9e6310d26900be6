import FlowKit
import FlowTerminal
import FlowTesting
import FlowsApp
import Testing

@Suite("Recording a session as a script")
struct ScriptRecorderTests {
    @Test("a piped session becomes a script with its screens and errors, and the script replays")
    func recordAndReplay() async throws {
        let renderer = PlainRenderer(
            input: LinesInput(["nope", "ada@example.com", "correct horse", "Ada Lovelace"]),
            output: TextBuffer()
        )
        let recorder = ScriptRecorder(wrapping: renderer, flow: "SignUp")
        let entry = try #require(FlowCatalog.entry(named: "SignUp"))
        let outcome = await entry.run(container: AppContainer.inMemory(), router: AppRouter(host: recorder))
        let text = await recorder.script(endingWith: outcome)
        #expect(text == """
            # Recorded with flows run SignUp --record. Secret answers are written as typed.
            flow SignUp
            expect screen sign-up
            fill email nope
            expect error email "Enter an email address like name@example.com."
            fill email ada@example.com
            fill password correct horse
            fill display-name Ada Lovelace
            tap create-account
            expect result signed-up

            """)

        let script = try ScriptParser.parse(text, file: "recorded.flows")
        let launch = try GoldenScripts.launch(for: script)
        let replay = await ScriptRunner.run(script, flow: launch.flow, prepare: launch.prepare, launch: launch.run)
        #expect(replay.failure == nil)
        #expect(replay.outcome?.name == "signed-up")
    }
}
