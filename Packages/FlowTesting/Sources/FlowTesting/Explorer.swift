import FlowKit
import Foundation

/// Random walks over flows: each step is chosen among what the screen on show offers, with good,
/// bad and hostile answers, and after every walk the app's invariants are checked.
///
/// A walk runs on a fresh store set up by its `given` steps. It fails when a step does not settle
/// within ``stepLimit`` (the flow hangs), when the app's check of the store reports a problem
/// (its ledger does not recount), or when the flow ended cancelled, no flow it started kept
/// anything (every child ended cancelled too), and yet the store changed: a cancelled flow has
/// written nothing. A failing walk is shrunk to the fewest steps that fail the same way and
/// written as a script that `flows test` replays. The same seed gives the same walks.
public struct Explorer: Sendable {
    /// How to run walks of one flow: a fresh store for each.
    public struct Launch: Sendable {
        public var flow: String
        /// The `given` steps that set up the store every walk starts from.
        public var given: [[String]]
        public var prepare: ScriptRunner.Prepare
        public var run: @Sendable (AppRouter) async -> AnyFlowOutcome
        /// Everything the store holds, as text.
        public var contents: ScriptRunner.Contents
        /// The app's check of the store after a walk: a problem, or nil.
        public var check: @Sendable () async -> String?
        /// Text that means something in the store the walks start from (its people's emails and
        /// names, their password), typed more often than the rest: a walk gets further with it.
        public var samples: [String]
        /// How many changes the store has taken so far (rows written, even ones rolled back), when
        /// it can tell: a walk whose count did not move left the store as it was, and its
        /// contents are read only when it moved (the store it started from is then set up again).
        public var changes: (@Sendable () async -> Int)?
        /// Sets the store up as the `given` steps would, faster (put back where the steps left
        /// another store, say); nil: the steps run one by one through `prepare`. Either way the
        /// scripts the explorer writes replay the steps.
        public var setUp: (@Sendable () async throws -> Void)?

        public init(
            flow: String, given: [[String]], samples: [String] = [], prepare: @escaping ScriptRunner.Prepare,
            run: @escaping @Sendable (AppRouter) async -> AnyFlowOutcome,
            contents: @escaping ScriptRunner.Contents, check: @escaping @Sendable () async -> String?,
            changes: (@Sendable () async -> Int)? = nil, setUp: (@Sendable () async throws -> Void)? = nil
        ) {
            self.setUp = setUp
            self.changes = changes
            self.flow = flow
            self.given = given
            self.samples = samples
            self.prepare = prepare
            self.run = run
            self.contents = contents
            self.check = check
        }
    }

    /// What went wrong in a walk.
    public enum Problem: Sendable, Equatable {
        /// A step did not settle in time.
        case hang(String)
        /// The app's check of the store failed.
        case check(String)
        /// The flow ended cancelled and the store changed.
        case storeChanged(String)
        /// The walk could not be set up or replayed (a `given` step failed).
        case setUp(String)

        /// Walks fail the same way when their problems are of one kind.
        var kind: String {
            switch self {
            case .hang: "a step that never settled"
            case .check: "a store that fails its check"
            case .storeChanged: "a cancelled flow that changed the store"
            case .setUp: "a walk that could not be set up"
            }
        }

        public var message: String {
            switch self {
            case .hang(let text), .check(let text), .storeChanged(let text), .setUp(let text): text
            }
        }
    }

    /// A failing walk, shrunk, as a script.
    public struct Finding: Sendable {
        public var flow: String
        public var walk: Int
        public var problem: Problem
        /// The steps of the walk as it ran, then as shrunk.
        public var originalSteps: Int
        public var steps: [Script.Verb]
        /// The script that replays it under `flows test`.
        public var script: String
    }

    /// What a run of walks found.
    public struct Summary: Sendable {
        public var walks = 0
        public var steps = 0
        public var findings: [Finding] = []
        /// Each walk's screens and taps, for ``Coverage`` (when the explorer collects them).
        public var runs: [ScriptRun] = []
    }

