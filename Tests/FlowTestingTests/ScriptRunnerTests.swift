import FlowKit
import FlowTesting
import FlowsApp
import Foundation
import Testing

@Suite("Running scripts")
struct ScriptRunnerTests {
    private func run(_ text: String) async throws -> ScriptRun {
        let script = try ScriptParser.parse(text, file: "t.flows")
        let launch = try GoldenScripts.launch(for: script)
        return await ScriptRunner.run(script, flow: launch.flow, prepare: launch.prepare, launch: launch.run)
    }

    @Test("a wrong identifier fails naming the script line and listing what the screen offers")
    func wrongIdentifier() async throws {
        let result = try await run("flow SignIn\nfill email ada@example.com\nfill e-mail ada@example.com\ncancel\n")
        #expect(result.failure?.description == """
            t.flows:3: fill e-mail ada@example.com: the screen sign-in has no field e-mail; \
            the screen sign-in offers: fields email (text), password (secret); actions sign-in, create-account, cancel; back, cancel
            """)
        #expect(result.outcome?.name == "cancelled")
    }

    @Test("a step of the wrong kind says which verb fits", arguments: [
        ("choose email x", "t.flows:2: choose email x: email is a text field: use fill"),
        ("tap email", "t.flows:2: tap email: the screen sign-in has no action email"),
        ("expect screen home", "t.flows:2: expect screen home: expected screen home, the flow shows sign-in"),
        ("expect error email \"x\"", "t.flows:2: expect error email \"x\": expected error \"x\" on email, it shows no error"),
        ("expect error \"x\"", "t.flows:2: expect error \"x\": expected the screen's error \"x\", it shows no error"),
        ("expect result signed-in", "t.flows:2: expect result signed-in: the flow has not ended: it waits on sign-in"),
    ])
    func mismatches(step: String, message: String) async throws {
        let result = try await run("flow SignIn\n\(step)\ncancel\n")
        #expect(result.failure?.description.hasPrefix(message) == true, "\(result.failure?.description ?? "no failure")")
    }

    @Test("a given step once the flow has started is someone else's write while it waits")
    func lateGiven() async throws {
        // The account does not exist when the email is typed; it does when the form is sent.
        let result = try await run(
            "flow SignIn\nfill email a@b.co\ngiven account a@b.co 12345678 A\nfill password 12345678\ntap sign-in\nexpect result signed-in\n"
        )
        #expect(result.failure == nil, "\(result.failure?.description ?? "")")
        let refused = try await run("flow SignIn\nfill email a@b.co\ngiven friends a@b.co c@d.co\ncancel\n")
        #expect(refused.failure?.description.hasPrefix("t.flows:3: given friends a@b.co c@d.co: ") == true, "\(refused.failure?.description ?? "no failure")")
    }

    @Test("a script that stops while the flow waits fails, naming the screen")
    func unfinished() async throws {
        let result = try await run("flow SignUp\nfill email ada@example.com\n")
        #expect(result.failure?.message == "the script ended while the flow waits on sign-up; end it with an action that finishes the flow, or cancel")
    }

    @Test("a step after the flow ended says so")
    func afterTheEnd() async throws {
        let result = try await run("flow SignUp\ncancel\ntap create-account\n")
        #expect(result.failure?.description == "t.flows:3: tap create-account: the flow has already ended (cancelled)")
    }

    @Test("the same script twice gives byte-identical transcripts")
    func deterministic() async throws {
        let text = try String(contentsOfFile: "Tests/Goldens/App/new-user.flows", encoding: .utf8)
        let first = try await run(text)
        let second = try await run(text)
        #expect(first.failure == nil)
        #expect(first.transcript == second.transcript)
        #expect(first.transcript.contains("result closed (completed)"))
    }

    @Test("secrets are masked in the transcript's steps and screens")
    func secrets() async throws {
        let result = try await run("flow SignIn\nfill password \"hunter2 hunter2\"\ncancel\n")
        #expect(result.transcript.contains("> fill password ********"))
        #expect(!result.transcript.contains("hunter2"))
    }
}
