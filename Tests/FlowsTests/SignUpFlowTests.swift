import Accounts
import FlowKit
import FlowTesting
import SignUpFlow
import Testing

@Suite("SignUpFlow")
struct SignUpFlowTests {
    let fixture = Fixture()

    private func start() -> FlowTest {
        FlowTest(exhaustive: false) { [accounts = fixture.accounts] router in SignUpFlow(accounts: accounts, router: router) }
    }

    @Test("happy path, every screen checked: the account is created and signed in")
    func happyPath() async throws {
        let flow = FlowTest { [accounts = fixture.accounts] router in SignUpFlow(accounts: accounts, router: router) }
        let screen = try await flow.expectScreen("sign-up")
        #expect(screen.elementIDs == ["email", "password", "display-name", "create-account", "cancel"])
        #expect(screen.primaryAction?.id == "create-account")
        try await flow.fill("email", "ada@example.com")
        try await flow.expectText("Email (email, text): ada@example.com")
        try await flow.fill("password", "correct horse")
        #expect(try await flow.expectScreen("sign-up").field("password")?.input == .secret(isSet: true))
        try await flow.fill("display-name", "Ada Lovelace")
        let filled = try await flow.expectScreen("sign-up")
        #expect(filled.fields.allSatisfy { $0.error == nil })
        try await flow.tap("create-account")

        guard case .signedUp(let user) = try await flow.result(as: SignUpFlow.FlowResult.self) else { Issue.record("not signed up"); return }
        #expect(user.email.value == "ada@example.com")
        #expect(user.displayName.value == "Ada Lovelace")
        #expect(try await fixture.accounts.currentUser() == user)
    }

    @Test("each field shows what it accepts, and the error goes once the value is fixed", arguments: [
        ("email", "not-an-email", "Enter an email address like name@example.com.", "ada@example.com"),
        ("password", "short", "Use at least 8 characters.", "correct horse"),
        ("display-name", "   ", "Enter a name of 1 to 50 characters.", "Ada"),
        ("display-name", "Ada\u{1B}[31m", "A name cannot contain control characters.", "Ada"),
        ("email", String(repeating: "a", count: 10_000), "An email address has at most 254 characters.", "ada@example.com"),
        ("display-name", String(repeating: "n", count: 10_000), "A name has at most 50 characters.", "Ada"),
    ] as [(ElementID, String, String, String)])
    func invalidField(field: ElementID, bad: String, message: String, good: String) async throws {
        let flow = start()
        try await flow.fill(field, bad)
        #expect(try await flow.expectScreen("sign-up").field(field)?.error == message)
        try await flow.fill(field, good)
        #expect(try await flow.expectScreen("sign-up").field(field)?.error == nil)
        try await flow.send(.cancel)
        #expect(try await flow.result(as: SignUpFlow.FlowResult.self) == .cancelled)
    }

    @Test("submitting an incomplete form marks every missing field and writes nothing")
    func incompleteForm() async throws {
        let flow = start()
        try await flow.fill("email", "ada@example.com")
        try await flow.tap("create-account")
        let screen = try await flow.expectScreen("sign-up")
        #expect(screen.field("email")?.error == nil)
        #expect(screen.field("password")?.error == "Use at least 8 characters.")
        #expect(screen.field("display-name")?.error == "Enter a name of 1 to 50 characters.")
        #expect(try fixture.rows().users == 0)
        try await flow.send(.cancel)
        _ = try await flow.result(as: SignUpFlow.FlowResult.self)
    }

    @Test("an email already taken, in any case, is an error on the email field")
    func emailTaken() async throws {
        try await fixture.existingUser()
        let flow = start()
        try await flow.fill("email", " ADA@example.com ")
        try await flow.fill("password", "another password")
        try await flow.fill("display-name", "Someone")
        try await flow.tap("create-account")
        let screen = try await flow.expectScreen("sign-up")
        #expect(screen.field("email")?.error == "An account with this email already exists; sign in instead.")
        #expect(screen.status == nil)
        try await flow.tap("cancel")
        #expect(try await flow.result(as: SignUpFlow.FlowResult.self) == .cancelled)
        #expect(try fixture.rows().users == 1)
    }

    @Test("cancel, back and the cancel action all leave without writing", arguments: [
        UserEvent.cancel, .back, .tap("cancel"),
    ])
    func cancel(event: UserEvent) async throws {
        let flow = start()
        try await flow.fill("email", "ada@example.com")
        try await flow.fill("password", "correct horse")
        try await flow.fill("display-name", "Ada")
        try await flow.send(event)
        #expect(try await flow.result(as: SignUpFlow.FlowResult.self) == .cancelled)
        #expect(try fixture.rows() == (0, 0))
        #expect(try fixture.tokens.load() == nil)
    }

    @Test("a store that fails shows its error on the screen, and the form stays")
    func storeFailure() async throws {
        let flow = FlowTest(exhaustive: false) { router in SignUpFlow(accounts: UnavailableAccounts(), router: router) }
        try await flow.fill("email", "ada@example.com")
        try await flow.fill("password", "correct horse")
        try await flow.fill("display-name", "Ada")
        try await flow.tap("create-account")
        let screen = try await flow.expectScreen("sign-up")
        #expect(screen.status == .error("The local store is unavailable: disk on fire"))
        #expect(screen.field("email")?.input == .text("ada@example.com"))
        try await flow.send(.cancel)
        #expect(try await flow.result(as: SignUpFlow.FlowResult.self) == .cancelled)
    }

    @Test("the result encodes as {result, user}")
    func encoding() async throws {
        #expect(SignUpFlow.FlowResult.cancelled.name == "cancelled")
        #expect(SignUpFlow.FlowResult.cancelled.status == .cancelled)
        let user = try await fixture.existingUser()
        #expect(SignUpFlow.FlowResult.signedUp(user).status == .completed)
        #expect(try json(SignUpFlow.FlowResult.signedUp(user)).contains(#""result":"signed-up""#))
    }
}
