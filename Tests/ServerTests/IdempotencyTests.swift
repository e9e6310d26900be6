import Expenses
import ExpensesRemote
import FlowsAPIClient
@testable import FlowsServer
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Primitives
import Synchronization
import Testing

/// A creating request sent again with its Idempotency-Key writes nothing and gets the first
/// answer; the app sends a key with each such change and sends it again when the answer is lost.
@Suite(.timeLimit(.minutes(2)))
struct IdempotencyTests {
    private func lunch(by user: String, minorUnits: Int = 1_200) -> String {
        """
        {"description":"Lunch","amount":{"minorUnits":\(minorUnits),"currency":"EUR"},"day":"2026-11-21","category":"food",\
        "payers":[{"user":"\(user)","amount":{"minorUnits":\(minorUnits),"currency":"EUR"}}],"participants":["\(user)"],"rule":{"mode":"equal"}}
        """
    }

    private func expenses(of member: Member, on server: LiveServer) async throws -> Int {
        try await member.client.listExpenses().ok.body.json.expenses.count
    }

    @Test("a repeat with the same key gets the first answer and writes nothing; the key with another body is refused")
    func repeats() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            func post(_ body: String, key: String?) async throws -> RawResponse {
                try await server.raw("POST", "/expenses", token: ada.token, body: Data(body.utf8), headers: key.map { ["Idempotency-Key": $0] } ?? [:])
            }
            let first = try await post(lunch(by: ada.id), key: "lunch-1")
            let again = try await post(lunch(by: ada.id), key: "lunch-1")
            #expect(first.status == 201 && again.status == 201, "\(first) \(again)")
            #expect(again.body == first.body, "the first answer, the same expense")
            #expect(again.headers["idempotent-replayed"] == "true")
            #expect(first.headers["idempotent-replayed"] == nil)
            #expect(try await expenses(of: ada, on: server) == 1)

            let reused = try await post(lunch(by: ada.id, minorUnits: 900), key: "lunch-1")
            #expect(reused.status == 422 && reused.problemCode == "idempotency-key-reused", "\(reused)")
            let malformed = try await post(lunch(by: ada.id), key: "two words")
            #expect(malformed.status == 400 && malformed.problemCode == "invalid-request", "\(malformed)")
            // Keys are each user's own: Bob's "lunch-1" is another key.
            let bob = try await server.signUp("Bob")
            let bobs = try await server.raw("POST", "/expenses", token: bob.token, body: Data(lunch(by: bob.id).utf8), headers: ["Idempotency-Key": "lunch-1"])
            #expect(bobs.status == 201 && bobs.headers["idempotent-replayed"] == nil, "\(bobs)")
            // A refused request gives its key back: the same key, fixed, is written.
            let refused = try await post(lunch(by: bob.id), key: "lunch-2")
            #expect(refused.status == 422 || refused.status == 403, "\(refused)")
            #expect(try await post(lunch(by: ada.id), key: "lunch-2").status == 201)
            #expect(try await expenses(of: ada, on: server) == 2)
            // Without a key, each request is a new expense.
            _ = try await post(lunch(by: ada.id), key: nil)
            _ = try await post(lunch(by: ada.id), key: nil)
            #expect(try await expenses(of: ada, on: server) == 4)
        }
    }

    @Test("the app sends its change again when the answer is lost, and the server records it once")
    func lostAnswer() async throws {
        try await LiveServer.with { server in
            let ada = try await server.signUp("Ada")
            let transport = LosingTransport(losing: ExpensesAPI.addExpense.id)
            let connection = APIConnection(server: server.url, token: { ada.token }, transport: transport)
            let user = UserID(rawValue: ada.id)
            let amount = Money(minorUnits: 1_200, currency: .eur)
            let draft = ExpenseDraft(
                description: "Lunch", amount: amount, day: try Day("2026-11-21"), category: .food, payers: [Payer(user: user, amount: amount)],
                participants: [user], rule: .equal
            )
            let added = try await RemoteExpensesService(connection: connection).add(draft, by: user)
            #expect(transport.sent == 2, "sent, its answer lost, and sent again")
            #expect(try await ada.client.listExpenses().ok.body.json.expenses.map(\.id) == [added.id.rawValue])
        }
    }

    @Test("a key held by a request still being answered is in use; one left by a stopped server is taken over; keys last 24 hours")
    func keysInMemory() async {
        let clock = Mutex<Double>(0)
        let keys = MemoryIdempotencyKeys { clock.withLock { $0 } }
        let ada = UserID(rawValue: "ada")
        let print: [UInt8] = [1, 2, 3]
        #expect(await (try? keys.begin(user: ada, key: "k", fingerprint: print)) == .begun)
        #expect(await (try? keys.begin(user: ada, key: "k", fingerprint: print)) == .inProgress)
        clock.withLock { $0 = IdempotencyPolicy.lease + 1 }
        #expect(await (try? keys.begin(user: ada, key: "k", fingerprint: print)) == .begun, "taken over after the lease")
        await keys.complete(user: ada, key: "k", status: 201, body: [9])
        #expect(await (try? keys.begin(user: ada, key: "k", fingerprint: print)) == .replay(status: 201, body: [9]))
        #expect(await (try? keys.begin(user: ada, key: "k", fingerprint: [4])) == .reused)
        clock.withLock { $0 += IdempotencyPolicy.lifetime + 1 }
        #expect(await (try? keys.begin(user: ada, key: "k", fingerprint: [4])) == .begun, "forgotten after 24 hours")
        await keys.abandon(user: ada, key: "k")
        #expect(await (try? keys.begin(user: ada, key: "k", fingerprint: print)) == .begun, "given back")
    }
}

/// libcurl, except that the first answer to one operation is lost on the way back.
final class LosingTransport: ClientTransport, Sendable {
    private let inner = CurlTransport(timeout: 20)
    private let losing: String
    private let count = Mutex(0)

    init(losing: String) {
        self.losing = losing
    }

    /// How many times the operation was sent.
    var sent: Int { count.withLock { $0 } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let answer = try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
        guard operationID == losing else { return answer }
        let first = count.withLock { count in
            count += 1
            return count == 1
        }
        if first { throw URLError(.networkConnectionLost) }
        return answer
    }
}
