import Foundation
import Mail
import Synchronization
import Testing

/// The mailer's two drivers, on real files and real programs.
@Suite("Mail: the outbox and a sendmail-compatible program")
struct MailerTests {
    private let time = Date(timeIntervalSince1970: 1_800_000_000)

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the outbox keeps each message whole, in order, with its headers; a subject in any language is encoded")
    func outbox() async throws {
        let dir = try folder().appendingPathComponent("outbox")
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let clock = Clock(time)
        let mailer = OutboxMailer(folder: dir, from: "flows@example.com", now: { clock.next() })
        try await mailer.send(MailMessage(to: "ada@example.com", subject: "Your code", body: "Your code is 123456.\n"))
        try await mailer.send(MailMessage(to: "bob@example.com", subject: "Votre code: été", body: "Line one\n.\nLine three"))
        let messages = try OutboxMailer.messages(in: dir)
        #expect(messages.count == 2)
        let first = try #require(messages.first)
        #expect(first.hasPrefix("From: flows@example.com\nTo: ada@example.com\nSubject: Your code\nDate: Fri, 15 Jan 2027 08:00:00 +0000\nMessage-ID: <"))
        #expect(first.contains("@example.com>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nYour code is 123456.\n"))
        let second = try #require(messages.last)
        #expect(second.contains("To: bob@example.com\n"))
        #expect(second.contains("Subject: =?UTF-8?B?\(Data("Votre code: été".utf8).base64EncodedString())?=\n"))
        // A lone "." is doubled, so no program takes it for the end.
        #expect(second.hasSuffix("\n\nLine one\n..\nLine three\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { $0.hasSuffix(".eml") }, "no partial file is left")
    }

    @Test("a header with a line break or a bad address is refused, and nothing is written")
    func injection() async throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mailer = OutboxMailer(folder: dir, from: "flows@example.com")
        let refused: [MailMessage] = [
            MailMessage(to: "ada@example.com", subject: "Hi\r\nBcc: eve@example.com", body: ""),
            MailMessage(to: "ada@example.com\nBcc: eve@example.com", subject: "Hi", body: ""),
            MailMessage(to: "ada@example.com, eve@example.com", subject: "Hi", body: ""),
            MailMessage(to: "nobody", subject: "Hi", body: ""),
            MailMessage(to: "ada@example.com", subject: "Hi\u{2028}there", body: ""),
        ]
        for message in refused {
            await #expect(throws: MailError.self) { try await mailer.send(message) }
        }
        #expect(try OutboxMailer.messages(in: dir).isEmpty)
    }

    @Test("an outbox that cannot be written says where and why")
    func unwritable() async throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        let mailer = OutboxMailer(folder: file, from: "flows@example.com")
        do {
            try await mailer.send(MailMessage(to: "ada@example.com", subject: "Hi", body: "Hello"))
            Issue.record("a message was sent into a file")
        } catch {
            guard case .notSent(let reason) = error else { throw error }
            #expect(reason.contains(file.path))
        }
    }

    @Test("a sendmail-compatible program gets the whole message on its input, with -i -t")
    func sendmail() async throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("received")
        // sh -c SCRIPT ARG0 -i -t: the script writes its arguments, then its input.
        let mailer = SendmailMailer(
            program: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", #"echo "$@" > "$0"; cat >> "$0""#, out.path], from: "flows@example.com"
        )
        let body = String(repeating: "A long line of the message body.\n", count: 5_000)
        try await mailer.send(MailMessage(to: "ada@example.com", subject: "Your code", body: body))
        let received = try String(contentsOf: out, encoding: .utf8)
        #expect(received.hasPrefix("-i -t\nFrom: flows@example.com\nTo: ada@example.com\nSubject: Your code\n"))
        #expect(received.hasSuffix("\n\n" + body))
    }

    @Test("a program that fails, or is missing, is an error that says what it said; one that reads nothing does not end this process")
    func sendmailFailures() async throws {
        let message = MailMessage(to: "ada@example.com", subject: "Hi", body: String(repeating: "x", count: 1 << 20))
        let failing = SendmailMailer(program: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo 'relay refused' >&2; exit 75"], from: "flows@example.com")
        await #expect(throws: MailError.notSent("sh exited with status 75: relay refused")) { try await failing.send(message) }
        let missing = SendmailMailer(program: URL(fileURLWithPath: "/no/such/sendmail"), from: "flows@example.com")
        await #expect(throws: MailError.self) { try await missing.send(message) }
        // It exits at once without reading a megabyte: the write fails quietly, the status counts.
        let deaf = SendmailMailer(program: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exit 0"], from: "flows@example.com")
        try await deaf.send(message)
    }
}

/// A clock that moves one second each time it is read, so that files sort as sent.
private final class Clock: Sendable {
    private let start: Date
    private let reads = Mutex(0)

    init(_ start: Date) {
        self.start = start
    }

    func next() -> Date {
        reads.withLock { count in
            defer { count += 1 }
            return start.addingTimeInterval(Double(count))
        }
    }
}
