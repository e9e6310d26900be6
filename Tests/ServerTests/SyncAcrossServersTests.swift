import FlowsServer
import Foundation
import Testing

/// A replica's sync through servers that share one PostgreSQL database, as a load balancer
/// spreads a client's requests over them.
@Suite(
    .enabled(if: TestPostgres.url != nil, "FLOWS_TEST_DATABASE_URL names no PostgreSQL server (Scripts/test starts one)"),
    .timeLimit(.minutes(2))
)
struct SyncAcrossServersTests {
    private static let limits = RateLimits(
        failuresPerAccount: 1_000, failuresPerAccountFromNewAddresses: 1_000, failuresPerAddress: 1_000, signUpsPerAddress: 1_000,
        lookupsPerUser: 1_000, lookupsPerAddress: 1_000
    )

    /// A pull's answer: its changes' ids and its cursor.
    private func pull(_ server: LiveServer, _ token: String, after cursor: String?) async throws -> (ids: [String], cursor: String) {
        let answer = try await server.raw("GET", "/sync/changes?limit=500" + (cursor.map { "&after=\($0)" } ?? ""), token: token)
        try #require(answer.status == 200, "\(answer)")
        let page = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
        let changes = page["changes"] as? [[String: Any]] ?? []
        return (changes.compactMap { $0["id"] as? String }, try #require(page["cursor"] as? String))
    }

    @Test("a write through one server reaches a pull through the other, and a push sent again through the other applies nothing twice")
    func acrossServers() async throws {
        try await SharedLimitsTests.withTwoServers(limits: Self.limits) { one, two, _ in
            let ada = try await one.signUp("Ada")
            let bob = try await one.signUp("Bob")
            try await ada.befriend(bob)
            let first = try await pull(two, bob.token, after: nil)
            #expect(first.ids.contains(ada.id) && first.ids.contains(bob.id))

            let dinner = try await ada.client.addExpense(body: .json(.dinner(1_000, paidBy: ada.id, among: [ada.id, bob.id]))).created.body.json
            let next = try await pull(two, bob.token, after: first.cursor)
            // The expense, and the line of activity that tells of it.
            #expect(next.ids.count == 2 && next.ids.contains(dinner.id) && next.ids.contains { $0.hasPrefix("\(dinner.id)/") })

            let push = #"{"operations":[{"key":"k-kim","operation":"addContact","body":{"name":"Kim Lee"}}]}"#
            let pushed = try await one.raw("POST", "/sync/push", token: bob.token, json: push)
            let again = try await two.raw("POST", "/sync/push", token: bob.token, json: push)
            #expect(pushed.status == 200 && again.status == 200, "\(pushed) \(again)")
            #expect(pushed.text.contains(#""outcome":"applied""#) && again.text == pushed.text, "\(pushed.text) \(again.text)")
            let contacts = try await two.raw("GET", "/friends", token: bob.token)
            #expect(contacts.text.components(separatedBy: "Kim Lee").count == 2, "\(contacts.text)")
            // Bob's replica hears of his own contact through either server.
            let last = try await pull(one, bob.token, after: next.cursor)
            #expect(last.ids.count == 1 && !last.ids.contains(dinner.id))
        }
    }
}
