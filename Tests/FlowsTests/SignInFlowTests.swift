import Accounts
import FlowKit
import FlowTesting
import SignInFlow
import Testing

@Suite("SignInFlow")
struct SignInFlowTests {
    let fixture = Fixture()

    private func start(_ start: SignInFlow.Start = .signIn) -> FlowTest {
        FlowTest(exhaustive: false) { [accounts = fixture.accounts] router in SignInFlow(accounts: accounts, router: router, start: start) }
    }

    @Test("happy path: signs in with the email in any case")
    func happyPath() async throws {
        let user = try await fixture.existingUser()
        let flow = start()
        let screen = try await flow.expectScreen("sign-in")
        #expect(screen.elementIDs == ["email", "password", "sign-in", "create-account", "cancel"])
        try await flow.fill("email", "Ada@Example.com")
        try await flow.fill("password", "correct horse")
        try await flow.tap("sign-in")
        #expect(try await flow.result(as: SignInFlow.FlowResult.self) == .signedIn(user))
        #expect(try await fixture.accounts.currentUser() == user)
    }

    @Test("a wrong password says 'wrong email or password', clears the password, and allows another try")
    func wrongPassword() async throws {
        let user = try await fixture.existingUser()
        let flow = start()
        try await flow.fill("email", "ada@example.com")
        try await flow.fill("password", "wrong horse")
        try await flow.tap("sign-in")
        let failed = try await flow.expectScreen("sign-in")
        #expect(failed.status == .error("wrong email or password"))
        #expect(failed.field("password")?.input == .secret(isSet: false))
        #expect(failed.field("email")?.input == .text("ada@example.com"))
        #expect(try fixture.rows().sessions == 0)

        try await flow.fill("password", "correct horse")
        #expect(try await flow.expectScreen("sign-in").status == nil)
        try await flow.tap("sign-in")
        #expect(try await flow.result(as: SignInFlow.FlowResult.self) == .signedIn(user))
    }

    @Test("an unknown email gets the same message as a wrong password")
    func unknownEmail() async throws {
        try await fixture.existingUser()
        let flow = start()
        try await flow.fill("email", "bob@example.com")
        try await flow.fill("password", "correct horse")
        try await flow.tap("sign-in")
        #expect(try await flow.expectScreen("sign-in").status == .error("wrong email or password"))
        try await flow.send(.cancel)
        #expect(try await flow.result(as: SignInFlow.FlowResult.self) == .cancelled)
    }

    @Test("each field says what it needs", arguments: [
        ("email", "ada", "Enter an email address like name@example.com."),
        ("email", "ada\u{0}@example.com", "An email address cannot contain control characters."),
        ("password", "", "Enter your password."),
    ] as [(ElementID, String, String)])
    func invalidField(field: ElementID, value: String, message: String) async throws {
        let flow = start()
        try await flow.fill(field, value)
        #expect(try await flow.expectScreen("sign-in").field(field)?.error == message)
        try await flow.send(.cancel)
        _ = try await flow.result(as: SignInFlow.FlowResult.self)
    }

    @Test("a password made under any rule is only compared: a 10,000-character one just fails")
    func veryLongPassword() async throws {
        try await fixture.existingUser()
        let flow = start()
        try await flow.fill("email", "ada@example.com")
        try await flow.fill("password", String(repeating: "x", count: 10_000))
        try await flow.tap("sign-in")
        #expect(try await flow.expectScreen("sign-in").status == .error("wrong email or password"))
        try await flow.send(.cancel)
        _ = try await flow.result(as: SignInFlow.FlowResult.self)
    }

    @Test("create an account from sign-in, and come back by cancelling it")
    func toSignUpAndBack() async throws {
        let flow = start()
        try await flow.fill("email", "ada@example.com")
        try await flow.tap("create-account")
        let signUp = try await flow.expectScreen("sign-up")
        #expect(signUp.breadcrumb == ["Sign in"])
        try await flow.send(.cancel)
        let back = try await flow.expectScreen("sign-in")
        #expect(back.field("email")?.input == .text("ada@example.com"))
        try await flow.tap("cancel")
        #expect(try await flow.result(as: SignInFlow.FlowResult.self) == .cancelled)
        #expect(try fixture.rows() == (0, 0))
    }

    @Test("an account created from sign-in signs in with it")
    func toSignUpAndThrough() async throws {
        let flow = start()
        try await flow.tap("create-account")
        try await flow.fill("email", "grace@example.com")
        try await flow.fill("password", "hopper1906")
        try await flow.fill("display-name", "Grace")
        try await flow.tap("create-account")
        guard case .signedUp(let user) = try await flow.result(as: SignInFlow.FlowResult.self) else { Issue.record("not signed up"); return }
        #expect(try await fixture.accounts.currentUser() == user)
    }

    @Test("starting at sign-up, cancelling it leaves the whole path")
    func startAtSignUp() async throws {
        let flow = start(.signUp)
        try await flow.expectScreen("sign-up")
        try await flow.send(.back)
        #expect(try await flow.result(as: SignInFlow.FlowResult.self) == .cancelled)
        #expect(await flow.presented == ["sign-up"])
    }
}
