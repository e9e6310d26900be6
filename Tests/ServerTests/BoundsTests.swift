import AccountsData
import Expenses
import FlowsApp
import Foundation
import Friends
import Primitives
import Testing

/// What one request may ask for is bounded, and a request past a bound is refused with a Problem
/// that names it, never a 5xx (the database's limit on a statement's parameters, say).
@Suite(.timeLimit(.minutes(2)))
struct BoundsTests {
    private static func ids(_ count: Int) -> [String] {
        (0..<count).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
    }

    @Test("a batch names at most 100 people; the app asks for more 100 at a time")
    func batches() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            let list = { (count: Int) in #"{"ids":["# + Self.ids(count).map { "\"\($0)\"" }.joined(separator: ",") + "]}" }
            let hundred = try await server.raw("POST", "/people/names", token: ada.token, json: list(100))
            #expect(hundred.status == 200, "\(hundred)")
            let more = try await server.raw("POST", "/people/names", token: ada.token, json: list(101))
            #expect(more.status == 400 && more.problemCode == "invalid-request" && more.text.contains("at most 100"), "\(more)")

            let tokens = InMemorySessionTokenStore()
            let app = AppContainer.remote(server: server.url, tokens: tokens)
            let bob = try await app.accounts.signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
            // 250 people nobody knows: three batches, each answered, none with a name.
            #expect(try await app.friends.names(of: Set(Self.ids(250).map(UserID.init(rawValue:))), for: bob.id).isEmpty)
        }
    }

    @Test("an expense has at most 200 people, paying and sharing")
    func peoplePerExpense() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            let people = [ada.id] + Self.ids(200)
            let body = #"{"description":"Party","amount":{"minorUnits":20100,"currency":"EUR"},"day":"2026-11-22","category":"general","payers":[{"user":"\#(ada.id)","amount":{"minorUnits":20100,"currency":"EUR"}}],"participants":[\#(people.map { "\"\($0)\"" }.joined(separator: ","))],"rule":{"mode":"equal"}}"#
            let refused = try await server.raw("POST", "/expenses", token: ada.token, json: body)
            #expect(refused.status == 422 && refused.problemCode == "too-many-people" && refused.text.contains("200"), "\(refused)")
        }
    }
}
