import FlowKit
import FlowTesting
import Foundation
import Synchronization
import Testing

// A tiny flow over a tiny store, to plant bugs the explorer must find: a name is typed, Next
// asks to confirm, Save writes it. The planted bug writes at Next, before the confirmation.

private enum NoteOutcome: FlowOutcome {
    case saved
    case cancelled

    var name: String {
        switch self {
        case .saved: "saved"
        case .cancelled: "cancelled"
        }
    }
}

/// The store: the notes written.
private actor Notes {
    private(set) var all: [String] = []
    func add(_ note: String) { all.append(note) }
    var contents: String { all.joined(separator: "\n") }
}

private enum Bug {
    case none
    /// Writes at Next, before the confirmation.
    case writesBeforeConfirming
    /// Never answers a tap on Wait.
    case hangs
}

private func noteFlow(_ notes: Notes, bug: Bug) -> @Sendable (AppRouter) async -> AnyFlowOutcome {
    { router in
        var name = ""
        var confirming = false
        while true {
            let screen = confirming
                ? Screen(id: "confirm", title: "Save \(name)?", actions: [Action(id: "save", label: "Save", role: .primary), Action(id: "back", label: "Back")])
                : Screen(
                    id: "form", title: "Note", fields: [Field(id: "name", label: "Name", input: .text(name))],
                    actions: [Action(id: "next", label: "Next", role: .primary), Action(id: "wait", label: "Wait"), Action(id: "cancel", label: "Cancel", role: .cancel)]
                )
            await router.present(screen)
            switch await router.nextEvent(on: screen.id) {
            case .fill("name", let text), .edit("name", let text):
                name = text
            case .tap("next") where !name.isEmpty:
                if bug == .writesBeforeConfirming { await notes.add(name) }
                confirming = true
            case .tap("wait") where bug == .hangs:
                try? await Task.sleep(for: .seconds(3600))
            case .tap("save"):
                if bug != .writesBeforeConfirming { await notes.add(name) }
                await router.dismiss(screen.id)
                return AnyFlowOutcome(NoteOutcome.saved)
            case .tap("back") where confirming, .back where confirming:
                confirming = false
            case .tap("cancel"), .back, .cancel:
                await router.dismiss(screen.id)
                return AnyFlowOutcome(NoteOutcome.cancelled)
            default:
                break
            }
            await router.dismiss(screen.id)
        }
    }
}

/// The notes' count as the store's change count, when `telling`.
private func counted(_ notes: Notes, if telling: Bool) -> (@Sendable () async -> Int)? {
    guard telling else { return nil }
    return { await notes.all.count }
}

/// - Parameter reads: when given, the store tells its change count (the notes written), and
///   each reading of its contents is counted here.
private func explorer(
    _ bug: Bug, stepLimit: Duration = .seconds(5), reads: Heard? = nil, check: (@Sendable (Notes) async -> String?)? = nil
) -> Explorer {
    Explorer(stepLimit: stepLimit) { flow in
        let notes = Notes()
        return Explorer.Launch(
            flow: flow, given: [], samples: ["Ada"], prepare: { _ in },
            run: noteFlow(notes, bug: bug),
            contents: {
                reads?.add("read")
                return await notes.contents
            },
            check: { await check?(notes) },
            changes: counted(notes, if: reads != nil)
        )
    }
}

@Suite("Exploring flows by random walks")
struct ExplorerTests {
    @Test("a flow that writes before its confirmation is found, shrunk to a short script, and the script replays the failure")
    func writesBeforeConfirming() async throws {
        let summary = try await explorer(.writesBeforeConfirming).explore(flows: ["Note"], walks: 200, seed: 7)
        let finding = try #require(summary.findings.first)
        guard case .storeChanged = finding.problem else {
            Issue.record("expected a changed store, found \(finding.problem)")
            return
        }
        // Type a name, Next, leave: three steps, and the cancels that end it.
        #expect(finding.steps.count <= 4, "\(finding.script)")
        #expect(finding.steps.contains(.tap("next")))
        #expect(finding.script.contains("flow Note\n"))
        #expect(finding.script.hasSuffix("expect result cancelled\nexpect store unchanged\n"))

        // The script, parsed back, fails at `expect store unchanged` on a fresh store.
        let script = try ScriptParser.parse(finding.script, file: "found.flows")
        let notes = Notes()
        let replay = await ScriptRunner.run(script, flow: "Note", contents: { await notes.contents }, launch: noteFlow(notes, bug: .writesBeforeConfirming))
        #expect(replay.failure?.step == "expect store unchanged")
        #expect(replay.failure?.message.contains("the store changed") == true)
        // Fixed, the same script passes.
        let fixed = Notes()
        let passing = await ScriptRunner.run(script, flow: "Note", contents: { await fixed.contents }, launch: noteFlow(fixed, bug: .none))
        #expect(passing.failure == nil)
    }

