import Foundation
import Synchronization
import Testing

/// The built `flows` executable, run as a person or a script would run it.
struct FlowsProcess {
    /// `flows` sits beside the test bundle in the build folder (`swift build --build-tests`
    /// builds both).
    static let executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("flows")

    struct Outcome {
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
    func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) throws -> Outcome {
        try run(arguments, bytes: Array(input.utf8), environment: extra)
    }

    /// Runs `flows` with `arguments`, feeding these bytes (UTF-8 or not) on standard input.
    func run(_ arguments: [String], bytes: [UInt8], environment extra: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment(extra)
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(bytes))
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a full pipe never blocks the child.
        let errors = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = data }
            errorsRead.signal()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self)
        )
    }
}
