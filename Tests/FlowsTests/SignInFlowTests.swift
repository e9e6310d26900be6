import Accounts
import FlowKit
import FlowTestSupport
import SignInFlow
import SignUpFlow
import Testing

/// A parent: its own form is tested exhaustively; SignUp, its child, is stood in for.
@Suite("SignInFlow")
struct SignInFlowTests {
    let fixture = Fixture()

    private func start(_ start: SignInFlow.Start = .signIn, _ dependencies: (any SignInFlow.Dependencies)? = nil) -> FlowTest {
        FlowTest { [fixture] router in SignInFlow(dependencies: dependencies ?? fixture, router: router, start: start) }
    }

    @Test("happy path: signs in with the email in any case")
    func happyPath() async throws {
        let user = try await fixture.existingUser()
        let flow = start()
        await flow.expectSnapshot("""
            == Sign in == [sign-in]
            Sign in with your email and password.
              Email (email, text): (empty)
              Password (password, secret): (empty)
              Actions: Sign in (sign-in, primary) | Create an account (create-account) | Cancel (cancel, cancel)
            """)
        await flow.fill("email", "Ada@Example.com")
        await flow.expectError("email", nil)
        await flow.fill("password", "correct horse")
        await flow.expectError("password", nil)
        await flow.tap("sign-in")
        await flow.expectResult(SignInFlow.FlowResult.signedIn(user))
        #expect(try await fixture.accounts.currentUser() == user)
    }

    @Test("a wrong password says 'wrong email or password', clears the password, and allows another try")
    func wrongPassword() async throws {
        let user = try await fixture.existingUser()
        let flow = start()
        await flow.fill(["email": "ada@example.com", "password": "wrong horse"])
        await flow.skipScreen()
        await flow.tap("sign-in")
        await flow.expectError(nil, "wrong email or password")
        await flow.expectText("Password (password, secret): (empty)")
        await flow.expectText("Email (email, text): ada@example.com")
        #expect(try fixture.rows().sessions == 0)

        await flow.fill("password", "correct horse")
        await flow.expectError(nil, nil)
        await flow.tap("sign-in")
        await flow.expectResult(SignInFlow.FlowResult.signedIn(user))
    }

    @Test("an unknown email gets the same message as a wrong password")
    func unknownEmail() async throws {
        try await fixture.existingUser()
        let flow = start()
        await flow.fill(["email": "bob@example.com", "password": "correct horse"])
        await flow.skipScreen()
        await flow.tap("sign-in")
        await flow.expectError(nil, "wrong email or password")
        await flow.cancel()
        await flow.expectResult(SignInFlow.FlowResult.cancelled)
    }

    @Test("each field says what it needs", arguments: [
        ("email", "ada", "Enter an email address like name@example.com."),
        ("email", "ada\u{0}@example.com", "An email address cannot contain control characters."),
        ("password", "", "Enter your password."),
    ] as [(ElementID, String, String)])
    func invalidField(field: ElementID, value: String, message: String) async throws {
        let flow = start()
        await flow.expectScreen("sign-in")
        await flow.fill(field, value)
        await flow.expectError(field, message)
        await flow.cancel()
        await flow.expectResult(SignInFlow.FlowResult.cancelled)
    }

    @Test("a password made under any rule is only compared: a 10,000-character one just fails")
    func veryLongPassword() async throws {
        try await fixture.existingUser()
        let flow = start()
        await flow.fill(["email": "ada@example.com", "password": String(repeating: "x", count: 10_000)])
        await flow.expectError("password", nil)
        await flow.tap("sign-in")
        await flow.expectError(nil, "wrong email or password")
        await flow.cancel()
        await flow.expectResult(SignInFlow.FlowResult.cancelled)
    }

    @Test("a store that fails shows its error on the screen")
    func storeFailure() async throws {
        let flow = start(.signIn, Fixture.unavailable())
        await flow.fill(["email": "ada@example.com", "password": "correct horse"])
        await flow.skipScreen()
        await flow.tap("sign-in")
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.cancel()
        await flow.expectResult(SignInFlow.FlowResult.cancelled)
    }

    @Test("create an account starts SignUp; cancelled there, the form comes back as it was")
    func toSignUpAndBack() async throws {
        let flow = start()
        await flow.skipScreen()
        await flow.fill("email", "ada@example.com")
        await flow.expectScreen("sign-in")
        await flow.expectChild(SignUpFlow.self, producing: .cancelled)
        await flow.tap("create-account")
        await flow.expectText("Email (email, text): ada@example.com")
        await flow.tap("cancel")
        await flow.expectResult(SignInFlow.FlowResult.cancelled)
        #expect(await flow.startedChildren == ["SignUpFlow"])
        #expect(try fixture.rows() == (0, 0))
    }

    @Test("an account created in SignUp ends sign-in with it")
    func toSignUpAndThrough() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start()
        await flow.expectScreen("sign-in")
        await flow.expectChild(SignUpFlow.self, producing: .signedUp(user))
        await flow.tap("create-account")
        await flow.expectResult(SignInFlow.FlowResult.signedUp(user))
        #expect(await flow.presented == ["sign-in"])
    }

    @Test("starting at sign-up runs SignUp alone, and its end is the path's end", arguments: [
        (SignUpFlow.FlowResult.cancelled, SignInFlow.FlowResult.cancelled),
    ])
    func startAtSignUp(child: SignUpFlow.FlowResult, expected: SignInFlow.FlowResult) async throws {
        let flow = start(.signUp)
        await flow.expectChild(SignUpFlow.self, producing: child)
        await flow.expectResult(expected)
        #expect(await flow.presented == [])
        #expect(await flow.startedChildren == ["SignUpFlow"])
    }

    @Test("starting at sign-up, an account made there is signed up")
    func startAtSignUpThrough() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(.signUp)
        await flow.expectChild(SignUpFlow.self, producing: .signedUp(user))
        await flow.expectResult(SignInFlow.FlowResult.signedUp(user))
    }
}
