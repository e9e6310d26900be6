import FlowKit
import FlowTesting
import FlowsApp
import Testing

@Suite("FlowTest, the Swift API")
struct FlowTestTests {
    private func signUp(exhaustive: Bool = true) -> FlowTest {
        let container = AppContainer.inMemory()
        let entry = FlowCatalog.entry(named: "SignUp")!
        return FlowTest(exhaustive: exhaustive) { router in await entry.run(container: container, router: router) }
    }

    @Test("exhaustive by default: acting on a screen nobody looked at fails, showing the screen")
    func exhaustive() async throws {
        let flow = signUp()
        try await flow.expectScreen("sign-up")
        try await flow.fill("email", "ada@example.com")
        await #expect {
            try await flow.fill("password", "correct horse")
        } throws: { error in
            let text = (error as? FlowTestFailure)?.description ?? ""
            return text.hasPrefix("FlowTestingTests/FlowTestTests.swift:")
                && text.contains("the screen sign-up was not looked at before fill(password, \"correct horse\"); expect it, or skipScreen() on purpose")
                && text.contains("Email (email, text): ada@example.com")
        }
        try await flow.skipScreen()
        try await flow.cancel()
        #expect(try await flow.result().name == "cancelled")
    }

    @Test("a step that does not fit names what the screen offers")
    func wrongIdentifier() async throws {
        let flow = signUp(exhaustive: false)
        await #expect {
            try await flow.tap("sign-in")
        } throws: { error in
            (error as? FlowTestFailure)?.message == """
                the screen sign-up has no action sign-in; the screen sign-up offers: fields email (text), \
                password (secret), display-name (text); actions create-account, cancel; back, cancel
                """
        }
        try await flow.cancel()
    }

    @Test("expectations that fail say what was expected and what is shown")
    func failedExpectations() async throws {
        let flow = signUp()
        await #expect(throws: FlowTestFailure.self) { try await flow.expectScreen("home") }
        try await flow.expectScreen("sign-up")
        try await flow.fill("email", "nope")
        await #expect {
            try await flow.expectError("email", "Something else.")
        } throws: { error in
            (error as? FlowTestFailure)?.message.hasPrefix(
                #"expected error "Something else." on email, it shows "Enter an email address like name@example.com.""#
            ) == true
        }
        try await flow.expectError("email", "Enter an email address like name@example.com.")
        await #expect(throws: FlowTestFailure.self) { try await flow.result() }
        try await flow.cancel()
        #expect(try await flow.result().status == .cancelled)
        await #expect(throws: FlowTestFailure.self) { try await flow.tap("create-account") }
    }
}
