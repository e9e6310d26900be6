import Accounts
import Foundation
import Logging
import Mail
import Primitives

/// Where the server's mail goes (`--mail`), and with it whether emails are verified.
public enum MailSetting: Sendable, Equatable, CustomStringConvertible {
    /// Each message written to the server's log: for trying the server out on one machine,
    /// never for real users (anyone who reads the log reads the codes).
    case log
    /// Each message a file in this folder (`.eml`, written whole): for tests, or for a mail
    /// system that picks the files up.
    case outbox(URL)
    /// Each message handed to this sendmail-compatible program (`-i -t`, the message on its
    /// input): Debian's msmtp, or the system's sendmail.
    case sendmail(URL)
    /// No mail, and no emails verified: every email counts as its user's, as on one machine.
    case off

    /// Reads `log`, `outbox:DIR`, `sendmail:PATH` and `off`.
    public init(parsing text: String) throws(ConfigurationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func path(after prefix: String, example: String) throws(ConfigurationError) -> URL {
            let path = String(trimmed.dropFirst(prefix.count))
            guard !path.isEmpty else { throw ConfigurationError("\(prefix) needs a path, as in \(prefix)\(example)") }
            return URL(fileURLWithPath: path)
        }
        switch trimmed {
        case "log": self = .log
        case "off": self = .off
        case _ where trimmed.hasPrefix("outbox:"): self = .outbox(try path(after: "outbox:", example: "/var/spool/flows/outbox"))
        case _ where trimmed.hasPrefix("sendmail:"): self = .sendmail(try path(after: "sendmail:", example: "/usr/bin/msmtp"))
        default:
            throw ConfigurationError("\(trimmed) is not a place for mail: use sendmail:PATH (msmtp, sendmail), outbox:DIR, log (a trial), or off (no emails verified).")
        }
    }

    public var description: String {
        switch self {
        case .log: "log"
        case .off: "off"
        case .outbox(let folder): "outbox:\(folder.path)"
        case .sendmail(let program): "sendmail:\(program.path)"
        }
    }

    /// What sends the codes that prove emails, from `from`; nil for ``off``.
    public func codeSender(from: String, logger: Logger) -> (any VerificationCodeSender)? {
        switch self {
        case .off: nil
        case .log: MailedVerificationCodes(mailer: LogMailer(logger: logger))
        case .outbox(let folder): MailedVerificationCodes(mailer: OutboxMailer(folder: folder, from: from))
        case .sendmail(let program): MailedVerificationCodes(mailer: SendmailMailer(program: program, from: from))
        }
    }
}

/// The codes that prove emails, each in a message of its own.
public struct MailedVerificationCodes: VerificationCodeSender {
    let mailer: any Mailer

    public init(mailer: any Mailer) {
        self.mailer = mailer
    }

    public func send(code: String, to email: EmailAddress, name: DisplayName) async throws {
        let minutes = Int(EmailVerificationPolicy.codeLifetime / 60)
        try await mailer.send(MailMessage(
            to: email.value,
            subject: "Your Flows code: \(code)",
            body: """
                Hello \(name.value),

                Your code to verify this email for Flows is:

                    \(code)

                Enter it in Flows (Account, then Verify email). It is good for \(minutes) minutes.

                If you did not ask for it, someone typed your address by mistake: you can ignore
                this message, and nobody will find that account by your email.
                """
        ))
    }

    /// The code in a message ``send(code:to:name:)`` wrote, for tests and scripts that read an
    /// outbox: the digits of its subject.
    public static func code(inMessage text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("Subject: Your Flows code: ") {
            let digits = line.dropFirst("Subject: Your Flows code: ".count).trimmingCharacters(in: .whitespaces)
            return EmailVerificationPolicy.normalisedCode(digits)
        }
        return nil
    }
}

/// A mailer that writes each message to the server's log, for a trial on one machine.
struct LogMailer: Mailer {
    let logger: Logger

    func send(_ message: MailMessage) async throws(MailError) {
        logger.notice("mail not sent (--mail log)", metadata: ["to": "\(message.to)", "subject": "\(message.subject)"])
    }
}
