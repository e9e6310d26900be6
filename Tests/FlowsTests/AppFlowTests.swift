import Accounts
import AppFlow
import FlowKit
import FlowTesting
import Testing

@Suite("AppFlow")
struct AppFlowTests {
    let fixture = Fixture()

    private func start(_ accounts: (any AccountsService)? = nil) -> FlowTest {
        FlowTest(exhaustive: false) { [accounts = accounts ?? fixture.accounts] router in AppFlow(accounts: accounts, router: router) }
    }

    @Test("with no stored session: the welcome; quitting there closes the app")
    func noSession() async throws {
        let flow = start()
        try await flow.expectScreen("welcome")
        try await flow.tap("quit")
        #expect(try await flow.result(as: AppFlow.FlowResult.self) == .closed(user: nil))
    }

    @Test("with a stored session: the home of that user")
    func storedSession() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start()
        #expect(try await flow.expectScreen("home").text.contains("Signed in as Ada Lovelace <ada@example.com>."))
        try await flow.tap("quit")
        #expect(try await flow.result(as: AppFlow.FlowResult.self) == .closed(user: user))
    }

    @Test("sign in, sign out, back to the welcome, sign in again")
    func fullCircle() async throws {
        let user = try await fixture.existingUser()
        let flow = start()
        try await flow.tap("sign-in")
        try await flow.fill("email", "ada@example.com")
        try await flow.fill("password", "correct horse")
        try await flow.tap("sign-in")
        try await flow.expectScreen("home")
        try await flow.tap("sign-out")
        try await flow.expectScreen("welcome")
        try await flow.tap("quit")
        #expect(try await flow.result(as: AppFlow.FlowResult.self) == .closed(user: nil))
        #expect(await flow.presented == ["welcome", "sign-in", "home", "welcome"])
        #expect(try await fixture.accounts.currentUser() == nil)
        _ = user
    }

    @Test("cancel anywhere ends the app and writes nothing")
    func cancel() async throws {
        let flow = start()
        try await flow.tap("create-account")
        try await flow.fill("email", "grace@example.com")
        try await flow.send(.cancel)
        try await flow.send(.cancel)
        #expect(try await flow.result(as: AppFlow.FlowResult.self) == .cancelled)
        #expect(try fixture.rows() == (0, 0))
    }

    @Test("a store that cannot be read gets its own screen: try again, or quit")
    func storeUnavailable() async throws {
        let flow = start(UnavailableAccounts())
        let screen = try await flow.expectScreen("app-unavailable")
        #expect(screen.status == .error("The local store is unavailable: disk on fire"))
        try await flow.tap("retry")
        try await flow.expectScreen("app-unavailable")
        try await flow.tap("quit")
        #expect(try await flow.result(as: AppFlow.FlowResult.self) == .failed("The local store is unavailable: disk on fire"))
        #expect(AppFlow.FlowResult.failed("x").status == .failed)
    }
}
