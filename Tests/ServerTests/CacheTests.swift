import CompressNIO
import FlowsAPI
@testable import FlowsServer
import Foundation
import NIOCore
import Primitives
import Synchronization
import Testing

/// What flows-server keeps in memory for a moment: sessions found and users' balances.
@Suite(.timeLimit(.minutes(2)))
struct CacheTests {
    private static let ada = UserID(rawValue: "ada")
    private static let bob = UserID(rawValue: "bob")

    @Test func keepsAValueForItsLifetimeOnly() {
        let clock = TestClock()
        let cache = ShortLivedCache<String, Int>(lifetime: 1, now: { clock.now })
        cache.store(1, for: "a", owner: Self.ada, since: cache.begin())
        #expect(cache.value(for: "a") == 1)
        clock.advance(days: 0.9 / 86_400)
        #expect(cache.value(for: "a") == 1)
        clock.advance(days: 0.2 / 86_400)
        #expect(cache.value(for: "a") == nil)
        #expect(cache.count == 0)
    }

    @Test func invalidatingAnOwnerDropsOnlyTheirValues() {
        let clock = TestClock()
        let cache = ShortLivedCache<String, Int>(lifetime: 60, now: { clock.now })
        cache.store(1, for: "ada's phone", owner: Self.ada, since: cache.begin())
        cache.store(2, for: "ada's laptop", owner: Self.ada, since: cache.begin())
        cache.store(3, for: "bob's phone", owner: Self.bob, since: cache.begin())
        cache.invalidate([Self.ada])
        #expect(cache.value(for: "ada's phone") == nil)
        #expect(cache.value(for: "ada's laptop") == nil)
        #expect(cache.value(for: "bob's phone") == 3)
        // Read after the change: kept again.
        cache.store(4, for: "ada's phone", owner: Self.ada, since: cache.begin())
        #expect(cache.value(for: "ada's phone") == 4)
    }

    @Test func aReadOvertakenByAChangeIsNotKept() {
        let clock = TestClock()
        let cache = ShortLivedCache<String, Int>(lifetime: 60, now: { clock.now })
        let before = cache.begin()
        // A write lands while the read is under way...
        cache.invalidate([Self.ada])
        // ...so what the read found may be from before it.
        cache.store(1, for: "a", owner: Self.ada, since: before)
        #expect(cache.value(for: "a") == nil)
        // Someone else's change does not matter.
        let again = cache.begin()
        cache.invalidate([Self.bob])
        cache.store(2, for: "a", owner: Self.ada, since: again)
        #expect(cache.value(for: "a") == 2)
    }

    @Test func aClockSetBackServesNothingFromTheFuture() {
        let clock = TestClock()
        let cache = ShortLivedCache<String, Int>(lifetime: 60, now: { clock.now })
        clock.advance(days: 1)
        cache.store(1, for: "a", owner: Self.ada, since: cache.begin())
        clock.advance(days: -1)
        #expect(cache.value(for: "a") == nil)
    }

    @Test func aFullCacheStartsOverAndALifetimeOfZeroKeepsNothing() {
        let clock = TestClock()
        let cache = ShortLivedCache<Int, Int>(lifetime: 60, capacity: 3, now: { clock.now })
        for key in 0..<3 { cache.store(key, for: key, owner: Self.ada, since: cache.begin()) }
        #expect(cache.count == 3)
        cache.store(3, for: 3, owner: Self.ada, since: cache.begin())
        #expect(cache.count == 1)
        #expect(cache.value(for: 3) == 3)
        // Many owners invalidated: reads begun before that keep nothing.
        let before = cache.begin()
        cache.invalidate((0..<4).map { UserID(rawValue: "someone \($0)") })
        cache.store(5, for: 5, owner: Self.bob, since: before)
        #expect(cache.value(for: 5) == nil)

        let off = ShortLivedCache<Int, Int>(lifetime: 0, now: { clock.now })
        off.store(1, for: 1, owner: Self.ada, since: off.begin())
        #expect(off.value(for: 1) == nil)
    }

