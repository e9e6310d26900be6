import AccountFlow
import FlowsServices
import Accounts
import FlowKit
import FlowTestSupport
import Preferences
import PreferencesDataSQLite
import PreferencesLive
import Primitives
import Testing
import SessionsFlow
import UpdateAvatarFlow
import UpdateDisplayNameFlow
import UpdateEmailFlow
import UpdatePasswordFlow
import VerifyEmailFlow

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
        // A list this long is summed up in transcripts.
        let currencies = "[x] EUR (EUR) and \(Currency.all.count - 1) other options"
        await flow.expectSnapshot("""
            == Account == [account]
            Name: Ada Lovelace
            Email: ada@example.com
            Friend code: \(user.friendCode)
            Avatar: none
              Theme (theme, choice; the colours of every screen): [ ] Light (light) | [ ] Dark (dark) | [x] High contrast (high-contrast) | [ ] No colour (no-colour)
              Default currency (default-currency, choice; what a new expense starts in): \(currencies)
              Actions: Change name (change-name) | Change email (change-email) | Change password (change-password) | Change avatar (change-avatar) | Show my friend code as a QR code (show-qr) | Sessions: where you are signed in (sessions) | Back (back, cancel)
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
        #expect(await flow.expectScreen("account")?.status == .notice("Email changed to ada@lovelace.org; your other sessions are signed out."))
        await flow.expectChild(UpdatePasswordFlow.self, producing: .changed)
        await flow.tap("change-password")
        #expect(await flow.expectScreen("account")?.status == .notice("Password changed; your other sessions are signed out."))
        await flow.expectChild(UpdateAvatarFlow.self, producing: .changed(.initials(.teal)))
        await flow.tap("change-avatar")
        #expect(await flow.expectScreen("account")?.status == .notice("Avatar changed to initials on teal."))
        await flow.expectChild(SessionsFlow.self, producing: .ended(sessions: 2))
        await flow.tap("sessions")
        #expect(await flow.expectScreen("account")?.status == .notice("2 other sessions ended."))
        await flow.back()
        await flow.expectResult(AccountFlow.FlowResult.closed(moved))
    }

    @Test("an unverified email says so and offers Verify email first; once verified, neither shows")
    func verifyEmail() async throws {
        var user = try await fixture.existingUser(signedIn: true)
        user.emailVerified = false
        var verified = user
        verified.emailVerified = true
        let flow = start(user, fixture)
        await flow.expectText("Email: ada@example.com (not verified: friends cannot find you by it yet)")
        await flow.expectText("Actions: Verify email (verify-email, primary) | Change name (change-name)")
        await flow.expectChild(VerifyEmailFlow.self, producing: .cancelled)
        await flow.tap("verify-email")
        #expect(await flow.expectScreen("account")?.status == nil)
        await flow.expectChild(VerifyEmailFlow.self, producing: .verified(verified))
        await flow.tap("verify-email")
        await flow.expectText("Email: ada@example.com")
        await flow.expectText("Actions: Change name (change-name)")
        #expect(await flow.expectScreen("account")?.status == .notice("Email ada@example.com verified: friends can find you by it now."))
        await flow.back()
        await flow.expectResult(AccountFlow.FlowResult.closed(verified))
    }

    @Test("a picture avatar is shown as the picture, with the user's initials on their stand-in colour for terminals that cannot draw it")
    func picture() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let png: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
            0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0x12, 0x16, 0xF1, 0x4D,
        ]
        try await fixture.accounts.changeAvatar(to: .image(try AvatarImage(bytes: png)), of: user.id)
        let flow = start(user, fixture)
        await flow.expectText("Avatar: a 3 x 2 PNG picture")
        let colour = AvatarColour.standIn(for: user.id).rawValue
        #expect(await flow.expectScreen("account")?.figures == [.picture(Picture(bytes: png, format: .png, width: 3, height: 2, initials: "AL", colour: colour))])
        await flow.back()
        await flow.expectResult(AccountFlow.FlowResult.cancelled)
    }

    @Test("choosing a theme or a default currency stores it at once and says so; choosing the same theme again changes nothing")
    func theme() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, fixture)
        await flow.expectScreen("account")
        await flow.choose("theme", "light")
        #expect(await flow.expectScreen("account")?.status == .notice("Theme changed to light."))
        #expect(try await fixture.preferences.preferences(of: user.id) == Preferences(theme: .light, defaultCurrency: .eur))
        #expect(fixture.followed.shown == [.light])
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
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, fixture.with { $0.preferences = FakePreferences.down })
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.expectChild(UpdateDisplayNameFlow.self, producing: .cancelled)
        await flow.tap("change-name")
        await flow.expectScreen("account")
        await flow.cancel()
        await flow.expectResult(AccountFlow.FlowResult.cancelled)
    }

    @Test("a theme and a currency stored by another process show on the tab while it waits, and the tab's own choices are not shown twice")
    func followsOtherProcesses() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let host = WaitingHost()
        let flow = AccountFlow(user: user, dependencies: fixture, router: AppRouter(host: host))
        let run = Task { await flow.perform() }
        #expect(await host.waitUntil { $0.id == "account" })
        // Another process: its own service on the same store, so only the watch can see it.
        let elsewhere = LivePreferencesService(store: SQLitePreferencesStore(database: fixture.database))
        try await elsewhere.update(Preferences(theme: .highContrast, defaultCurrency: .jpy), of: user.id)
        #expect(await host.waitUntil { Self.selected("theme", on: $0) == "high-contrast" && Self.selected("default-currency", on: $0) == "JPY" })
        #expect(await host.latest?.status == nil)

        await host.answer(.choose("theme", ["light"]))
        #expect(await host.waitUntil { $0.status == .notice("Theme changed to light.") })
        let updates = await host.updates
        // The watch sees the tab's own choice come back and leaves the screen as it is.
        try await Task.sleep(for: changePollInterval * 2)
        #expect(await host.updates == updates)
        #expect(Self.selected("theme", on: await host.latest) == "light")
        await host.answer(.back)
        #expect(await run.value == .closed(user))
    }

    private static func selected(_ field: ElementID, on screen: Screen?) -> String? {
        guard case .choice(_, let selected)? = screen?.fields.first(where: { $0.id == field })?.input else { return nil }
        return selected?.rawValue
    }
}

/// A host whose user takes their time: it keeps the latest screen, counts updates, and answers
/// the flow's question only when told.
private actor WaitingHost: ScreenHost {
    private(set) var latest: Screen?
    private(set) var updates = 0
    private var waiting: CheckedContinuation<UserEvent, Never>?

    func present(_ screen: Screen) async { latest = screen }
    func update(_ screen: Screen) async {
        latest = screen
        updates += 1
    }
    func dismiss(_ screenID: ScreenID) async {}
    func nextEvent(on screen: Screen) async -> UserEvent {
        latest = screen
        return await withCheckedContinuation { waiting = $0 }
    }

    func answer(_ event: UserEvent) {
        waiting?.resume(returning: event)
        waiting = nil
    }

    /// Whether the flow comes to wait on a screen that holds within 10 seconds (the watch polls
    /// every half second).
    func waitUntil(_ holds: (Screen) -> Bool) async -> Bool {
        for _ in 0..<1_000 {
            if waiting != nil, let latest, holds(latest) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
