import AccountFlow
import FlowsServices
import Accounts
import FlowKit
import FlowTestSupport
import Preferences
import Primitives
import Testing
import UpdateAvatarFlow
import UpdateDisplayNameFlow
import UpdateEmailFlow
import UpdatePasswordFlow

/// A parent flow: its own screen checked, its children stood in for.
@Suite("AccountFlow")
struct AccountFlowTests {
    let fixture = Fixture()

    private func start(_ user: User, _ dependencies: any AccountFlow.Dependencies) -> FlowTest {
        FlowTest { router in AccountFlow(user: user, dependencies: dependencies, router: router) }
    }

    @Test("shows the user's name, email, friend code and stored theme, and one action per change")
    func shows() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        try await fixture.preferences.update(Preferences(theme: .highContrast, defaultCurrency: .eur), of: user.id)
        let flow = start(user, fixture)
        let currencies = Currency.all.map { "[\($0 == .eur ? "x" : " ")] \($0.code) (\($0.code))" }.joined(separator: " | ")
        await flow.expectSnapshot("""
            == Account == [account]
            Name: Ada Lovelace
            Email: ada@example.com
            Friend code: \(user.friendCode)
            Avatar: none
              Theme (theme, choice; the colours of every screen): [ ] Light (light) | [ ] Dark (dark) | [x] High contrast (high-contrast) | [ ] No colour (no-colour)
              Default currency (default-currency, choice; what a new expense starts in): \(currencies)
              Actions: Change name (change-name) | Change email (change-email) | Change password (change-password) | Change avatar (change-avatar) | Show my friend code as a QR code (show-qr) | Back (back, cancel)
            """)
        await flow.back()
        await flow.expectResult(AccountFlow.FlowResult.cancelled)
    }

    @Test("after a name change the tab shows the new name with a notice; a cancelled change says nothing")
    func changeName() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let renamed = try await fixture.accounts.changeDisplayName(to: "Countess Ada", of: user.id)
        let flow = start(user, fixture)
        await flow.expectScreen("account")
        await flow.expectChild(UpdateDisplayNameFlow.self, producing: .cancelled)
        await flow.tap("change-name")
        #expect(await flow.expectScreen("account")?.status == nil)
        await flow.expectChild(UpdateDisplayNameFlow.self, producing: .changed(renamed))
        await flow.tap("change-name")
        await flow.expectText("Name: Countess Ada")
        #expect(await flow.expectScreen("account")?.status == .notice("Name changed to Countess Ada."))
        await flow.tap("back")
        await flow.expectResult(AccountFlow.FlowResult.closed(renamed))
    }

    @Test("after an email, password or avatar change the tab says what changed")
    func emailAndPassword() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let moved = try await fixture.accounts.changeEmail(to: "ada@lovelace.org", password: "correct horse", of: user.id)
        let flow = start(user, fixture)
        await flow.expectScreen("account")
        await flow.expectChild(UpdateEmailFlow.self, producing: .changed(moved))
        await flow.tap("change-email")
        await flow.expectText("Email: ada@lovelace.org")
        #expect(await flow.expectScreen("account")?.status == .notice("Email changed to ada@lovelace.org."))
        await flow.expectChild(UpdatePasswordFlow.self, producing: .changed)
        await flow.tap("change-password")
        #expect(await flow.expectScreen("account")?.status == .notice("Password changed; your other sessions are signed out."))
        await flow.expectChild(UpdateAvatarFlow.self, producing: .changed(.initials(.teal)))
        await flow.tap("change-avatar")
        #expect(await flow.expectScreen("account")?.status == .notice("Avatar changed to initials on teal."))
        await flow.back()
        await flow.expectResult(AccountFlow.FlowResult.closed(moved))
    }

    @Test("choosing a theme or a default currency stores it at once and says so; choosing the same theme again changes nothing")
    func theme() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, fixture)
        await flow.expectScreen("account")
        await flow.choose("theme", "light")
        #expect(await flow.expectScreen("account")?.status == .notice("Theme changed to light."))
        #expect(try await fixture.preferences.preferences(of: user.id) == Preferences(theme: .light, defaultCurrency: .eur))
        await flow.choose("theme", "light")
        await flow.skipScreen()
        await flow.choose("default-currency", "KWD")
        #expect(await flow.expectScreen("account")?.status == .notice("Default currency changed to KWD."))
        #expect(try await fixture.preferences.preferences(of: user.id) == Preferences(theme: .light, defaultCurrency: .kwd))
        await flow.back()
        await flow.expectResult(AccountFlow.FlowResult.closed(user))
    }

    @Test("preferences that cannot be read or stored show the store's error; the rest of the tab works")
    func storeFails() async throws {
        struct Mixed: AccountFlow.Dependencies {
            let accounts: any AccountsService
            let preferences: any PreferencesService = UnavailablePreferences()
            let files: any UserFiles = LocalUserFiles()
        }
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, Mixed(accounts: fixture.accounts))
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.expectChild(UpdateDisplayNameFlow.self, producing: .cancelled)
        await flow.tap("change-name")
        await flow.expectScreen("account")
        await flow.cancel()
        await flow.expectResult(AccountFlow.FlowResult.cancelled)
    }
}
