import FlowsAPI
@testable import FlowsServer
import Foundation
import Synchronization
import Testing

/// Password guessing and mass sign-ups are limited: past the limit every attempt, the right one
/// too, is `429 rate-limited` with a `Retry-After`.
@Suite(.timeLimit(.minutes(2)))
struct RateLimitTests {
    static let limits = RateLimits(failuresPerAccount: 3, failuresPerAddress: 5, signUpsPerAddress: 4)

    @Test("wrong passwords limit the account, then the address; the right password is refused while limited")
    func signIns() async throws {
        try await LiveServer.with(limits: Self.limits) { server in
            _ = try await server.signUp("Ada")
            _ = try await server.signUp("Bob")
            func signIn(_ email: String, _ password: String) async throws -> RawResponse {
                try await server.raw("POST", "/sessions", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
            }
            for attempt in 1...3 {
                let wrong = try await signIn("ada@example.com", "wrong horse")
                #expect(wrong.status == 401 && wrong.problemCode == "wrong-email-or-password", "attempt \(attempt): \(wrong)")
            }
            // Ada's account has had its three.
            expectLimited(try await signIn("ada@example.com", "wrong horse"), "a fourth wrong password")
            expectLimited(try await signIn("ADA@example.com ", "correct horse"), "the right password, while limited")

            // Bob's account has its own three, but this address has five in all: two more.
            for attempt in 1...2 {
                let wrong = try await signIn("bob@example.com", "wrong horse")
                #expect(wrong.status == 401 && wrong.problemCode == "wrong-email-or-password", "Bob's attempt \(attempt): \(wrong)")
            }
            expectLimited(try await signIn("bob@example.com", "wrong horse"), "Bob's third wrong password, past the address's five")
            expectLimited(try await signIn("bob@example.com", "correct horse"), "Bob's right password from the limited address")
            expectLimited(try await signIn("nobody@example.com", "correct horse"), "an unknown email from the limited address")
        }
    }

    @Test("sign-ups are limited per address, a refused one counts too (else asking for taken emails would be free), and one refused creates nothing")
    func signUps() async throws {
        try await LiveServer.with(limits: Self.limits) { server in
            for name in ["Ada", "Bob"] { _ = try await server.signUp(name) }
            // An email already taken says so, and takes a place: a list of emails cannot be
            // tried one by one without limit.
            let taken = try await server.raw("POST", "/accounts", json: #"{"email":"ada@example.com","displayName":"Ada","password":"correct horse"}"#)
            #expect(taken.status == 409 && taken.problemCode == "email-taken", "\(taken)")
            _ = try await server.signUp("Dee")
            let fifth = try await server.raw("POST", "/accounts", json: #"{"email":"eve@example.com","displayName":"Eve","password":"correct horse"}"#)
            expectLimited(fifth, "a fifth sign-up")
            let again = try await server.raw("POST", "/accounts", json: #"{"email":"bob@example.com","displayName":"Bob","password":"correct horse"}"#)
            expectLimited(again, "a taken email past the limit")
            let eve = try await server.raw("POST", "/sessions", json: #"{"email":"eve@example.com","password":"correct horse"}"#)
            #expect(eve.status == 401 && eve.problemCode == "wrong-email-or-password", "\(eve)")
        }
    }

    @Test("changing the password or the email with wrong current passwords is limited too")
    func passwordChecks() async throws {
        try await LiveServer.with(limits: Self.limits) { server in
            let ada = try await server.signUp("Ada")
            for attempt in 1...3 {
                let wrong = try await server.raw(
                    "PUT", "/me/password", token: ada.token, json: #"{"currentPassword":"wrong horse","newPassword":"battery staple"}"#
                )
                #expect(wrong.status == 403 && wrong.problemCode == "wrong-password", "attempt \(attempt): \(wrong)")
            }
            let right = #"{"currentPassword":"correct horse","newPassword":"battery staple"}"#
            expectLimited(try await server.raw("PUT", "/me/password", token: ada.token, json: right), "the right password, while limited")
            expectLimited(
                try await server.raw("PUT", "/me/email", token: ada.token, json: #"{"email":"ada@example.org","password":"correct horse"}"#),
                "changing the email, while limited"
            )
            // Nothing changed: the old password still signs in, with the old email.
            let signIn = try await server.raw("POST", "/sessions", json: #"{"email":"ada@example.com","password":"correct horse"}"#)
            #expect(signIn.status == 200, "\(signIn)")
            // Reads need no password: the session still works.
            #expect(try await server.raw("GET", "/me", token: ada.token).status == 200)
        }
    }

    @Test("wrong passwords sent at once are checked and counted in one step: no more than the limit get through")
    func passwordsAtOnce() async throws {
        try await LiveServer.with(limits: Self.limits) { server in
            _ = try await server.signUp("Ada")
            let statuses = try await statusesAtOnce(12) { _ in
                try await server.raw("POST", "/sessions", json: #"{"email":"ada@example.com","password":"wrong horse"}"#)
            }
            // Ada's account allows three failures: three passwords were checked, nine refused.
            #expect(statuses.sorted() == Array(repeating: 401, count: 3) + Array(repeating: 429, count: 9), "\(statuses)")
            expectLimited(
                try await server.raw("POST", "/sessions", json: #"{"email":"ada@example.com","password":"correct horse"}"#),
                "the right password, after the burst"
            )
        }
    }

    @Test("sign-ups sent at once make no more accounts than the limit")
    func signUpsAtOnce() async throws {
        try await LiveServer.with(limits: Self.limits) { server in
            let statuses = try await statusesAtOnce(8) { index in
                try await server.raw(
                    "POST", "/accounts", json: #"{"email":"user\#(index)@example.com","displayName":"User","password":"correct horse"}"#
                )
            }
            #expect(statuses.sorted() == Array(repeating: 201, count: 4) + Array(repeating: 429, count: 4), "\(statuses)")
        }
    }

    @Test("a claim is checked and counted at once; a refused one counts nothing, and a taken-back one frees its place")
    func claims() {
        let clock = Mutex<Double>(0)
        let limiter = AttemptLimiter(limit: 3, window: .seconds(100)) { clock.withLock { $0 } }
        func claim(_ key: String, at time: Double) -> AttemptAdmission {
            clock.withLock { $0 = time }
            return limiter.claim(key)
        }
        var claims: [AttemptClaim] = []
        for time in [0.0, 10, 20] {
            guard case .counted(let claim) = claim("ada", at: time) else {
                Issue.record("attempt at \(time) s refused")
                return
            }
            claims.append(claim)
        }
        // At 100 s the attempt of 0 s leaves the window.
        #expect(claim("ada", at: 35) == .refused(retryAfter: 65))
        #expect(claim("ada", at: 99.5) == .refused(retryAfter: 1), "refused attempts count for nothing")
        guard case .counted = claim("bob", at: 99.5) else {
            Issue.record("Bob refused for Ada's attempts")
            return
        }
        guard case .counted = claim("ada", at: 100) else {
            Issue.record("the attempt of 0 s is still counted at 100 s")
            return
        }
        // Ada now has 10, 20 and 100 s; taking back 10 s leaves room for one more.
        limiter.release(claims[1])
        guard case .counted = claim("ada", at: 101) else {
            Issue.record("a taken-back attempt still counted")
            return
        }
        #expect(claim("ada", at: 102) == .refused(retryAfter: 18))
        limiter.reset("ada")
        guard case .counted = claim("ada", at: 103) else {
            Issue.record("attempts still counted after a reset")
            return
        }
    }

    @Test("guesses from other addresses never lock the owner out of the address they sign in from; together they are held to a slower limit")
    func lockoutPerAddress() async throws {
        let limits = RateLimits(failuresPerAccount: 3, failuresPerAccountFromNewAddresses: 5, failuresPerAddress: 1_000, signUpsPerAddress: 1_000)
        let loopback = [try AddressRange(parsing: "127.0.0.0/8"), try AddressRange(parsing: "::1")]
        try await LiveServer.with(limits: limits, trustedProxies: loopback) { server in
            _ = try await server.signUp("Ada")
            func signIn(_ password: String, from address: String) async throws -> RawResponse {
                try await server.raw(
                    "POST", "/sessions", body: Data(#"{"email":"ada@example.com","password":"\#(password)"}"#.utf8), headers: ["X-Forwarded-For": address]
                )
            }
            let home = "198.51.100.10"
            #expect(try await signIn("correct horse", from: home).status == 200, "Ada at home")
            // Someone guesses from one address: three, then that address is held back.
            for attempt in 1...3 { #expect(try await signIn("wrong horse", from: "203.0.113.1").status == 401, "guess \(attempt)") }
            expectLimited(try await signIn("wrong horse", from: "203.0.113.1"), "a fourth guess from the same address")
            // From a second address: two more, then the new addresses' five are spent together.
            for attempt in 1...2 { #expect(try await signIn("wrong horse", from: "203.0.113.2").status == 401, "second address, guess \(attempt)") }
            expectLimited(try await signIn("wrong horse", from: "203.0.113.2"), "a sixth guess from new addresses")
            expectLimited(try await signIn("correct horse", from: "203.0.113.3"), "the right password from a third new address")
            // Ada, at home, is not locked out: not after a typo of her own either.
            #expect(try await signIn("wrong horse", from: home).status == 401, "Ada's typo")
            #expect(try await signIn("correct horse", from: home).status == 200, "Ada at home, while others are held back")
        }
    }

    @Test("looking accounts up is limited per user and per address: every kind of look-up counts, found or not")
    func lookups() async throws {
        let limits = RateLimits(failuresPerAccount: 1_000, failuresPerAddress: 1_000, signUpsPerAddress: 1_000, lookupsPerUser: 4, lookupsPerAddress: 6)
        let loopback = [try AddressRange(parsing: "127.0.0.0/8"), try AddressRange(parsing: "::1")]
        try await LiveServer.with(limits: limits, trustedProxies: loopback) { server in
            let ada = try await server.signUp("Ada")
            let bob = try await server.signUp("Bob")
            let cy = try await server.signUp("Cy")
            func lookUp(_ path: String, _ json: String, as member: Member, from address: String = "203.0.113.1") async throws -> RawResponse {
                try await server.raw("POST", path, token: member.token, body: Data(json.utf8), headers: ["X-Forwarded-For": address])
            }
            let code = bob.user.friendCode
            #expect(try await lookUp("/friend-lookup", #"{"by":"friend-code","friendCode":"\#(code)"}"#, as: ada).status == 200)
            #expect(try await lookUp("/friend-lookup", #"{"by":"friend-code","friendCode":"AAAA"}"#, as: ada).status == 422, "one refused counts too")
            #expect(try await lookUp("/users/by-email", #"{"email":"nobody@example.com"}"#, as: ada).status == 404)
            #expect(try await lookUp("/contacts", #"{"name":"Sam","email":"sam@example.com"}"#, as: ada).status == 201, "a contact's email")
            expectLimited(try await lookUp("/friends", #"{"by":"friend-code","friendCode":"\#(code)"}"#, as: ada), "Ada's fifth look-up")
            // A contact without an email looks nobody up.
            #expect(try await lookUp("/contacts", #"{"name":"Tess"}"#, as: ada).status == 201)
            // Cy, from the same address, has two before the address's six are spent.
            #expect(try await lookUp("/users/by-friend-code", #"{"friendCode":"\#(code)"}"#, as: cy).status == 200)
            #expect(try await lookUp("/friends", #"{"by":"friend-code","friendCode":"\#(code)"}"#, as: cy).status == 201)
            expectLimited(try await lookUp("/friend-lookup", #"{"by":"email","email":"ada@example.com"}"#, as: cy), "the address's seventh")
            // From elsewhere Cy still has two of their own.
            #expect(try await lookUp("/friend-lookup", #"{"by":"email","email":"ada@example.com"}"#, as: cy, from: "203.0.113.2").status == 200)
        }
    }

    @Test("the wait is from 1 second to the window, whatever the times say")
    func waitsAreBounded() {
        #expect(retryAfter(oldest: 10, window: 900, now: 20) == 890)
        #expect(retryAfter(oldest: 10, window: 900, now: 909.5) == 1)
        #expect(retryAfter(oldest: 5_000, window: 900, now: 20) == 900, "an attempt from a clock that was ahead")
        #expect(retryAfter(oldest: .nan, window: 900, now: 20) == 1)
        #expect(retryAfter(oldest: -.infinity, window: 900, now: 20) == 1)
    }

    private func expectLimited(_ answer: RawResponse, _ what: String) {
        #expect(answer.status == 429 && answer.problemCode == "rate-limited", "\(what): \(answer)")
        let wait = answer.headers["retry-after"].flatMap { Int($0) }
        #expect(wait.map { (1...900).contains($0) } == true, "\(what): Retry-After is \(answer.headers["retry-after"] ?? "missing")")
    }
}
