import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsLive
import FlowKit
import FlowTestSupport
import Foundation
import Primitives
import Testing
import UpdatePasswordFlow

/// A leaf flow, tested exhaustively: every screen it shows is checked before the next step.
@Suite("UpdatePasswordFlow")
struct UpdatePasswordFlowTests {
    let fixture = Fixture()

    private func start(_ user: User, _ dependencies: (any UpdatePasswordFlow.Dependencies)? = nil) -> FlowTest {
        FlowTest { [fixture] router in UpdatePasswordFlow(user: user, dependencies: dependencies ?? fixture, router: router) }
    }

    @Test("the current password, the new one twice: changed, and the user's other session ends while this one stays")
    func happyPath() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        // Ada is signed in on a laptop too: another process on the same store.
        let laptop = LiveAccountsService(
            store: SQLiteAccountsStore(database: fixture.database), tokens: InMemorySessionTokenStore(),
            hasher: PasswordHasher(cost: 4), random: SeededRandomSource(seed: 8), now: { Date(timeIntervalSince1970: 1_800_000_000) },
            visibility: OwnAccountOnly()
        )
        _ = try await laptop.signIn(email: "ada@example.com", password: "correct horse")
        let flow = start(user)
        await flow.expectSnapshot("""
            == Change password == [update-password]
            Your other sessions are signed out once it is changed; this one stays.
              Current password (current-password, secret): (empty)
              New password (new-password, secret; at least 8 characters): (empty)
              New password again (repeat-password, secret): (empty)
              Actions: Save (save, primary) | Cancel (cancel, cancel)
            """)
        await flow.fill(["current-password": "correct horse", "new-password": "battery staple", "repeat-password": "battery staple"])
        await flow.expectError("repeat-password", nil)
        await flow.tap("save")
        await flow.expectResult(UpdatePasswordFlow.FlowResult.changed)
        #expect(try await fixture.accounts.currentUser() == user)
        #expect(try await laptop.currentUser() == nil)
        #expect(try fixture.rows().sessions == 1)
    }

    @Test("two new passwords that differ, then the same as the current one: each an inline error, nothing written")
    func refusals() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user)
        await flow.expectScreen("update-password")
        await flow.fill(["current-password": "correct horse", "new-password": "battery staple", "repeat-password": "battery stapel"])
        await flow.expectError("repeat-password", "The two new passwords differ; type the same one twice.")
        await flow.tap("save")
        await flow.expectError("repeat-password", "The two new passwords differ; type the same one twice.")
        await flow.fill(["new-password": "correct horse", "repeat-password": "correct horse"])
        await flow.skipScreen()
        await flow.tap("save")
        await flow.expectError("new-password", "The new password is the current one; choose another.")
        await flow.cancel()
        await flow.expectResult(UpdatePasswordFlow.FlowResult.cancelled)
        try await fixture.accounts.signOut()
        _ = try await fixture.accounts.signIn(email: "ada@example.com", password: "correct horse")
    }
}
