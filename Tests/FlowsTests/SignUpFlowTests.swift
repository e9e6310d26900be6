import Accounts
import FlowKit
import FlowTestSupport
import SignUpFlow
import Testing

/// A leaf flow, tested exhaustively: every screen it shows is checked before the next step.
@Suite("SignUpFlow")
struct SignUpFlowTests {
    let fixture = Fixture()

    private func start(_ dependencies: any SignUpFlow.Dependencies) -> FlowTest {
        FlowTest { router in SignUpFlow(dependencies: dependencies, router: router) }
    }

    @Test("happy path, every screen checked: the account is created and signed in")
    func happyPath() async throws {
        let flow = start(fixture)
        await flow.expectSnapshot("""
            == Create an account == [sign-up]
            Your email and password sign you in; your name is what friends see.
              Email (email, text): (empty)
              Password (password, secret; at least 8 characters): (empty)
              Display name (display-name, text; what friends see): (empty)
              Actions: Create account (create-account, primary) | Cancel (cancel, cancel)
            """)
        await flow.fill("email", "ada@example.com")
        await flow.expectText("Email (email, text): ada@example.com")
        await flow.fill("password", "correct horse")
        #expect(await flow.expectScreen("sign-up")?.field("password")?.input == .secret(isSet: true))
        await flow.fill("display-name", "Ada Lovelace")
        #expect(await flow.expectScreen("sign-up")?.fields.allSatisfy { $0.error == nil } == true)
        await flow.tap("create-account")

        guard case .signedUp(let user) = await flow.result(as: SignUpFlow.FlowResult.self) else { Issue.record("not signed up"); return }
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
        let flow = start(fixture)
        await flow.expectScreen("sign-up")
        await flow.fill(field, bad)
        await flow.expectError(field, message)
        await flow.fill(field, good)
        await flow.expectError(field, nil)
        await flow.cancel()
        await flow.expectResult(SignUpFlow.FlowResult.cancelled)
    }

    @Test("submitting an incomplete form marks every missing field and writes nothing")
    func incompleteForm() async throws {
        let flow = start(fixture)
        await flow.expectScreen("sign-up")
        await flow.fill("email", "ada@example.com")
        await flow.expectError("email", nil)
        await flow.tap("create-account")
        await flow.expectError("email", nil)
        await flow.expectError("password", "Use at least 8 characters.")
        await flow.expectError("display-name", "Enter a name of 1 to 50 characters.")
        #expect(try fixture.rows().users == 0)
        await flow.cancel()
        await flow.expectResult(SignUpFlow.FlowResult.cancelled)
    }

    @Test("an email already taken, in any case, is an error on the email field")
    func emailTaken() async throws {
        try await fixture.existingUser()
        let flow = start(fixture)
        await flow.fill(["email": " ADA@example.com ", "password": "another password", "display-name": "Someone"])
        await flow.skipScreen()
        await flow.tap("create-account")
        await flow.expectError("email", "An account with this email already exists; sign in instead.")
        await flow.expectError(nil, nil)
        await flow.tap("cancel")
        await flow.expectResult(SignUpFlow.FlowResult.cancelled)
        #expect(try fixture.rows().users == 1)
    }

    @Test("cancel, back and the cancel action all leave without writing", arguments: [
        UserEvent.cancel, .back, .tap("cancel"),
    ])
    func cancel(event: UserEvent) async throws {
        let flow = start(fixture)
        await flow.fill(["email": "ada@example.com", "password": "correct horse", "display-name": "Ada"])
        await flow.expectError(nil, nil)
        await flow.send(event)
        await flow.expectResult(SignUpFlow.FlowResult.cancelled)
        #expect(try fixture.rows() == (0, 0))
        #expect(try fixture.tokens.load() == nil)
    }

    @Test("a store that fails shows its error on the screen, and the form stays")
    func storeFailure() async throws {
        let flow = start(Fixture.unavailable())
        await flow.fill(["email": "ada@example.com", "password": "correct horse", "display-name": "Ada"])
        await flow.skipScreen()
        await flow.tap("create-account")
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.expectText("Email (email, text): ada@example.com")
        await flow.cancel()
        await flow.expectResult(SignUpFlow.FlowResult.cancelled)
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
