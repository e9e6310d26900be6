import Foundation

/// Hands each message to a sendmail-compatible program (Debian's msmtp, or the system's
/// sendmail): the program is run with `-i -t`, reads the message on its standard input and
/// takes the recipient from its headers. A program that exits with a failure, or cannot be
/// started, is an error that names what it said.
public struct SendmailMailer: Mailer {
    private let program: URL
    private let arguments: [String]
    private let text: MailText
    private let now: @Sendable () -> Date

    /// - Parameter arguments: the program's arguments before `-i -t` (an msmtp account, say).
    public init(program: URL, arguments: [String] = [], from: String, now: @escaping @Sendable () -> Date = Date.init) {
        self.program = program
        self.arguments = arguments
        text = MailText(from: from)
        self.now = now
    }

    public func send(_ message: MailMessage) async throws(MailError) {
        let content = try text.text(of: message, at: now(), id: UUID().uuidString.lowercased())
        // A program that exits before reading it all would otherwise end this process with
        // SIGPIPE; ignored, the write fails and the exit status says what happened.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = program
        process.arguments = arguments + ["-i", "-t"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            exited.continuation.yield()
            exited.continuation.finish()
        }
        do {
            try process.run()
        } catch {
            throw .notSent("\(program.path) cannot be started: \((error as NSError).localizedDescription)")
        }
        // What the program says is read as it says it, off the caller's thread; the message goes
        // in whole, then its end.
        let said = Task.detached { errors.fileHandleForReading.readDataToEndOfFile() }
        try? input.fileHandleForWriting.write(contentsOf: Data(content.utf8))
        try? input.fileHandleForWriting.close()
        for await _ in exited.stream {}
        let output = await said.value
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let reason = String(decoding: output.prefix(500), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw .notSent("\(program.lastPathComponent) exited with status \(process.terminationStatus)" + (reason.isEmpty ? "" : ": \(reason)"))
        }
    }
}
