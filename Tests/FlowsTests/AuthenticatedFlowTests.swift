import Accounts
import AuthenticatedFlow
import FlowKit
import FlowTesting
import Testing

@Suite("AuthenticatedFlow")
struct AuthenticatedFlowTests {
    let fixture = Fixture()

    private func start(_ user: User) -> FlowTest {
        FlowTest(exhaustive: false) { [accounts = fixture.accounts] router in AuthenticatedFlow(user: user, accounts: accounts, router: router) }
    }

    @Test("shows who is signed in; sign out ends the session")
    func signOut() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user)
        let screen = try await flow.expectScreen("home")
        #expect(screen.text.contains("Signed in as Ada Lovelace <ada@example.com>."))
        #expect(screen.elementIDs == ["sign-out", "quit"])
        try await flow.tap("sign-out")
        #expect(try await flow.result(as: AuthenticatedFlow.FlowResult.self) == .signedOut)
        #expect(try await fixture.accounts.currentUser() == nil)
        #expect(try fixture.rows().sessions == 0)
    }

    @Test("quit leaves the user signed in", arguments: [(UserEvent.tap("quit"), AuthenticatedFlow.FlowResult.closed), (.cancel, .cancelled), (.back, .cancelled)])
    func quit(event: UserEvent, expected: AuthenticatedFlow.FlowResult) async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user)
        try await flow.send(event)
        #expect(try await flow.result(as: AuthenticatedFlow.FlowResult.self) == expected)
        #expect(try await fixture.accounts.currentUser() == user)
    }

    @Test("a sign-out the store refuses shows the error and stays")
    func signOutFails() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = FlowTest(exhaustive: false) { router in AuthenticatedFlow(user: user, accounts: UnavailableAccounts(), router: router) }
        try await flow.tap("sign-out")
        #expect(try await flow.expectScreen("home").status == .error("The local store is unavailable: disk on fire"))
        try await flow.tap("quit")
        #expect(try await flow.result(as: AuthenticatedFlow.FlowResult.self) == .closed)
    }
}
