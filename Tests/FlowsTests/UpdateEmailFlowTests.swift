import Accounts
import FlowKit
import FlowTestSupport
import Testing
import UpdateEmailFlow

/// A leaf flow, tested exhaustively: every screen it shows is checked before the next step.
@Suite("UpdateEmailFlow")
struct UpdateEmailFlowTests {
    let fixture = Fixture()

    private func start(_ user: User, _ dependencies: (any UpdateEmailFlow.Dependencies)? = nil) -> FlowTest {
        FlowTest { [fixture] router in UpdateEmailFlow(user: user, dependencies: dependencies ?? fixture, router: router) }
    }

    @Test("a new email with the current password is stored; the user signs in with it from then on")
    func happyPath() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user)
        await flow.expectSnapshot("""
            == Change email == [update-email]
            You sign in with ada@example.com now. Your current password shows it is you.
              New email (email, text): (empty)
              Current password (password, secret): (empty)
              Actions: Save (save, primary) | Cancel (cancel, cancel)
            """)
        await flow.fill(["email": "Ada@Lovelace.org", "password": "correct horse"])
        await flow.expectError("password", nil)
        await flow.tap("save")
        guard case .changed(let changed) = await flow.result(as: UpdateEmailFlow.FlowResult.self) else {
            Issue.record("not changed")
            return
        }
        #expect(changed.email.value == "Ada@Lovelace.org")
        try await fixture.accounts.signOut()
        #expect(try await fixture.accounts.signIn(email: "ada@lovelace.org", password: "correct horse") == changed)
    }

    @Test("a wrong password is an error on the password, which is cleared; nothing is written")
    func wrongPassword() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user)
        await flow.expectScreen("update-email")
        await flow.fill(["email": "ada@lovelace.org", "password": "wrong horse"])
        await flow.skipScreen()
        await flow.tap("save")
        #expect(await flow.expectScreen("update-email")?.field("password")?.input == .secret(isSet: false))
        await flow.expectError("password", "That is not your current password.")
        await flow.cancel()
        await flow.expectResult(UpdateEmailFlow.FlowResult.cancelled)
        #expect(try await fixture.accounts.currentUser()?.email.value == "ada@example.com")
    }

    @Test("an address another account has, in any case, is an error on the email")
    func taken() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        _ = try await fixture.accounts.signUp(email: "grace@example.com", displayName: "Grace", password: "another password")
        let flow = start(user)
        await flow.expectScreen("update-email")
        await flow.fill(["email": " GRACE@example.com", "password": "correct horse"])
        await flow.skipScreen()
        await flow.tap("save")
        await flow.expectError("email", "An account with this email already exists; sign in instead.")
        await flow.tap("cancel")
        await flow.expectResult(UpdateEmailFlow.FlowResult.cancelled)
    }

    @Test("a store that fails shows its error on the screen, and the form stays")
    func storeFails() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, Fixture.unavailable())
        await flow.expectScreen("update-email")
        await flow.fill(["email": "ada@lovelace.org", "password": "correct horse"])
        await flow.skipScreen()
        await flow.tap("save")
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.back()
        await flow.expectResult(UpdateEmailFlow.FlowResult.cancelled)
    }
}