    /// The launch for a flow, by name; throws a sentence when there is none.
    public let launcher: @Sendable (String) throws -> Launch
    /// The most steps a walk takes before it cancels.
    public var maxSteps: Int
    /// How long a step may take to settle.
    public var stepLimit: Duration
    /// How a run is named in the scripts it writes (`flows test --explore 2000 --seed 7`).
    public var command: String
    /// Hears each walk in progress, by its name (`Note-3` for the third walk over Note), as a
    /// script before each step, and with nil once the walk is over: a walk that crashes the
    /// process is not lost (the app keeps each one in progress in a file).
    public var journal: (@Sendable (_ walk: String, _ script: String?) -> Void)?
    /// Whether the summary keeps every walk's screens and taps (for ``Coverage``).
    public var collectsCoverage = false
    /// How many walks run at once, each on its own store; the summary and the findings come in
    /// the order of the walks whatever the width.
    public var width = 1

    public init(
        maxSteps: Int = 24, stepLimit: Duration = .seconds(5), command: String = "flows test --explore",
        launcher: @escaping @Sendable (String) throws -> Launch
    ) {
        self.maxSteps = maxSteps
        self.stepLimit = stepLimit
        self.command = command
        self.launcher = launcher
    }

    /// Runs `walks` walks over each of `flows`, ``width`` at once. `found` hears each finding as
    /// it is made (a run goes on after one), in the order of the walks.
    public func explore(
        flows: [String], walks: Int, seed: UInt64,
        found: @Sendable (Finding) async -> Void = { _ in }
    ) async throws -> Summary {
        let jobs = flows.flatMap { flow in (0..<max(0, walks)).map { (flow: flow, walk: $0) } }
        var summary = Summary()
        var failure: (any Error)?
        await InOrder.run(jobs.count, width: width, { index in
            let (flow, walk) = jobs[index]
            do {
                return .success(try await self.walk(flow, number: walk, of: walks, seed: seed))
            } catch {
                return .failure(error)
            }
        }, then: { (outcome: Result<WalkReport, any Error>) in
            switch outcome {
            case .failure(let error):
                failure = failure ?? error
            case .success(let report):
                summary.walks += 1
                summary.steps += report.steps
                if let run = report.run { summary.runs.append(run) }
                if let finding = report.finding {
                    summary.findings.append(finding)
                    await found(finding)
                }
            }
        })
        if let failure { throw failure }
        return summary
    }

    /// What one walk adds to the summary.
    private struct WalkReport: Sendable {
        var steps: Int
        var run: ScriptRun?
        var finding: Finding?
    }

    /// Runs walk `number` (of `walks`) over `flow`, and shrinks it when it fails.
    private func walk(_ flow: String, number walk: Int, of walks: Int, seed: UInt64) async throws -> WalkReport {
        let launch = try launcher(flow)
        let plan = Plan.random(seed: Self.seed(seed, flow: flow, walk: walk), maxSteps: maxSteps)
        let header = "# The walk in progress (\(command) \(walks) --seed \(seed) \(flow), walk \(walk + 1)) when the run stopped.\nflow \(flow)\n"
            + launch.given.map { Script.Verb.given($0).scriptLine + "\n" }.joined()
        let name = "\(flow)-\(walk + 1)"
        let journal = journal.map { write in { @Sendable (steps: [Script.Verb]) in write(name, header + steps.map { $0.scriptLine + "\n" }.joined()) } }
        let result = await Self.walk(launch, plan: plan, stepLimit: stepLimit, journal: journal, relaunch: { try? launcher(flow) })
        self.journal?(name, nil)
        var report = WalkReport(steps: result.steps.count)
        if collectsCoverage {
            report.run = ScriptRun(transcript: "", outcome: nil, failure: nil, screens: result.screens, taps: result.taps)
        }
        if let problem = result.problem {
            report.finding = await shrink(result, problem: problem, flow: flow, walk: walk, seed: seed, walks: walks)
        }
        return report
    }

