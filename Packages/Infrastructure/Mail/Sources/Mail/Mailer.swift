import Foundation

/// One plain-text message to one address.
public struct MailMessage: Equatable, Sendable {
    public var to: String
    public var subject: String
    public var body: String

    public init(to: String, subject: String, body: String) {
        self.to = to
        self.subject = subject
        self.body = body
    }
}

/// Sends messages. A driver either hands the message on whole or throws: nothing is half sent.
public protocol Mailer: Sendable {
    func send(_ message: MailMessage) async throws(MailError)
}

/// Why a message was not sent.
public enum MailError: Error, Equatable, Sendable {
    /// A header would carry a line break or a control character (header injection), or the
    /// address is not one.
    case invalidMessage(String)
    /// The driver could not hand the message on; the reason says why.
    case notSent(String)

    public var message: String {
        switch self {
        case .invalidMessage(let reason): "The message was not sent: \(reason)."
        case .notSent(let reason): "The message could not be sent: \(reason)."
        }
    }
}

/// A message as RFC 5322 text: the headers a mail program needs, then the body, lines ending in
/// LF (a sendmail-compatible program turns them into CRLF on the wire).
public struct MailText: Sendable {
    /// The sender every message names.
    public var from: String

    public init(from: String) {
        self.from = from
    }

    /// `message` as the text of a mail, with its `Date` and a `Message-ID` made from `id`.
    public func text(of message: MailMessage, at date: Date, id: String) throws(MailError) -> String {
        try Self.check(address: from, "the sender")
        try Self.check(address: message.to, "the recipient")
        guard !message.subject.contains(where: Self.isControl) else { throw .invalidMessage("the subject holds a line break or a control character") }
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        let headers = [
            "From: \(from)",
            "To: \(message.to)",
            "Subject: \(Self.encoded(message.subject))",
            "Date: \(Self.rfc5322(date))",
            "Message-ID: <\(id)@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
        ]
        // A line that is a lone "." ends the message for some programs: it is doubled.
        let body = message.body.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0 == "." ? ".." : String($0) }
        return (headers + [""] + body).joined(separator: "\n") + (message.body.hasSuffix("\n") ? "" : "\n")
    }

    /// An address as a header may carry it: one `@`, no spaces, line breaks, controls or brackets.
    private static func check(address: String, _ what: String) throws(MailError) {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              !address.contains(where: { isControl($0) || $0.isWhitespace || "<>,;\"".contains($0) })
        else { throw .invalidMessage("\(what) is not an email address") }
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
    }

    /// ASCII as it is; anything else as an RFC 2047 encoded word.
    private static func encoded(_ text: String) -> String {
        guard !text.allSatisfy(\.isASCII) else { return text }
        return "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
    }

    /// `Sat, 28 Nov 2026 12:05:00 +0000`.
    private static func rfc5322(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
