import BenchmarkSupport
import FlowTesting
import FlowsApp
import Foundation

// In-process benchmarks of the harness (Scripts/bench): one scripted SignUp run, and the whole
// golden suite. Prints figures; asserts nothing.

let runs = Int(ProcessInfo.processInfo.environment["RUNS"] ?? "") ?? 200
let clock = ContinuousClock()
let signUp = try ScriptParser.parse(String(contentsOfFile: "Tests/Goldens/SignUp/happy-path.flows", encoding: .utf8), file: "happy-path.flows")

var times: [Double] = []
for _ in 0..<runs {
    let elapsed = try await clock.measure {
        let launch = try GoldenScripts.launch(for: signUp)
        let run = await ScriptRunner.run(signUp, flow: launch.flow, prepare: launch.prepare, launch: launch.run)
        if let failure = run.failure {
            print("the benchmark script failed: \(failure)")
            exit(1)
        }
    }
    times.append(milliseconds(elapsed))
}
print("Scripted SignUp run (in-memory store, bcrypt cost 4), median of \(runs): \(String(format: "%.2f", median(times))) ms  (target: under 5 ms)")

let scripts = try GoldenSuite.scripts(under: ["Tests/Goldens"])
let suite = GoldenSuite(launcher: GoldenScripts.launch(for:))
// As `flows test` runs it: as many scripts at once as there are cores, in one process.
func failures(of suite: GoldenSuite, _ scripts: [String]) async -> Int {
    var failed = 0
    await suite.run(scriptsAt: scripts, update: false) { result in
        if !result.passed { failed += 1 }
    }
    return failed
}
var failed = 0
let whole = await clock.measure { failed = await failures(of: suite, scripts) }
let perScript = milliseconds(whole) / Double(max(1, scripts.count))
print(
    "Whole golden suite: \(scripts.count) scripts in \(String(format: "%.1f", milliseconds(whole))) ms, "
        + "\(String(format: "%.2f", perScript)) ms a script (target: under 5 ms a script; \(failed) failed)"
)
