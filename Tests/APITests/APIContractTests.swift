import FlowsAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// A client transport that answers one canned response and keeps the request it was sent.
private actor CannedTransport: ClientTransport {
    private let status: HTTPResponse.Status
    private let body: String
    private(set) var requests: [(request: HTTPRequest, body: String?)] = []

    init(status: HTTPResponse.Status, body: String) {
        self.status = status
        self.body = body
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let sent: String? = if let body { try await String(collecting: body, upTo: 1 << 20) } else { nil }
        requests.append((request, sent))
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = "application/json"
        return (response, HTTPBody(self.body))
    }
}

/// The code generated from docs/api/openapi.yaml (Scripts/generate-api): its requests and the
/// JSON shapes of the contract's conventions.
@Suite("The HTTP contract's generated code")
struct APIContractTests {
    private static let server = URL(string: "http://localhost:8080")!

    @Test("listing balances is GET /balances, and money reads as whole minor units with a currency code")
    func balances() async throws {
        let transport = CannedTransport(status: .ok, body: #"{"balances":[{"other":"b0b","amount":{"minorUnits":-1250,"currency":"EUR"}}]}"#)
        let client = Client(serverURL: Self.server, transport: transport)
        let output = try await client.listBalances()
        let list = try output.ok.body.json
        #expect(list.balances == [.init(other: "b0b", amount: .init(minorUnits: -1250, currency: "EUR"))])
        let request = try #require(await transport.requests.first).request
        #expect(request.method == .get)
        #expect(request.path == "/balances")
    }

    @Test("signing in posts the email and password to /sessions; a refusal reads as a Problem with its code")
    func signIn() async throws {
        let transport = CannedTransport(
            status: .unauthorized,
            body: #"{"error":"wrong-email-or-password","message":"wrong email or password"}"#
        )
        let client = Client(serverURL: Self.server, transport: transport)
        let output = try await client.signIn(body: .json(.init(email: "ada@example.com", password: "correct horse")))
        let problem = try output.unauthorized.body.json
        #expect(problem.error == .wrongEmailOrPassword)
        #expect(problem.message == "wrong email or password")
        let sent = try #require(await transport.requests.first)
        #expect(sent.request.method == .post)
        #expect(sent.request.path == "/sessions")
        let body = try JSONSerialization.jsonObject(with: Data((sent.body ?? "").utf8)) as? [String: String]
        #expect(body == ["email": "ada@example.com", "password": "correct horse"])
    }

    @Test("a day is yyyy-MM-dd text and an expense draft names its payers and split rule")
    func expenseDraft() throws {
        let draft = try JSONDecoder().decode(Components.Schemas.ExpenseDraft.self, from: Data(#"""
            {"description":"Dinner","amount":{"minorUnits":3000,"currency":"EUR"},"day":"2027-01-15","category":"food",
             "payers":[{"user":"ada","amount":{"minorUnits":3000,"currency":"EUR"}}],"participants":["ada","bob"],
             "rule":{"mode":"equal"}}
            """#.utf8))
        #expect(draft.description == "Dinner")
        #expect(draft.day == "2027-01-15")
        #expect(draft.payers.map(\.user) == ["ada"])
    }
}
