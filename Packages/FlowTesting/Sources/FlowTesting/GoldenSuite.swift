import FlowKit
import Foundation

/// Replays every script under some folders against its golden transcript.
///
/// A script `NAME.flows` has its golden beside it, `NAME.transcript`. A script passes when every
/// step fits and its transcript equals the golden byte for byte; a mismatch prints a diff. With
/// `update`, goldens are written instead of compared (read the diff in review before committing).
public struct GoldenSuite: Sendable {
    /// How to run one script: the flow's name, its fixtures and the flow itself.
    public struct Launch: Sendable {
        public var flow: String
        public var prepare: ScriptRunner.Prepare?
        public var run: @Sendable (AppRouter) async -> AnyFlowOutcome
        /// A check of what the run left behind (the app recounts its ledger): a problem to
        /// report, or nil.
        public var afterwards: (@Sendable () async -> String?)?
        /// The store's contents, for `expect store unchanged`.
        public var contents: ScriptRunner.Contents?

        public init(
            flow: String, prepare: ScriptRunner.Prepare?, run: @escaping @Sendable (AppRouter) async -> AnyFlowOutcome,
            afterwards: (@Sendable () async -> String?)? = nil, contents: ScriptRunner.Contents? = nil
        ) {
            self.flow = flow
            self.prepare = prepare
            self.run = run
            self.afterwards = afterwards
            self.contents = contents
        }
    }

    /// What one script gave.
    public struct Result: Sendable {
        public var script: String
        public var passed: Bool
        /// Why it failed: a step's failure, a diff against the golden, or both.
        public var report: String
        public var run: ScriptRun?
    }

    public static let scriptExtension = "flows"
    public static let transcriptExtension = "transcript"

    /// Finds the launch for a script (by its `flow NAME` line); throws a sentence when it cannot.
    public let launcher: @Sendable (Script) throws -> Launch
    /// How long a step may take to settle before the flow counts as hung.
    public let stepLimit: Duration

    public init(stepLimit: Duration = .seconds(30), launcher: @escaping @Sendable (Script) throws -> Launch) {
        self.launcher = launcher
        self.stepLimit = stepLimit
    }

    /// Every script file under `paths` (files are taken as they are), sorted.
    public static func scripts(under paths: [String]) throws -> [String] {
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw SuiteError("no such file or folder: \(path)")
            }
            if !isDirectory.boolValue {
                found.append(path)
                continue
            }
            let walker = FileManager.default.enumerator(atPath: path)
            while let relative = walker?.nextObject() as? String {
                if relative.hasSuffix(".\(scriptExtension)") {
                    found.append((path as NSString).appendingPathComponent(relative))
                }
            }
        }
        return found.sorted()
    }

    /// Runs one script file against its golden.
    public func run(scriptAt path: String, update: Bool) async -> Result {
        let script: Script
        let launch: Launch
        do {
            let text = try ScriptFiles.read(path)
            script = try ScriptParser.parse(text, file: path)
            launch = try launcher(script)
        } catch {
            return Result(script: path, passed: false, report: "\(error)", run: nil)
        }
        let run = await ScriptRunner.run(
            script, flow: launch.flow, prepare: launch.prepare, contents: launch.contents, stepLimit: stepLimit, launch: launch.run
        )
        let goldenPath = Self.goldenPath(for: path)
        var problems: [String] = []
        if let failure = run.failure { problems.append(failure.description) }
        if let problem = await launch.afterwards?() { problems.append(problem) }

        if update {
            do {
                try ScriptFiles.write(run.transcript, to: goldenPath)
            } catch {
                problems.append(error.description)
            }
        } else if let golden = try? ScriptFiles.read(goldenPath) {
            if let diff = TextDiff.unified(expected: golden, actual: run.transcript, expectedName: goldenPath, actualName: "this run") {
                problems.append("the transcript differs from its golden:\n\(diff)")
            }
        } else if problems.isEmpty {
            // A script without a golden that fails (one --explore wrote) reports its failure alone.
            problems.append("no golden transcript at \(goldenPath); write it with --update and read it before committing")
        }
        return Result(script: path, passed: problems.isEmpty, report: problems.joined(separator: "\n"), run: run)
    }

    /// Runs every script of `paths` against its golden, up to `width` at once (each on its own
    /// store), and hands each result to `report` in the order of `paths`, as soon as it and
    /// every one before it are done.
    public func run(
        scriptsAt paths: [String], update: Bool, width: Int = ProcessInfo.processInfo.activeProcessorCount,
        report: (Result) -> Void
    ) async {
        await InOrder.run(paths.count, width: width, { index in await run(scriptAt: paths[index], update: update) }, then: report)
    }

    /// The golden transcript's path for a script's path.
    public static func goldenPath(for script: String) -> String {
        let base = script.hasSuffix(".\(scriptExtension)") ? String(script.dropLast(scriptExtension.count + 1)) : script
        return "\(base).\(transcriptExtension)"
    }

    struct SuiteError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
