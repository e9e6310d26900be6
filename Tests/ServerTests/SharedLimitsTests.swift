import FlowsServer
import Foundation
import PostgresStore
import Testing

/// Servers sharing a PostgreSQL database count sign-in attempts there, together: a client that
/// a load balancer spreads over them gets one set of limits, not one per server.
@Suite(
    .enabled(if: TestPostgres.url != nil, "FLOWS_TEST_DATABASE_URL names no PostgreSQL server (Scripts/test starts one)"),
    .timeLimit(.minutes(2))
)
struct SharedLimitsTests {
    static let limits = RateLimits(failuresPerAccount: 3, failuresPerAddress: 5, signUpsPerAddress: 3)

    /// Two servers on one fresh database, on one clock; both stopped and the database dropped
    /// afterwards.
    static func withTwoServers(
        limits: RateLimits = limits, _ body: @Sendable (_ one: LiveServer, _ two: LiveServer, _ database: ServerDatabase) async throws -> Void
    ) async throws {
        let admin = try #require(try TestPostgres.url.map { try DatabaseURL($0) })
        let databases = Databases(admin: admin)
        let url = try await databases.fresh()
        let clock = TestClock()
        let configuration = ServerConfiguration(port: 0, rateLimits: limits)
        let first = try await RunningServer.start(
            services: .postgres(url, maximumConnections: 2, fast: true, now: { clock.now }), configuration: configuration
        )
        // Not `fast`: its seeded identifiers would be the first server's, and clash.
        let second = try await RunningServer.start(
            services: .postgres(url, maximumConnections: 2, now: { clock.now }), configuration: configuration
        )
        let look = ServerDatabase(url: url, maximumConnections: 1)
        let result: Result<Void, any Error>
        do {
            try await body(LiveServer(url: first.url, clock: clock), LiveServer(url: second.url, clock: clock), look)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await look.shutdown()
        await first.stop()
        await second.stop()
        await databases.dropAll()
        try result.get()
    }

    private func signIn(_ server: LiveServer, password: String) async throws -> RawResponse {
        try await server.raw("POST", "/sessions", json: #"{"email":"ada@example.com","password":"\#(password)"}"#)
    }

    @Test("wrong passwords through either server count against one limit, until the window has passed")
    func passwordsAcrossServers() async throws {
        try await Self.withTwoServers { one, two, _ in
            _ = try await one.signUp("Ada")
            #expect(try await signIn(one, password: "wrong horse").status == 401)
            #expect(try await signIn(two, password: "wrong horse").status == 401)
            #expect(try await signIn(one, password: "wrong horse").status == 401)
            // Three in all: each server has seen fewer, and both refuse.
            for server in [one, two] {
                let limited = try await signIn(server, password: "correct horse")
                #expect(limited.status == 429 && limited.problemCode == "rate-limited", "\(limited)")
                let wait = limited.headers["retry-after"].flatMap { Int($0) }
                #expect(wait.map { (1...900).contains($0) } == true, "\(limited.headers)")
            }
            // 15 minutes later the attempts are over, on either server.
            one.clock.advance(days: 901.0 / 86_400)
            #expect(try await signIn(two, password: "correct horse").status == 200)
            // A password that checked out forgets the account's failures, for both servers.
            #expect(try await signIn(one, password: "wrong horse").status == 401)
            #expect(try await signIn(two, password: "wrong horse").status == 401)
            #expect(try await signIn(one, password: "correct horse").status == 200)
            #expect(try await signIn(two, password: "wrong horse").status == 401)
            #expect(try await signIn(one, password: "wrong horse").status == 401)
            #expect(try await signIn(two, password: "correct horse").status == 200)
        }
    }

    @Test("failed sign-ins from one address are counted across servers, whichever accounts they try")
    func addressesAcrossServers() async throws {
        try await Self.withTwoServers { one, two, _ in
            _ = try await one.signUp("Ada")
            for (index, email) in ["bob", "cy", "dee", "eve", "fay"].enumerated() {
                let server = index.isMultiple(of: 2) ? one : two
                let wrong = try await server.raw("POST", "/sessions", json: #"{"email":"\#(email)@example.com","password":"wrong horse"}"#)
                #expect(wrong.status == 401, "\(email): \(wrong)")
            }
            // Five from this address in all; Ada's own account has seen none.
            let limited = try await signIn(two, password: "correct horse")
            #expect(limited.status == 429 && limited.problemCode == "rate-limited", "\(limited)")
        }
    }

    @Test("wrong passwords sent at once, to both servers, get no more checks than the limit, and none is a server error")
    func attemptsAtOnce() async throws {
        try await Self.withTwoServers { one, two, database in
            _ = try await one.signUp("Ada")
            let statuses = try await statusesAtOnce(12) { index in
                try await signIn(index.isMultiple(of: 2) ? one : two, password: "wrong horse")
            }
            // Counted before checked: at most Ada's three passwords were checked (at the limit's
            // edge, attempts at once may both be refused), and every other was refused.
            #expect(statuses.allSatisfy { $0 == 401 || $0 == 429 }, "\(statuses)")
            let checked = statuses.filter { $0 == 401 }.count
            #expect(checked <= 3, "\(statuses)")
            // The refused ones took their counts back: what is left is the failures.
            for kind in ["account", "address"] {
                let counted = try await database.read {
                    try $0.row("SELECT count(*) FROM server_attempt WHERE kind = $1", [kind])?.integer(0)
                }
                #expect(counted == Int64(checked), "\(kind)")
            }
            // One after another, the account has what is left of its three, then none.
            for attempt in checked..<3 {
                #expect(try await signIn(attempt.isMultiple(of: 2) ? two : one, password: "wrong horse").status == 401)
            }
            #expect(try await signIn(one, password: "correct horse").status == 429)
        }
    }

    @Test("new accounts from one address are counted across servers")
    func signUpsAcrossServers() async throws {
        try await Self.withTwoServers { one, two, _ in
            _ = try await one.signUp("Ada")
            _ = try await two.signUp("Bob")
            _ = try await one.signUp("Cy")
            let fourth = try await two.raw("POST", "/accounts", json: #"{"email":"dee@example.com","displayName":"Dee","password":"correct horse"}"#)
            #expect(fourth.status == 429 && fourth.problemCode == "rate-limited", "\(fourth)")
        }
    }

    @Test("the database keeps hashes of the keys, not emails or addresses, and only for their window")
    func whatTheDatabaseKeeps() async throws {
        try await Self.withTwoServers { one, _, database in
            _ = try await one.signUp("Ada")
            for _ in 1...2 { #expect(try await signIn(one, password: "wrong horse").status == 401) }
            func rows(_ kind: String) async throws -> Int64 {
                try await database.read { try $0.row("SELECT count(*) FROM server_attempt WHERE kind = $1", [kind])?.integer(0) ?? -1 }
            }
            #expect(try await rows("account") == 2)
            #expect(try await rows("account-from-new-address") == 2, "the address has not signed in to Ada's account yet")
            #expect(try await rows("address") == 2)
            #expect(try await rows("sign-up") == 1)
            // Each key is there as the SHA-256 of the limiter's key, never as it was written.
            let hashed = try await database.read { database in
                try database.rows(
                    """
                    SELECT kind FROM server_attempt
                    WHERE key_hash IN (sha256(convert_to('account ada@example.com from 127.0.0.1', 'UTF8')),
                                       sha256(convert_to('account ada@example.com', 'UTF8')),
                                       sha256(convert_to('address 127.0.0.1', 'UTF8')), sha256(convert_to('127.0.0.1', 'UTF8')))
                    ORDER BY kind
                    """
                ).map { try $0.text(0) }
            }
            #expect(hashed == ["account", "account", "account-from-new-address", "account-from-new-address", "address", "address", "sign-up"])
            let plain = try await database.read { database in
                try database.row(
                    """
                    SELECT count(*) FROM server_attempt
                    WHERE position(convert_to('ada@example.com', 'UTF8') IN key_hash) > 0 OR length(key_hash) <> 32
                    """
                )?.integer(0)
            }
            #expect(plain == 0)
            // Past the window, the next attempt for the key clears the old ones.
            one.clock.advance(days: 901.0 / 86_400)
            #expect(try await signIn(one, password: "wrong horse").status == 401)
            #expect(try await rows("account") == 1)
            #expect(try await rows("address") == 1)
            // A password that checks out forgets the account's failures from this address, is no
            // failure of the address's, and makes the address known to the account.
            #expect(try await signIn(one, password: "correct horse").status == 200)
            #expect(try await rows("account") == 0)
            #expect(try await rows("account-from-new-address") == 1)
            #expect(try await rows("address") == 1)
            #expect(try await rows("known-address") == 1)
        }
    }

    @Test("a change sent again with its Idempotency-Key through the other server gets the first answer and writes nothing")
    func idempotencyAcrossServers() async throws {
        try await Self.withTwoServers { one, two, database in
            let ada = try await one.signUp("Ada")
            let lunch = """
                {"description":"Lunch","amount":{"minorUnits":1200,"currency":"EUR"},"day":"2026-11-21","category":"food",\
                "payers":[{"user":"\(ada.id)","amount":{"minorUnits":1200,"currency":"EUR"}}],"participants":["\(ada.id)"],"rule":{"mode":"equal"}}
                """
            let first = try await one.raw("POST", "/expenses", token: ada.token, body: Data(lunch.utf8), headers: ["Idempotency-Key": "lunch-1"])
            let again = try await two.raw("POST", "/expenses", token: ada.token, body: Data(lunch.utf8), headers: ["Idempotency-Key": "lunch-1"])
            #expect(first.status == 201 && again.status == 201 && again.body == first.body, "\(first) \(again)")
            #expect(again.headers["idempotent-replayed"] == "true")
            #expect(try await ada.client.listExpenses().ok.body.json.expenses.count == 1)
            // The key is kept as its SHA-256, not as sent.
            let kept = try await database.read { try $0.row("SELECT count(*) FROM server_idempotency WHERE key_hash = sha256(convert_to('lunch-1', 'UTF8'))")?.integer(0) }
            #expect(kept == 1)
        }
    }
}
