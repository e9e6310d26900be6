import FlowsServer
import Foundation
import Mail
import Testing

@Suite("Email verification over HTTP")
struct EmailVerificationServerTests {
    /// The last code the outbox holds for `email`.
    private static func code(to email: String, in outbox: URL) throws -> String? {
        try OutboxMailer.messages(in: outbox).filter { $0.contains("\nTo: \(email)\n") }.compactMap(MailedVerificationCodes.code(inMessage:)).last
    }

    @Test("sign-up mails a code; unverified, the account is not found by its email and claims no contact; the code proves it")
    func verification() async throws {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("flows-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outbox) }
        try await LiveServer.with(mail: .outbox(outbox)) { server in
            let ada = try await server.signUp("Ada")
            #expect(ada.user.emailVerified == false)
            let bob = try await server.signUp("Bob")
            let contact = try await server.raw("POST", "/contacts", token: bob.token, json: #"{"name":"Ada L","email":"ada@example.com"}"#)
            #expect(contact.status == 201, "an unverified email has no account to refuse it: \(contact)")
            let lookup = try await server.raw("POST", "/users/by-email", token: bob.token, json: #"{"email":"ada@example.com"}"#)
            #expect(lookup.status == 404, "\(lookup)")
            let claimed = try await server.raw("POST", "/contacts/claim", token: ada.token)
            #expect(claimed.status == 200 && claimed.text.contains(#""ids":[]"#), "\(claimed)")

            let code = try #require(try Self.code(to: "ada@example.com", in: outbox))
            let message = try #require(try OutboxMailer.messages(in: outbox).first)
            #expect(message.contains("From: flows@example.com") && message.contains("Hello Ada,") && message.contains(code))
            let wrong = try await server.raw("POST", "/me/email-verification", token: ada.token, json: #"{"code":"\#(code == "000000" ? "111111" : "000000")"}"#)
            #expect(wrong.status == 422 && wrong.problemCode == "wrong-code", "\(wrong)")
            #expect((wrong.object?["details"] as? [String: any Sendable])?["triesLeft"] as? Int == 4)
            let soon = try await server.raw("POST", "/me/email-verification/code", token: ada.token)
            #expect(soon.status == 429 && soon.headers["retry-after"] == "60", "\(soon)")

            let verified = try await server.raw("POST", "/me/email-verification", token: ada.token, json: #"{"code":"\#(code)"}"#)
            #expect(verified.status == 200 && verified.object?["emailVerified"] as? Bool == true, "\(verified)")
            let me = try await server.raw("GET", "/sessions/current", token: ada.token)
            #expect((me.object?["user"] as? [String: any Sendable])?["emailVerified"] as? Bool == true, "the session kept is read again: \(me)")
            let found = try await server.raw("POST", "/users/by-email", token: bob.token, json: #"{"email":"ADA@example.com"}"#)
            #expect(found.status == 200 && found.object?["id"] as? String == ada.id, "\(found)")
            let nowClaimed = try await server.raw("POST", "/contacts/claim", token: ada.token)
            #expect(nowClaimed.text.contains(bob.id), "verified, the claim asks Bob: \(nowClaimed)")
            let again = try await server.raw("POST", "/me/email-verification/code", token: ada.token)
            #expect(again.status == 409 && again.problemCode == "already-verified", "\(again)")
            #expect(try OutboxMailer.messages(in: outbox).count == 2, "one code for Ada, one for Bob")
        }
    }

    @Test("a new code a minute after the last; the first no longer works; a mail system that fails is 503 mail-unavailable")
    func newCodes() async throws {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("flows-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outbox) }
        try await LiveServer.with(mail: .outbox(outbox)) { server in
            let ada = try await server.signUp("Ada")
            let first = try #require(try Self.code(to: "ada@example.com", in: outbox))
            server.clock.advance(seconds: 61)
            #expect(try await server.raw("POST", "/me/email-verification/code", token: ada.token).status == 204)
            let second = try #require(try Self.code(to: "ada@example.com", in: outbox))
            if first != second {
                let stale = try await server.raw("POST", "/me/email-verification", token: ada.token, json: #"{"code":"\#(first)"}"#)
                #expect(stale.problemCode == "wrong-code", "\(stale)")
            }
            // The outbox cannot be written any more: the mail is not sent, and the server says so.
            try FileManager.default.removeItem(at: outbox)
            try Data().write(to: outbox)
            server.clock.advance(seconds: 61)
            let down = try await server.raw("POST", "/me/email-verification/code", token: ada.token)
            #expect(down.status == 503 && down.problemCode == "mail-unavailable", "\(down)")
            #expect(!down.text.contains(outbox.path), "the mail system's insides stay in the log")
        }
    }

    @Test("--mail reads sendmail:PATH, outbox:DIR, log and off, and refuses anything else in words")
    func mailSetting() throws {
        #expect(try MailSetting(parsing: "sendmail:/usr/bin/msmtp") == .sendmail(URL(fileURLWithPath: "/usr/bin/msmtp")))
        #expect(try MailSetting(parsing: " outbox:/var/spool/flows ") == .outbox(URL(fileURLWithPath: "/var/spool/flows")))
        #expect(try MailSetting(parsing: "log") == .log)
        #expect(try MailSetting(parsing: "off") == .off)
        #expect(throws: ConfigurationError.self) { try MailSetting(parsing: "smtp://mail.example.com") }
        #expect(throws: ConfigurationError.self) { try MailSetting(parsing: "outbox:") }
    }
}
