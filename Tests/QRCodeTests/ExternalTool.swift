import Foundation

/// A command-line program the tests check the encoder against: `zbarimg` (a decoder) or
/// `qrencode` (another encoder). Scripts/test installs both; a test that needs one fails, never
/// skips, when it is missing.
struct ExternalTool: Sendable {
    let path: String

    static let zbarimg = Result { try ExternalTool.find("zbarimg", package: "zbar-tools") }
    static let qrencode = Result { try ExternalTool.find("qrencode", package: "qrencode") }

    /// Why a tool could not be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func find(_ name: String, package: String) throws(Failure) -> ExternalTool {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return ExternalTool(path: path) }
        }
        throw Failure(description: "\(name) is not installed: run Scripts/test, which installs the Debian package \(package)")
    }

    /// Runs the tool and returns what it wrote on standard output (standard error is dropped),
    /// and its exit status.
    func run(_ arguments: [String]) async throws -> (output: Data, status: Int32) {
        try await Self.run(path, arguments)
    }

    /// Runs `commands`, each a program and its arguments, one after the other in a single shell,
    /// which saves starting a process from the test for each.
    static func runScript(_ commands: [[String]], in directory: URL) async throws {
        let script = commands.map { $0.map(quoted).joined(separator: " ") }.joined(separator: "\n")
        let file = directory.appendingPathComponent("commands-\(UUID().uuidString).sh")
        try Data(("set -e\n" + script + "\n").utf8).write(to: file)
        let result = try await run("/bin/sh", [file.path])
        guard result.status == 0 else {
            throw Failure(description: "a command in \(file.lastPathComponent) failed with status \(result.status)")
        }
    }

    private static func quoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Waits for the process on a thread of its own, not one of the few that run the tests, so
    /// that they go on encoding while it runs.
    private static func run(_ executable: String, _ arguments: [String]) async throws -> (output: Data, status: Int32) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runAndWait(executable, arguments) })
            }
        }
    }

    private static func runAndWait(_ executable: String, _ arguments: [String]) throws -> (output: Data, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (data, process.terminationStatus)
    }
}

/// A folder for one test's files, removed when the test is done with it.
struct ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("qrcode-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
