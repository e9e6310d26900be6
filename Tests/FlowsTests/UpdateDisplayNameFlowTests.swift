import Accounts
import FlowKit
import FlowTestSupport
import Testing
import UpdateDisplayNameFlow

/// A leaf flow, tested exhaustively: every screen it shows is checked before the next step.
@Suite("UpdateDisplayNameFlow")
struct UpdateDisplayNameFlowTests {
    let fixture = Fixture()

    private func start(_ user: User, _ dependencies: any UpdateDisplayNameFlow.Dependencies) -> FlowTest {
        FlowTest { router in UpdateDisplayNameFlow(user: user, dependencies: dependencies, router: router) }
    }

    @Test("the form starts from the current name; a new one, trimmed, is stored and given back")
    func happyPath() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, fixture)
        await flow.expectSnapshot("""
            == Change name == [update-display-name]
            Your name is what friends see.
              Display name (display-name, text; 1 to 50 characters): Ada Lovelace
              Actions: Save (save, primary) | Cancel (cancel, cancel)
            """)
        await flow.fill("display-name", "  Countess Ada ")
        await flow.expectError("display-name", nil)
        await flow.tap("save")
        guard case .changed(let changed) = await flow.result(as: UpdateDisplayNameFlow.FlowResult.self) else {
            Issue.record("not changed")
            return
        }
        #expect(changed.displayName.value == "Countess Ada")
        #expect(changed.id == user.id && changed.friendCode == user.friendCode)
        #expect(try await fixture.accounts.currentUser() == changed)
    }

    @Test("a refused name stays on the form under its message, and Save sends nothing", arguments: [
        ("", "Enter a name of 1 to 50 characters."),
        ("Ada\u{7}", "A name cannot contain control characters."),
        (String(repeating: "n", count: 10_000), "A name has at most 50 characters."),
    ])
    func refused(name: String, message: String) async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, fixture)
        await flow.expectScreen("update-display-name")
        await flow.fill("display-name", name)
        await flow.expectError("display-name", message)
        await flow.tap("save")
        await flow.expectError("display-name", message)
        await flow.cancel()
        await flow.expectResult(UpdateDisplayNameFlow.FlowResult.cancelled)
        #expect(try await fixture.accounts.currentUser()?.displayName.value == "Ada Lovelace")
    }

    @Test("a store that fails shows its error on the screen, and the form stays")
    func storeFails() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, Fixture.unavailable())
        await flow.expectScreen("update-display-name")
        await flow.fill("display-name", "Grace")
        await flow.skipScreen()
        await flow.tap("save")
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.tap("cancel")
        await flow.expectResult(UpdateDisplayNameFlow.FlowResult.cancelled)
    }

    @Test("cancel, back and the cancel action all leave without writing", arguments: [UserEvent.cancel, .back, .tap("cancel")])
    func cancel(event: UserEvent) async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, fixture)
        await flow.expectScreen("update-display-name")
        await flow.fill("display-name", "Grace")
        await flow.skipScreen()
        await flow.send(event)
        await flow.expectResult(UpdateDisplayNameFlow.FlowResult.cancelled)
        #expect(try await fixture.accounts.currentUser()?.displayName.value == "Ada Lovelace")
    }
}
