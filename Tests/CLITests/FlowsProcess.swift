import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `flows` executable, run as a person or a script would run it.
struct FlowsProcess {
    /// `flows` sits beside the test bundle in the build folder (`swift build --build-tests`
    /// builds both).
    static let executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("flows")

    /// How long one run may take before it is killed and its test fails: far above what any run
    /// takes under the whole suite's load, and far below CI's own limit.
    static let limit: Double = 180

    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("flows-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    func removeHome() {
        try? FileManager.default.removeItem(at: home)
    }

    func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FLOWS_HOME"] = home.path
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs `flows` with `arguments`, feeding `input` on standard input, and waits for it to end.
    func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) async throws -> Outcome {
        try await run(arguments, bytes: Array(input.utf8), environment: extra)
    }

    /// Runs `flows` with `arguments`, feeding these bytes (UTF-8 or not) on standard input.
    /// Standard output is read unless it goes to `output` (then `stdout` is empty).
    func run(
        _ arguments: [String], bytes: [UInt8], environment extra: [String: String] = [:], stdout output: FileHandle? = nil
    ) async throws -> Outcome {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment(extra)
        let stdin = Pipe()
        let stdout = output == nil ? Pipe() : nil
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = output ?? stdout
        process.standardError = stderr
        try process.run()
        let watchdog = Watchdog(pid: process.processIdentifier, seconds: Self.limit)
        let outcome = try await onOwnThread {
            // Every pipe is served at once, so neither side ever waits on a full one.
            let errors = Collected(stderr)
            let written = Collected.Writer(bytes, to: stdin)
            let out = stdout?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            process.waitUntilExit()
            written.wait()
            return Outcome(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: errors.all())
        }
        if watchdog.cancel() {
            throw ProcessFailure("flows \(arguments.joined(separator: " ")) did not end within \(Int(Self.limit)) s and was killed; it wrote:\n\(outcome.stderr)")
        }
        return outcome
    }
}

/// Runs `body` on a thread of its own and waits for it without holding a thread: tests share
/// a pool of as many threads as the machine has cores, and a wait for a child process there
/// would stall every other test.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}

/// Kills a child process that has not ended within its time, so a hung child fails its own test
/// instead of holding up the whole run.
final class Watchdog: Sendable {
    private enum State { case armed, cancelled, fired }
    private let state = Mutex(State.armed)

    init(pid: pid_t, seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            let fire = state.withLock { state in
                guard state == .armed else { return false }
                state = .fired
                return true
            }
            if fire { kill(pid, SIGKILL) }
        }
    }

    /// Disarms the watchdog; returns whether it had already killed the child.
    @discardableResult
    func cancel() -> Bool {
        state.withLock { state in
            if state == .armed { state = .cancelled }
            return state == .fired
        }
    }
}

/// Bytes a pipe delivered, collected by a thread of its own that reads it to its end.
final class Collected: Sendable {
    private let data = Mutex(Data())
    private let ended = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                data.withLock { $0.append(chunk) }
            }
            ended.signal()
        }
    }

    /// What was read so far.
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Everything, once the writing end has closed (the process has ended). Blocks: call it
    /// only off the tests' pool, or once the process is known to have ended.
    func all() -> String {
        ended.wait()
        ended.signal()
        return text
    }

    /// Writes bytes into a pipe from a thread of its own, then closes it.
    final class Writer: Sendable {
        private let done = DispatchSemaphore(value: 0)

        init(_ bytes: [UInt8], to pipe: Pipe) {
            let handle = pipe.fileHandleForWriting
            Thread.detachNewThread { [done] in
                // A child may end without reading everything. SIGPIPE, blocked on this thread
                // alone, then stays with it and the write fails instead of ending the tests.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                try? handle.write(contentsOf: Data(bytes))
                try? handle.close()
                done.signal()
            }
        }

        func wait() { done.wait() }
    }
}

struct ProcessFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