    /// A walk's own seed: the run's, the flow's name and the walk's number, mixed.
    static func seed(_ seed: UInt64, flow: String, walk: Int) -> UInt64 {
        var mixed = SeededRandom(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        for byte in flow.utf8 { mixed = SeededRandom(seed: mixed.next() ^ UInt64(byte)) }
        var walkSeed = SeededRandom(seed: mixed.next() ^ UInt64(truncatingIfNeeded: walk))
        return walkSeed.next()
    }

    // MARK: - Shrinking

    /// Removes steps while the walk still fails the same way: runs of steps, longest first
    /// (halves, then runs of four down to one), until no removal keeps the failure, within a
    /// bounded number of replays.
    private func shrink(_ failing: WalkResult, problem: Problem, flow: String, walk: Int, seed: UInt64, walks: Int) async -> Finding {
        var steps = failing.chosen
        var best = failing
        var replays = 0
        // A hang costs a whole step limit per replay: few replays for those.
        let budget = if case .hang = problem { 12 } else { 400 }
        var progressed = true
        while progressed, replays < budget {
            progressed = false
            var sizes = [steps.count / 2, steps.count / 4] + [4, 3, 2, 1]
            sizes = sizes.filter { $0 >= 1 && $0 < steps.count }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
            for size in sizes {
                var start = 0
                while start + size <= steps.count, replays < budget {
                    var candidate = steps
                    candidate.removeSubrange(start..<(start + size))
                    replays += 1
                    guard let launch = try? launcher(flow) else { break }
                    let result = await Self.walk(launch, plan: .replay(candidate), stepLimit: stepLimit, relaunch: { try? launcher(flow) })
                    if let found = result.problem, found.kind == problem.kind, !result.refused {
                        steps = candidate
                        best = result
                        progressed = true
                    } else {
                        start += 1
                    }
                }
            }
        }
        let finalProblem = best.problem ?? problem
        let script = scriptText(for: best, problem: finalProblem, flow: flow, walk: walk, seed: seed, walks: walks, originalSteps: failing.steps.count)
        return Finding(flow: flow, walk: walk, problem: finalProblem, originalSteps: failing.steps.count, steps: best.steps, script: script)
    }

    private func scriptText(
        for walk: WalkResult, problem: Problem, flow: String, walk number: Int, seed: UInt64, walks: Int, originalSteps: Int
    ) -> String {
        let launch = try? launcher(flow)
        var lines = [
            "# Found by \(command) \(walks) --seed \(seed) \(flow) (walk \(number + 1)): \(problem.kind).",
            "# Shrunk from \(originalSteps) steps to \(walk.steps.count). It replays under flows test.",
        ]
        lines += problem.message.split(separator: "\n", omittingEmptySubsequences: false).prefix(12).map { "#   \($0)" }
        lines.append("flow \(flow)")
        lines += (launch?.given ?? []).map { Script.Verb.given($0).scriptLine }
        lines += walk.steps.map(\.scriptLine)
        if let outcome = walk.outcome { lines.append(Script.Verb.expectResult(outcome).scriptLine) }
        if case .storeChanged = problem { lines.append(Script.Verb.expectStoreUnchanged.scriptLine) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - One walk

    /// Where a walk's steps come from.
    enum Plan {
        case random(seed: UInt64, maxSteps: Int)
        case replay([Script.Verb])
    }

    /// The name every flow gives its cancelled result.
    static let cancelled = "cancelled"
    /// The most cancels that end a walk: a deeper stack of screens than any flow has.
    static let mostCancels = 20

    struct WalkResult: Sendable {
        /// Every step sent, the cancels that ended the walk included.
        var steps: [Script.Verb] = []
        /// The steps chosen (random or replayed), without the cancels added to end the walk.
        var chosen: [Script.Verb] = []
        var outcome: String?
        var problem: Problem?
        /// A replayed step did not fit its screen: the walk went elsewhere.
        var refused = false
        /// Every screen waited on, and every action taken with its screen.
        var screens: [Screen] = []
        var taps: [(screen: ScreenID, action: ElementID)] = []
    }

    /// - Parameter relaunch: a fresh launch of the same flow, to set up the store the walk started
    ///   from again when its contents are needed (``Launch/changes``).
    static func walk(
        _ launch: Launch, plan: Plan, stepLimit: Duration, journal: (@Sendable ([Script.Verb]) -> Void)? = nil,
        relaunch: @Sendable () -> Launch? = { nil }
    ) async -> WalkResult {
        var result = WalkResult()
        if let problem = await launch.setUpStore() {
            result.problem = .setUp(problem)
            return result
        }
        // What the store held once set up: its change count when it keeps one, else its contents.
        let count = await launch.changes?()
        let baseline = count == nil ? await launch.contents() : nil
        let children = ChildOutcomes()
        let run = FlowRun(starter: ObservingStarter(outcomes: children), launch.run)
        var replay: [Script.Verb] = []
        var random: SeededRandom?
        var maxSteps = 0
        switch plan {
        case .random(let seed, let limit): (random, maxSteps) = (SeededRandom(seed: seed), limit)
        case .replay(let steps): (replay, maxSteps) = (steps, steps.count)
        }

        var settled = await run.idleScreen(within: stepLimit)
        var cancels = 0
        while true {
            guard case .screen(let waiting) = settled else {
                result.problem = .hang("the flow did not settle within \(stepLimit) after: \(result.steps.last?.scriptLine ?? "its start")")
                await run.abandon()
                return result
            }
            guard let current = waiting else { break }
            result.screens.append(current)
            let verb: Script.Verb
            if result.refused || result.chosen.count >= maxSteps {
                // The walk is over: cancel until the flow ends, each screen of a stack its own.
                cancels += 1
                guard cancels <= Self.mostCancels else {
                    result.problem = .hang("the flow did not end after \(Self.mostCancels) cancels; it waits on \(current.id)")
                    await run.abandon()
                    return result
                }
                verb = .cancel
            } else if var generator = random {
                verb = StepChooser.step(on: current, samples: launch.samples, using: &generator)
                random = generator
                result.chosen.append(verb)
            } else {
                verb = replay[result.chosen.count]
                if let event = verb.event, ScreenOffers.mismatch(of: event, on: current) != nil {
                    // The replay went elsewhere than the walk: this candidate does not count.
                    result.refused = true
                    continue
                }
                result.chosen.append(verb)
            }
            result.steps.append(verb)
            if case .tap(let action) = verb { result.taps.append((current.id, action)) }
            journal?(result.steps)
            guard let event = verb.event else { continue }
            _ = await run.host.send(event)
            settled = await run.idleScreen(within: stepLimit)
        }
        let outcome = await run.outcome()
        result.outcome = outcome.name
        if let problem = await launch.check() {
            result.problem = .check(problem)
        } else if outcome.name == Self.cancelled, await children.allCancelled, await changed(since: count, launch),
                  let before = await Self.baseline(or: baseline, relaunch()) {
            let now = await launch.contents()
            if let diff = TextDiff.unified(expected: before, actual: now, expectedName: "the store before the walk", actualName: "the store after it") {
                result.problem = .storeChanged("the flow ended cancelled, and the store changed:\n\(diff)")
            }
        }
        return result
    }

    /// The contents the store started from: `known`, or else as set up again on `fresh`.
    private static func baseline(or known: String?, _ fresh: Launch?) async -> String? {
        if let known { return known }
        return await setUpAgain(fresh)
    }

    /// Whether the store may have changed since its change count was `count` (nil: unknown).
    private static func changed(since count: Int?, _ launch: Launch) async -> Bool {
        guard let count, let changes = launch.changes else { return true }
        return await changes() != count
    }

    /// The contents of the store a walk started from, set up again by its `given` steps on a
    /// fresh store of the same launch (the same seed gives the same store); nil if it cannot be.
    private static func setUpAgain(_ launch: Launch?) async -> String? {
        guard let fresh = launch, await fresh.setUpStore() == nil else { return nil }
        return await fresh.contents()
    }
}

extension Explorer.Launch {
    /// Sets the store up (``setUp``, else the `given` steps one by one); what went wrong, or nil.
    func setUpStore() async -> String? {
        if let setUp {
            do {
                try await setUp()
                return nil
            } catch {
                return "setting the store up: \(error)"
            }
        }
        for words in given {
            do {
                try await prepare(words)
            } catch {
                return "\(Script.Verb.given(words).scriptLine): \(error)"
            }
        }
        return nil
    }
}

/// The results of the children a walk's flow started, by name.
actor ChildOutcomes {
    private(set) var names: [String] = []
    func append(_ name: String) { names.append(name) }
    var allCancelled: Bool { names.allSatisfy { $0 == Explorer.cancelled } }
}

/// Performs every child, noting how each ended.
struct ObservingStarter: FlowStarter {
    let outcomes: ChildOutcomes

    func start<Child: Flow>(_ child: Child) async -> Child.FlowResult {
        let result = await child.perform()
        await outcomes.append(result.name)
        return result
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same numbers everywhere.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