    @Test("told the store's change count, walks that wrote nothing never read the store, and a cancelled flow that wrote is still found")
    func changeCount() async throws {
        let quiet = Heard()
        let sound = try await explorer(.none, reads: quiet).explore(flows: ["Note"], walks: 200, seed: 7)
        #expect(sound.findings.isEmpty)
        #expect(quiet.all.isEmpty)

        let reads = Heard()
        let summary = try await explorer(.writesBeforeConfirming, reads: reads).explore(flows: ["Note"], walks: 200, seed: 7)
        let finding = try #require(summary.findings.first)
        guard case .storeChanged(let message) = finding.problem else {
            Issue.record("expected a changed store, found \(finding.problem)")
            return
        }
        // The store it started from, set up again on a fresh one, against the store after the walk.
        #expect(message.contains("the store before the walk"))
        #expect(finding.script.hasSuffix("expect result cancelled\nexpect store unchanged\n"))
        #expect(!reads.all.isEmpty && reads.all.count < 2 * summary.walks)
    }

    @Test("the same seed gives the same walks; another seed other walks")
    func seeded() async throws {
        let first = try await explorer(.writesBeforeConfirming).explore(flows: ["Note"], walks: 100, seed: 3)
        let again = try await explorer(.writesBeforeConfirming).explore(flows: ["Note"], walks: 100, seed: 3)
        let other = try await explorer(.writesBeforeConfirming).explore(flows: ["Note"], walks: 100, seed: 4)
        #expect(!first.findings.isEmpty)
        #expect(first.findings.map(\.script) == again.findings.map(\.script))
        #expect(first.steps == again.steps)
        #expect(first.steps != other.steps || first.findings.map(\.walk) != other.findings.map(\.walk))
    }

    @Test("a sound flow passes every walk, and walks type hostile text: control characters, very long, empty")
    func sound() async throws {
        let heard = Heard()
        var explorer = explorer(.none)
        explorer.journal = { _, script in if let script { heard.add(script) } }
        let summary = try await explorer.explore(flows: ["Note"], walks: 200, seed: 1)
        #expect(summary.walks == 200)
        #expect(summary.findings.isEmpty)
        #expect(summary.steps > 400)
        let typed = Set(heard.all.flatMap { $0.split(separator: "\n").filter { $0.hasPrefix("fill name ") } })
        #expect(typed.contains("fill name \"\""))
        #expect(typed.contains("fill name \"\\e[2J\\e[H\""))
        #expect(typed.contains { $0.count > 5_000 })
        #expect(typed.contains("fill name Ada"))
    }

    @Test("a step that never settles is reported as a hang, with the step")
    func hang() async throws {
        let summary = try await explorer(.hangs, stepLimit: .milliseconds(300)).explore(flows: ["Note"], walks: 30, seed: 1)
        let finding = try #require(summary.findings.first)
        guard case .hang(let message) = finding.problem else {
            Issue.record("expected a hang, found \(finding.problem)")
            return
        }
        #expect(message.contains("tap wait"))
        #expect(finding.steps.last == .tap("wait"))
        // Its script fails at that step under flows test, instead of hanging it.
        let script = try ScriptParser.parse(finding.script, file: "hang.flows")
        let notes = Notes()
        let replay = await ScriptRunner.run(script, flow: "Note", stepLimit: .milliseconds(300), launch: noteFlow(notes, bug: .hangs))
        #expect(replay.failure?.step == "tap wait")
        #expect(replay.failure?.message == "the flow did not settle within 0.3 seconds: it hangs")
    }

    @Test("the app's check of the store runs after every walk")
    func check() async throws {
        let summary = try await explorer(.none) { notes in
            await notes.all.contains { $0.count > 100 } ? "a note longer than 100 characters was kept" : nil
        }.explore(flows: ["Note"], walks: 300, seed: 2)
        let finding = try #require(summary.findings.first)
        #expect(finding.problem == .check("a note longer than 100 characters was kept"))
        #expect(finding.steps.contains(.tap("save")))
    }

    @Test("the walk in progress is told as a script before each of its steps, so a crash leaves it to replay")
    func journal() async throws {
        let heard = Heard()
        var explorer = explorer(.none)
        explorer.journal = { _, script in if let script { heard.add(script) } }
        let summary = try await explorer.explore(flows: ["Note"], walks: 3, seed: 5)
        let scripts = heard.all
        #expect(scripts.count == summary.steps)
        let last = try #require(scripts.last)
        #expect(last.hasPrefix("# The walk in progress (flows test --explore 3 --seed 5 Note, walk 3) when the run stopped.\nflow Note\n"))
        // Each is a script the parser reads, one step longer than the one before within a walk.
        let parsed = try ScriptParser.parse(last, file: "in-progress.flows")
        #expect(parsed.flow == "Note")
        #expect(!parsed.steps.isEmpty)
    }
}

private final class Heard: Sendable {
    private let scripts = Mutex<[String]>([])
    func add(_ script: String) { scripts.withLock { $0.append(script) } }
    var all: [String] { scripts.withLock { $0 } }
}
