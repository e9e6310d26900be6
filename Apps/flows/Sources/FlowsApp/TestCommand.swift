import ArgumentParser
import Expenses
import FlowKit
import FlowTesting
import FlowsServices
import Foundation
import Primitives
import Synchronization

/// `flows test`: replays scripts against their golden transcripts, or explores flows at random.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Replay scripts against their golden transcripts (see docs/scripts.md), or explore flows by random walks.",
        discussion: """
            Every NAME.flows script under the given files and folders (by default \(defaultFolder)) \
            runs against a fresh in-memory store with a fixed clock and seeded randomness (as many \
            at once as the machine has cores, reported in order), and its transcript is compared \
            with NAME.transcript beside it. Ends with "N passed, N failed"; \
            exits 1 when any failed.

            With --explore N, the arguments are flow names (by default every flow): N random walks \
            over each, on a fresh store each, checked after every walk (no step stuck, the ledger \
            recounts, balances sum to zero, a cancelled flow left the store as it was). Each failing \
            walk is shrunk and written as a script under --output; `flows test FILE` replays it. \
            Walks run as many at once as the machine has cores, each on its own store, and are \
            reported in order. A walk that crashes the process stays in --output as \
            walk-in-progress-FLOW-N.flows. The same --seed gives the same walks. Exits 1 when any \
            walk failed.
            """
    )

    static let defaultFolder = "Tests/Goldens"

    @Argument(help: "Scripts, or folders to search for *.flows scripts; with --explore, flow names.")
    var paths: [String] = []

    @Flag(help: "Report, per flow, which screens, actions and messages the scripts reached and which they never did.")
    var coverage = false

    @Flag(help: "Write each golden transcript from this run instead of comparing (review the diff before committing).")
    var update = false

    @Option(help: ArgumentHelp("Run this many random walks over each flow instead of the scripts.", valueName: "N"))
    var explore: Int?

    @Option(help: "The seed of the walks: the same seed gives the same walks.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Where --explore writes the scripts of failing walks.", valueName: "folder"))
    var output = ".build/explore"

    func validate() throws {
        if let explore, explore < 1 { throw ValidationError("--explore takes a number of walks, 1 or more") }
        if explore != nil, update { throw ValidationError("--explore runs walks, not scripts: it writes no goldens") }
    }

    func run() async throws {
        if let explore { return try await exploring(walks: explore) }
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
        let update = update
        await suite.run(scriptsAt: scripts, update: update) { result in
            if let run = result.run { runs.append(run) }
            if result.passed {
                passed += 1
                StandardOutput.line("PASS \(result.script)\(update ? " (golden written)" : "")")
            } else {
                failed += 1
                StandardOutput.line("FAIL \(result.script)")
                StandardOutput.line(Self.indented(result.report))
            }
        }
        if coverage {
            StandardOutput.line(Coverage(inventories: FlowCatalog.entries.map { ($0.name, $0.inventory) }, runs: runs).report)
        }
        StandardOutput.line("\(passed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode.failure }
    }

    private func exploring(walks: Int) async throws {
        var flows: [String] = []
        for name in paths {
            guard let entry = FlowCatalog.entry(named: name) else { throw UsageError("unknown flow '\(name)'; flows list names them") }
            flows.append(entry.name)
        }
        if flows.isEmpty { flows = FlowCatalog.entries.map(\.name) }
        var explorer = Explorer(command: "flows test --explore", launcher: GoldenScripts.exploration(of:))
        let folder = output
        // Each walk in progress, kept in a file until it ends: a walk that crashes the process
        // stays there, to replay.
        let journal = WalkJournal(folder: folder)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw UsageError("--output \(folder): \(error.localizedDescription)")
        }
        explorer.journal = { walk, script in journal.note(walk, script) }
        explorer.collectsCoverage = coverage
        explorer.width = ProcessInfo.processInfo.activeProcessorCount
        let clock = ContinuousClock()
        let started = clock.now
        let summary = try await explorer.explore(flows: flows, walks: walks, seed: seed) { finding in
            let path = (folder as NSString).appendingPathComponent("\(finding.flow)-walk-\(finding.walk + 1).flows")
            var written = path
            do {
                try ScriptFiles.write(finding.script, to: path)
            } catch {
                written = "(not written: \(error))"
            }
            StandardOutput.line("FAIL \(finding.flow), walk \(finding.walk + 1): \(finding.problem.message.split(separator: "\n").first ?? "")")
            StandardOutput.line("  shrunk from \(finding.originalSteps) steps to \(finding.steps.count); replay: flows test \(written)")
            StandardOutput.line(Self.indented(finding.script))
        }
        if coverage {
            StandardOutput.line(Coverage(inventories: FlowCatalog.entries.map { ($0.name, $0.inventory) }, runs: summary.runs).report)
        }
        let seconds = (clock.now - started) / .seconds(1)
        let rate = seconds > 0 ? Double(summary.walks) / seconds : 0
        StandardOutput.line(
            "Explored \(flows.count) flows: \(summary.walks) walks, \(summary.steps) steps, seed \(seed), "
                + "\(String(format: "%.1f", seconds)) s (\(String(format: "%.0f", rate)) walks/s); \(summary.findings.count) failed"
        )
        if !summary.findings.isEmpty { throw ExitCode.failure }
    }

    private static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }.joined(separator: "\n")
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
            afterwards: { await ledgerProblem(in: container) },
            contents: { contents(of: container) }
        )
    }

    /// The launch for a script whose flow runs on a container made when the run starts (a
    /// server's client, say), with its `given` steps on `fixtures`: services on the same data,
    /// acting as the users the steps name; `given` runs after each (a replica told of the
    /// change, say). `finish` runs once the flow has ended and says what is wrong, if anything.
    public static func launch(
        for script: Script,
        fixtures: AppContainer,
        given: @escaping @Sendable () async -> Void = {},
        container: @escaping @Sendable () async -> AppContainer,
        finish: @escaping @Sendable () async -> String?
    ) throws -> GoldenSuite.Launch {
        guard let name = script.flow, let entry = FlowCatalog.entry(named: name) else {
            throw UsageError("\(script.file): a script for flows test starts with 'flow NAME' naming a flow")
        }
        let prepare = ScriptFixtures.prepare(fixtures)
        return GoldenSuite.Launch(
            flow: entry.name,
            prepare: { words in
                try await prepare(words)
                await given()
            },
            run: { router in await entry.run(container: await container(), router: router) },
            afterwards: finish
        )
    }

    /// The launch of random walks over a flow: a fresh in-memory store set up with two friends
    /// with accounts, an account that is no one's friend yet, a contact and expenses in two currencies (the user signed in for a flow
    /// that needs one), checked after each walk like a script's.
    public static func exploration(of name: String) throws -> Explorer.Launch {
        guard let entry = FlowCatalog.entry(named: name) else { throw UsageError("unknown flow '\(name)'") }
        let container = AppContainer.inMemory()
        let ada = ["ada@example.com", "correct horse", "Ada Lovelace"]
        let given: [[String]] = [
            ["account", "bob@example.com", "correct horse", "Bob Stone"],
            ["account", "cy@example.com", "correct horse", "Cy Young"],
            ["account", "dee@example.com", "correct horse", "Dee Ray"],
            // Last of the accounts: signing another up signs Ada out.
            [entry.needsUser ? "signed-in" : "account"] + ada,
            ["friends", "ada@example.com", "bob@example.com"],
            ["friends", "ada@example.com", "cy@example.com"],
            // Cy's museum names Bob: an expense names only its writer's friends.
            ["friends", "bob@example.com", "cy@example.com"],
            ["contact", "ada@example.com", "Sam Park", "sam@example.com"],
            ["expense", "bob@example.com", "Dinner", "24.00", "EUR", "2026-11-20", "ada@example.com"],
            ["comment", "bob@example.com", "Dinner", "The wine was 12.00 of it."],
            ["repeat", "bob@example.com", "Dinner", "monthly"],
            ["expense", "ada@example.com", "Taxi", "10.00", "EUR", "2026-11-21", "cy@example.com"],
            ["comment", "ada@example.com", "Taxi", "Paid by card."],
            ["expense", "cy@example.com", "Museum", "12.00", "USD", "2026-11-21", "ada@example.com", "bob@example.com"],
            // A group with a contact in it, and an expense there.
            ["group", "ada@example.com", "Kyoto trip", "trip", "JPY", "bob@example.com", "Sam Park"],
            ["group-expense", "bob@example.com", "Kyoto trip", "Ramen", "3000", "JPY", "2026-11-21", "ada@example.com"],
        ]
        return Explorer.Launch(
            flow: entry.name,
            given: given,
            samples: [
                "ada@example.com", "bob@example.com", "cy@example.com", "dee@example.com", "sam@example.com",
                "Dee Ray", "Sam Park", "Bob Stone", "correct horse", "Dinner",
            ],
            prepare: ScriptFixtures.prepare(container),
            run: { router in await entry.run(container: container, router: router) },
            contents: { contents(of: container) },
            check: { await ledgerProblem(in: container) },
            changes: container.database.map { database in { @Sendable in (try? database.changeCount()) ?? -1 } },
            setUp: { try await SetUps.shared.setUp(container, given: given) }
        )
    }

    /// What is wrong with the ledger a run left: a balance that differs from its recount, an
    /// expense that does not add up, or balances in a currency that do not sum to zero over
    /// everyone (each person's as the service reports them); nil when all is well.
    static func ledgerProblem(in container: AppContainer) async -> String? {
        guard let verifier = container.verifier else { return nil }
        do throws(ExpensesError) {
            let check = try await verifier.verify()
            if !check.isSound { return VerifyCommand.report(check).joined(separator: "\n") }
            guard let database = container.database else { return nil }
            let people: [String]
            do {
                people = try database.read { db in
                    try String.fetchAll(db, sql: "SELECT user_low FROM balance UNION SELECT user_high FROM balance")
                }
            } catch {
                return "the balances could not be read: \(error)"
            }
            var sums: [String: Int128] = [:]
            for person in people {
                for balance in try await container.expenses.balances(of: UserID(rawValue: person)) {
                    sums[balance.amount.currency.code, default: 0] += Int128(balance.amount.minorUnits)
                }
            }
            let uneven = sums.filter { $0.value != 0 }.sorted { $0.key < $1.key }
            guard uneven.isEmpty else {
                return "balances do not sum to zero: " + uneven.map { "\($0.key) \($0.value) minor units" }.joined(separator: ", ")
            }
            return nil
        } catch {
            return "the ledger could not be recounted: \(error.message)"
        }
    }

    /// Everything the container's store holds, as text (empty without a store).
    static func contents(of container: AppContainer) -> String {
        guard let database = container.database else { return "" }
        do {
            return try database.contents()
        } catch {
            return "the store could not be read: \(error)"
        }
    }
}

/// Where `given` steps leave a fresh in-memory container, by the steps: each set-up runs once per
/// process, and every later fresh container is put where it left the first
/// (``AppContainer/restore(_:)``), which costs a copy of its rows instead of every sign-up,
/// friendship and expense again. Keyed by the steps alone: every container it sets up is
/// `AppContainer.inMemory()` with its default seed and clock.
final class SetUps: Sendable {
    static let shared = SetUps()
    private let done = Mutex<[[[String]]: LocalServices.Snapshot]>([:])

    /// Sets `container`, fresh, up as `given` says.
    func setUp(_ container: AppContainer, given: [[String]]) async throws {
        if let known = done.withLock({ $0[given] }) {
            try container.restore(known)
            return
        }
        let prepare = ScriptFixtures.prepare(container)
        for words in given { try await prepare(words) }
        if let snapshot = try container.snapshot() {
            done.withLock { $0[given] = snapshot }
        }
    }
}
