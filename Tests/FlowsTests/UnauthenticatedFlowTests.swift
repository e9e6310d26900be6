import Accounts
import FlowKit
import FlowTesting
import Testing
import UnauthenticatedFlow

@Suite("UnauthenticatedFlow")
struct UnauthenticatedFlowTests {
    let fixture = Fixture()

    private func start() -> FlowTest {
        FlowTest(exhaustive: false) { [accounts = fixture.accounts] router in UnauthenticatedFlow(accounts: accounts, router: router) }
    }

    @Test("the welcome offers sign in, create an account and quit")
    func welcome() async throws {
        let flow = start()
        let screen = try await flow.expectScreen("welcome")
        #expect(screen.elementIDs == ["sign-in", "create-account", "quit"])
        #expect(screen.primaryAction?.id == "sign-in")
        try await flow.tap("quit")
        #expect(try await flow.result(as: UnauthenticatedFlow.FlowResult.self) == .quit)
        #expect(UnauthenticatedFlow.FlowResult.quit.status == .declined)
    }

    @Test("sign in from the welcome")
    func signIn() async throws {
        let user = try await fixture.existingUser()
        let flow = start()
        try await flow.tap("sign-in")
        #expect(try await flow.expectScreen("sign-in").breadcrumb == ["Welcome to Flows"])
        try await flow.fill("email", "ada@example.com")
        try await flow.fill("password", "correct horse")
        try await flow.tap("sign-in")
        #expect(try await flow.result(as: UnauthenticatedFlow.FlowResult.self) == .authenticated(user))
    }

    @Test("create an account from the welcome goes straight to the form")
    func createAccount() async throws {
        let flow = start()
        try await flow.tap("create-account")
        try await flow.fill("email", "grace@example.com")
        try await flow.fill("password", "hopper1906")
        try await flow.fill("display-name", "Grace")
        try await flow.tap("create-account")
        guard case .authenticated(let user) = try await flow.result(as: UnauthenticatedFlow.FlowResult.self) else { Issue.record("not authenticated"); return }
        #expect(user.displayName.value == "Grace")
        #expect(await flow.presented == ["welcome", "sign-up"])
    }

    @Test("leaving sign-in comes back to the welcome; cancel there writes nothing")
    func cancelFromChild() async throws {
        let flow = start()
        try await flow.tap("sign-in")
        try await flow.send(.cancel)
        try await flow.expectScreen("welcome")
        try await flow.tap("create-account")
        try await flow.send(.back)
        try await flow.expectScreen("welcome")
        try await flow.send(.cancel)
        #expect(try await flow.result(as: UnauthenticatedFlow.FlowResult.self) == .cancelled)
        #expect(try fixture.rows() == (0, 0))
    }
}
