import ArgumentParser
import Expenses
import FlowKit
import FlowTesting
import Foundation

/// `flows test`: replays scripts against their golden transcripts.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Replay scripts against their golden transcripts (see docs/scripts.md).",
        discussion: """
            Every NAME.flows script under the given files and folders (by default \(defaultFolder)) \
            runs against a fresh in-memory store with a fixed clock and seeded randomness, and its \
            transcript is compared with NAME.transcript beside it. Ends with "N passed, N failed"; \
            exits 1 when any failed.
            """
    )

    static let defaultFolder = "Tests/Goldens"

    @Argument(help: "Scripts, or folders to search for *.flows scripts.")
    var paths: [String] = []

    @Flag(help: "Report, per flow, which screens, actions and messages the scripts reached and which they never did.")
    var coverage = false

    @Flag(help: "Write each golden transcript from this run instead of comparing (review the diff before committing).")
    var update = false

    func run() async throws {
        let scripts: [String]
        do {
            scripts = try GoldenSuite.scripts(under: paths.isEmpty ? [Self.defaultFolder] : paths)
        } catch {
            throw UsageError("\(error)")
        }
        let suite = GoldenSuite(launcher: GoldenScripts.launch(for:))
        var passed = 0
        var failed = 0
        var runs: [ScriptRun] = []
        for script in scripts {
            let result = await suite.run(scriptAt: script, update: update)
            if let run = result.run { runs.append(run) }
            if result.passed {
                passed += 1
                StandardOutput.line("PASS \(script)\(update ? " (golden written)" : "")")
            } else {
                failed += 1
                StandardOutput.line("FAIL \(script)")
                StandardOutput.line(result.report.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }.joined(separator: "\n"))
            }
        }
        if coverage {
            StandardOutput.line(Coverage(inventories: FlowCatalog.entries.map { ($0.name, $0.inventory) }, runs: runs).report)
        }
        StandardOutput.line("\(passed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode.failure }
    }
}

/// How the project's scripts run under `flows test`: each on a fresh in-memory container, whose
/// ledger is recounted afterwards (`flows verify`).
public enum GoldenScripts {
    /// The launch for a script, by its `flow NAME` line; `given` steps set up the container.
    public static func launch(for script: Script) throws -> GoldenSuite.Launch {
        guard let name = script.flow else {
            throw UsageError("\(script.file): a script for flows test starts with 'flow NAME'")
        }
        guard let entry = FlowCatalog.entry(named: name) else {
            throw UsageError("\(script.file): unknown flow '\(name)'")
        }
        let container = AppContainer.inMemory()
        return GoldenSuite.Launch(
            flow: entry.name, prepare: ScriptFixtures.prepare(container),
            run: { router in await entry.run(container: container, router: router) },
            afterwards: {
                // Whatever the script wrote, every kept balance must match its recount.
                guard let verifier = container.verifier else { return nil }
                do throws(ExpensesError) {
                    let check = try await verifier.verify()
                    if check.isSound { return nil }
                    return VerifyCommand.report(check).joined(separator: "\n")
                } catch {
                    return "the ledger could not be recounted: \(error.message)"
                }
            }
        )
    }
}