    /// A change made through one server is seen at once there, by everyone it concerns; another
    /// server on the same database serves what it kept until its moment is over.
    @Test func twoServersOnOneDatabase() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flows-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flows.sqlite")
        let clock = TestClock()
        let first = try await RunningServer.start(
            services: .sqlite(.file(file), fast: true, now: { clock.now }), configuration: ServerConfiguration(port: 0, cacheLifetime: 5)
        )
        let second = try await RunningServer.start(
            services: .sqlite(.file(file), fast: true, now: { clock.now }), configuration: ServerConfiguration(port: 0, cacheLifetime: 5)
        )
        do {
            let one = LiveServer(url: first.url, clock: clock)
            let two = LiveServer(url: second.url, clock: clock)
            let ada = try await one.signUp("Ada")
            let bob = try await one.signUp("Bob")
            try await ada.befriend(bob)
            let bobOnTwo = two.client(token: bob.token)
            #expect(try await bobOnTwo.listBalances().ok.body.json.balances.isEmpty)
            #expect(try await bob.client.listBalances().ok.body.json.balances.isEmpty)

            _ = try await ada.client.addExpense(body: .json(.dinner(1_000, paidBy: ada.id, among: [ada.id, bob.id]))).created
            // The first server dropped what it kept of both.
            let owed = Components.Schemas.Balance(other: ada.id, amount: .init(minorUnits: -500, currency: "EUR"))
            #expect(try await bob.client.listBalances().ok.body.json.balances == [owed])
            #expect(try await ada.client.listBalances().ok.body.json.balances.map(\.amount.minorUnits) == [500])
            // The second still serves what it read before, for up to 5 seconds.
            #expect(try await bobOnTwo.listBalances().ok.body.json.balances.isEmpty)
            clock.advance(days: 5 / 86_400)
            #expect(try await bobOnTwo.listBalances().ok.body.json.balances == [owed])

            // Signing out through the second server ends the session there at once, and on the
            // first once what it kept is over.
            #expect(try await ada.client.getCurrentUser().ok.body.json.id == ada.id)
            _ = try await two.client(token: ada.token).signOut().noContent
            #expect(code(of: try await two.client(token: ada.token).getCurrentUser().unauthorized.body.json) == "unauthenticated")
            #expect(try await ada.client.getCurrentUser().ok.body.json.id == ada.id)
            clock.advance(days: 5 / 86_400)
            #expect(code(of: try await ada.client.getCurrentUser().unauthorized.body.json) == "unauthenticated")
        } catch {
            await first.stop()
            await second.stop()
            throw error
        }
        await first.stop()
        await second.stop()
    }

    /// A kept answer to `GET /balances` goes out before the contract's router: exactly as the
    /// whole way gave it, to its own user only, and never to a request the whole way would
    /// refuse.
    @Test func keptBalancesGoOutAsTheWholeWayGaveThem() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            let bob = try await server.signUp("Bob")
            try await ada.befriend(bob)
            _ = try await ada.client.addExpense(body: .json(.dinner(1_000, paidBy: ada.id, among: [ada.id, bob.id]))).created
            let connection = try RawConnection(port: server.port)
            func get(_ path: String = "/balances", token: String, extra: String = "") async throws -> RawResponse {
                try await connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\(extra)\r\n")
                return try await connection.response()
            }
            let whole = try await get(token: ada.token)  // read, encoded and kept
            let kept = try await get(token: ada.token)
            #expect(whole.status == 200)
            #expect(kept.status == whole.status)
            #expect(kept.headers.filter { $0.key != "date" } == whole.headers.filter { $0.key != "date" })
            #expect(kept.body == whole.body)
            #expect(whole.text.contains("\"minorUnits\":500"))
            let bobs = try await get(token: bob.token)
            #expect(bobs.status == 200 && bobs.text.contains("\"minorUnits\":-500"), "\(bobs)")

            // What the whole way refuses is refused, Ada's answer kept or not.
            let html = try await get(token: ada.token, extra: "Accept: text/html\r\n")
            #expect(html.status == 406 && html.problemCode == "invalid-request", "\(html)")
            let json = try await get(token: ada.token, extra: "Accept: application/json;q=0.5, text/html\r\n")
            #expect(json.body == whole.body)
            // A query goes the whole way, which does not read one for this operation.
            let query = try await get("/balances?currency=EUR", token: ada.token)
            #expect(query.status == 200 && query.body == whole.body, "\(query)")
            let forged = try await get(token: String(ada.token.reversed()))
            #expect(forged.status == 401 && forged.problemCode == "unauthenticated", "\(forged)")
            _ = try await ada.client.signOut().noContent
            let ended = try await get(token: ada.token)
            #expect(ended.status == 401 && ended.problemCode == "unauthenticated", "\(ended)")
        }
    }

    /// A client that takes gzip gets the answer to `GET /balances` in gzip, kept or not; one that
    /// does not, or an answer too small to gain, goes as it is; the answer says it varies.
    @Test func balancesGoOutInGzipToClientsThatTakeIt() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            for number in 1...12 {
                guard case .contact(let contact) = try await ada.client.addContact(body: .json(.init(name: "Friend \(number)"))).created.body.json
                else { throw ServerTestError("a contact") }
                _ = try await ada.client.addExpense(body: .json(.dinner(Int64(100 * number), paidBy: ada.id, among: [ada.id, contact.id]))).created
            }
            let connection = try RawConnection(port: server.port)
            func get(token: String, _ extra: String = "") async throws -> RawResponse {
                try await connection.send("GET /balances HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\(extra)\r\n")
                return try await connection.response()
            }
            let whole = try await get(token: ada.token, "Accept-Encoding: gzip, deflate\r\n")  // the whole way
            let kept = try await get(token: ada.token, "Accept-Encoding: gzip, deflate\r\n")
            let plain = try await get(token: ada.token)
            #expect(plain.status == 200 && plain.headers["content-encoding"] == nil && plain.headers["vary"] == "Accept-Encoding")
            #expect(plain.body.count > GzippedBody.smallest && plain.text.contains("\"minorUnits\":600"), "\(plain)")
            for answer in [whole, kept] {
                #expect(answer.status == 200 && answer.headers["content-encoding"] == "gzip" && answer.headers["vary"] == "Accept-Encoding")
                var compressed = ByteBuffer(data: answer.body)
                let decompressed = try compressed.decompress(with: .gzip())
                #expect(Data(decompressed.readableBytesView) == plain.body)
                #expect(answer.body.count < plain.body.count / 2)
            }
            #expect(kept.body == whole.body)
            let refused = try await get(token: ada.token, "Accept-Encoding: gzip;q=0, deflate\r\n")
            #expect(refused.headers["content-encoding"] == nil && refused.body == plain.body)
            // URLSession asks for gzip, and reads it back.
            let session = try await server.raw("GET", "/balances", token: ada.token)
            #expect(session.status == 200 && session.body == plain.body)

            // Bob's single balance is too small to gain from it.
            let bob = try await server.signUp("Bob")
            try await ada.befriend(bob)
            _ = try await ada.client.addExpense(body: .json(.dinner(1_000, paidBy: ada.id, among: [ada.id, bob.id]))).created
            let small = try await get(token: bob.token, "Accept-Encoding: gzip\r\n")
            #expect(small.status == 200 && small.headers["content-encoding"] == nil && small.text.contains("\"minorUnits\":-500"), "\(small)")
        }
    }

    @Test("which Accept-Encoding takes gzip", arguments: [
        ("gzip", true), ("GZIP", true), ("deflate, gzip, br, zstd", true), ("x-gzip", true), ("gzip;q=0.5", true), ("*", true),
        ("br, *;q=0.1", true), (nil, false), ("", false), ("identity", false), ("gzip;q=0", false), ("gzip; q=0.0, *", false),
        ("*;q=0", false), ("deflate", false),
    ] as [(String?, Bool)])
    func takesGzip(header: String?, takes: Bool) {
        #expect(ContentCoding.takesGzip(header) == takes)
    }

    /// Changing one's name through a server shows at once in what that server answers.
    @Test func accountChangesAreSeenAtOnce() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            #expect(try await ada.client.getCurrentUser().ok.body.json.displayName == "Ada")
            _ = try await ada.client.changeDisplayName(body: .json(.init(displayName: "Ada L."))).ok
            #expect(try await ada.client.getCurrentUser().ok.body.json.displayName == "Ada L.")
        }
    }
}

/// The request log's figures.
@Suite struct RequestLogTests {
    @Test func millisecondsWithTwoDecimals() {
        #expect(RequestMiddleware.milliseconds(.zero) == "0.00")
        #expect(RequestMiddleware.milliseconds(.microseconds(50)) == "0.05")
        #expect(RequestMiddleware.milliseconds(.microseconds(12_345)) == "12.34")
        #expect(RequestMiddleware.milliseconds(.seconds(2) + .milliseconds(7)) == "2007.00")
        #expect(RequestMiddleware.milliseconds(.microseconds(100)) == "0.10")
    }
}
