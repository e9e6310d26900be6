import Foundation

/// Writes each message as a file in a folder, the outbox: for one machine, where the user reads
/// it there, and for the tests. Each file is written whole under a temporary name, then moved
/// into place, so a reader never sees half a message.
public struct OutboxMailer: Mailer {
    private let folder: URL
    private let text: MailText
    private let now: @Sendable () -> Date

    public init(folder: URL, from: String, now: @escaping @Sendable () -> Date = Date.init) {
        self.folder = folder
        text = MailText(from: from)
        self.now = now
    }

    public func send(_ message: MailMessage) async throws(MailError) {
        let date = now()
        let id = UUID().uuidString.lowercased()
        let content = try text.text(of: message, at: date, id: id)
        // Named by time then id: listed in the order they were sent.
        let name = String(format: "%.6f", date.timeIntervalSince1970) + "-" + id
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            let partial = folder.appendingPathComponent(".\(name).partial")
            try Data(content.utf8).write(to: partial)
            try manager.moveItem(at: partial, to: folder.appendingPathComponent("\(name).eml"))
        } catch {
            throw .notSent("the outbox \(folder.path) cannot be written: \((error as NSError).localizedDescription)")
        }
    }

    /// The messages in the outbox, oldest first, as text: what the tests and a user read.
    public static func messages(in folder: URL) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".eml") }.sorted()
        return try names.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
    }
}
