import Accounts
import FlowKit
import Preferences
import QrPreviewFlow
import SessionsFlow
import UpdateAvatarFlow
import UpdateDisplayNameFlow
import UpdateEmailFlow
import UpdatePasswordFlow
import VerifyEmailFlow

/// The Account tab: who the user is (name, email, friend code), their theme, and one action per
/// change they can make, each its own flow. After a change, a notice says what changed.
public actor AccountFlow: InventoriedFlow {
    /// How the tab was left.
    public enum FlowResult: FlowOutcome {
        /// Back to the home; the user as they are now (changed or not).
        case closed(User)
        case cancelled
    }

    /// What the flow needs from the app: its own needs and its children's.
    public protocol Dependencies: UpdateDisplayNameFlow.Dependencies, UpdateEmailFlow.Dependencies, UpdatePasswordFlow.Dependencies, UpdateAvatarFlow.Dependencies,
        SessionsFlow.Dependencies, VerifyEmailFlow.Dependencies
    {
        var accounts: any AccountsService { get }
        var preferences: any PreferencesService { get }
        var themes: any ThemeManager { get }
    }

    /// The changes the tab offers, each a child flow; each gives back the notice to show, or
    /// nil when it was cancelled.
    static let changes = ChildMenu<AccountFlow, String?>([
        // Offered only while the email is unverified (``AccountViewModel``).
        .init(AccountViewModel.verifyEmail, "Verify email", role: .primary) { flow in await flow.verifyEmail() },
        .init("change-name", "Change name") { flow in await flow.changeName() },
        .init("change-email", "Change email") { flow in await flow.changeEmail() },
        .init("change-password", "Change password") { flow in await flow.changePassword() },
        .init("change-avatar", "Change avatar") { flow in await flow.changeAvatar() },
        .init("show-qr", "Show my friend code as a QR code") { flow in await flow.showCode() },
        .init("sessions", "Sessions: where you are signed in") { flow in await flow.showSessions() },
    ])

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: AccountView(), for: AccountViewModel.examples(actions: changes.actions))
    }

    private var user: User
    private var changed = false
    /// The tab's state, kept by the flow: the loop below and the watch on the stored
    /// preferences both change it.
    private var model: AccountViewModel
    /// Preferences being stored by this tab: the watch sees them come back and leaves them.
    private var saving: Preferences?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<AccountAction>
    private var router: AppRouter { presenter.router }

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
        model = AccountViewModel(user: user, actions: Self.changes.actions)
    }

    public func perform() async -> FlowResult {
        do throws(PreferencesError) {
            model.loaded(try await dependencies.preferences.preferences(of: user.id))
        } catch {
            model.failed(error.message)
        }
        await loadAvatar()
        return await presenter.presenting(model.state) { view in
            // A theme or currency chosen in another process shows here too, as the colours do.
            let watch = Task { [dependencies, user] in
                for await preferences in dependencies.preferences.changes(of: user.id) {
                    await self.storedElsewhere(preferences, view: view)
                }
            }
            defer { watch.cancel() }
            while true {
                switch await view.next() {
                case .open(let id):
                    let notice = await Self.changes.open(id, in: self) ?? nil
                    model.returned(user: user, notice: notice)
                    // A new avatar, or a new name with new initials.
                    await loadAvatar()
                case .themeChosen(let theme):
                    guard var chosen = model.preferences, chosen.theme != theme else { break }
                    chosen.theme = theme
                    // In the new colours before the notice is drawn, not a frame later.
                    if await save(chosen, notice: "Theme changed to \(theme.rawValue).") { await dependencies.themes.show(theme) }
                case .currencyChosen(let currency):
                    guard var chosen = model.preferences, chosen.defaultCurrency != currency else { break }
                    chosen.defaultCurrency = currency
                    await save(chosen, notice: "Default currency changed to \(currency.code).")
                case .back:
                    return changed ? .closed(user) : .cancelled
                }
                await view.show(model.state)
            }
        }
    }

    /// Preferences stored by someone else (another process, another tab): shown as they are.
    private func storedElsewhere(_ preferences: Preferences, view: ViewActions<AccountAction>) async {
        guard preferences != saving, preferences != model.preferences else { return }
        model.loaded(preferences)
        await view.show(model.state)
    }

    /// The avatar as stored now; a store that cannot give it leaves the tab's other parts.
    private func loadAvatar() async {
        do throws(AccountsError) {
            model.avatarLoaded(try await dependencies.accounts.avatar(of: user.id), of: user)
        } catch {
            model.failed(error.message)
        }
    }

    /// Stores the preferences at once: a theme recolours the screens through the ThemeManager.
    /// Whether they were stored.
    @discardableResult
    private func save(_ preferences: Preferences, notice: String) async -> Bool {
        saving = preferences
        defer { saving = nil }
        do throws(PreferencesError) {
            try await dependencies.preferences.update(preferences, of: user.id)
            model.saved(preferences, notice: notice)
            changed = true
            return true
        } catch {
            model.failed(error.message)
            return false
        }
    }

    private func changeName() async -> String? {
        switch await router.start(UpdateDisplayNameFlow(user: user, dependencies: dependencies, router: router)) {
        case .changed(let updated):
            user = updated
            changed = true
            return "Name changed to \(updated.displayName.value)."
        case .cancelled:
            return nil
        }
    }

    private func changeEmail() async -> String? {
        switch await router.start(UpdateEmailFlow(user: user, dependencies: dependencies, router: router)) {
        case .changed(let updated):
            user = updated
            changed = true
            let verify = updated.emailVerified ? "" : " We sent a code to it: enter it under Verify email."
            return "Email changed to \(updated.email.value); your other sessions are signed out.\(verify)"
        case .cancelled:
            return nil
        }
    }

    private func verifyEmail() async -> String? {
        guard !user.emailVerified else { return "Your email is verified already." }
        switch await router.start(VerifyEmailFlow(user: user, dependencies: dependencies, router: router)) {
        case .verified(let updated):
            user = updated
            changed = true
            return "Email \(updated.email.value) verified: friends can find you by it now."
        case .cancelled:
            return nil
        }
    }

    private func showSessions() async -> String? {
        switch await router.start(SessionsFlow(user: user, dependencies: dependencies, router: router)) {
        case .ended(let count): count == 1 ? "1 other session ended." : "\(count) other sessions ended."
        case .cancelled: nil
        }
    }

    private func showCode() async -> String? {
        _ = await router.start(QrPreviewFlow(user: user, router: router))
        return nil
    }

    private func changeAvatar() async -> String? {
        switch await router.start(UpdateAvatarFlow(user: user, dependencies: dependencies, router: router)) {
        case .changed(let avatar):
            changed = true
            return avatar == .none ? "Avatar removed." : "Avatar changed to \(avatar.summary)."
        case .cancelled:
            return nil
        }
    }

    private func changePassword() async -> String? {
        switch await router.start(UpdatePasswordFlow(user: user, dependencies: dependencies, router: router)) {
        case .changed:
            changed = true
            return "Password changed; your other sessions are signed out."
        case .cancelled:
            return nil
        }
    }
}
