import AccountFlow
import Accounts
import AddExpenseFlow
import Expenses
import ExpensesFlow
import FlowKit
import Friends
import FriendsFlow
import Groups
import GroupsFlow
import Preferences
import Primitives
import SettleUpFlow
import Sync
import SyncFlow

/// The home of a signed-in user: opens on the Expenses tab; back from it, shows who is signed
/// in, its tabs (Expenses, Groups, Friends, Account), adding an expense from anywhere in it, settling up
/// with a friend a preview names, and signing out. With a server, while anything is not synced,
/// it says so and opens Sync.
public actor AuthenticatedFlow: InventoriedFlow {
    /// How the home screen ended.
    public enum FlowResult: FlowOutcome {
        /// The session ended; the user is signed out.
        case signedOut
        /// The user closed the app and stays signed in.
        case closed
        case cancelled
    }

    /// What the flow needs from the app: its own needs and those of the tabs it starts.
    public protocol Dependencies: AccountFlow.Dependencies, FriendsFlow.Dependencies, GroupsFlow.Dependencies, AddExpenseFlow.Dependencies,
        ExpensesFlow.Dependencies, SyncFlow.Dependencies
    {
        var accounts: any AccountsService { get }
        /// The screens take the signed-in user's theme while the home is open.
        var themes: any ThemeManager { get }
    }

    /// The home's tabs, each a child flow.
    /// A tab's flow gives back nil to come back to the home, or the home's own result to end it.
    static let tabs = ChildMenu<AuthenticatedFlow, FlowResult?>([
        .init("expenses", "Expenses") { flow in await flow.expenses(saying: nil) },
        .init("groups", "Groups") { flow in await flow.groups() },
        .init("friends", "Friends") { flow in await flow.friends() },
        .init("account", "Account") { flow in await flow.account() },
    ])

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: AuthenticatedView(), for: AuthenticatedViewModel.examples(tabs: tabs.tabs(selected: nil)))
    }

    private var user: User
    /// What the home says when it shows again after a tab.
    private var notice: String?
    /// The tab the user tapped on another tab's screen: it opens next.
    private var nextTab: ElementID?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<AuthenticatedAction>
    private var router: AppRouter { presenter.router }

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        await dependencies.themes.follow(user.id)
        // Repeating expenses due by today are made now, each once (another process making them
        // at the same moment makes none twice); one that cannot be made now is made next time.
        _ = try? await dependencies.recurring?.createDueOccurrences(through: dependencies.today, for: user.id)
        // The home opens on the Expenses tab, saying what signing in found (first that the
        // server cannot be reached, when it cannot); back from it, the home shows its tabs.
        var opening = await offlineNotice()
        if opening == nil { opening = user.emailVerified ? await claimContacts() : Self.unverifiedNotice(user) }
        _ = await expenses(saying: opening)
        let result = if let ended = await openTabs() { ended } else { await home() }
        // Signed out: nobody's theme any more. (Closing the app keeps the user signed in.)
        if result == .signedOut { await dependencies.themes.follow(nil) }
        return result
    }

    private func home() async -> FlowResult {
        var model = AuthenticatedViewModel(user: user, tabs: Self.tabs.tabs(selected: nil))
        model.said(notice)
        model.offline(await offlineNotice())
        return await presenter.run(model.state) { action, view in
            switch action {
            case .tapped(.addExpense):
                notice = await addExpense(with: [])
                model.said(notice)
            case .tapped(.signOut):
                model.signingOut()
                await view.show(model.state)
                do throws(AccountsError) {
                    try await dependencies.accounts.signOut()
                    return .signedOut
                } catch {
                    model.failed(error)
                }
            case .open(let tab):
                notice = nil
                nextTab = tab
                if let ended = await openTabs() { return ended }
                model.back(user: user)
                model.said(notice)
                model.offline(await offlineNotice())
            case .tapped(.sync):
                notice = nil
                _ = await router.start(SyncFlow(user: user.id, dependencies: dependencies, router: router))
                model.said(nil)
                model.offline(await offlineNotice())
            case .refresh:
                model.offline(await offlineNotice())
            case .tapped(.quit):
                return .closed
            case .back:
                // Esc at the home is no way to leave by mistake: it says how to.
                model.said(AuthenticatedViewModel.homeNotice)
            case .cancel:
                return .cancelled
            }
            return nil
        }
    }

    /// Opens the tab the user went to, then the one they went to from it, and so on, until one
    /// is left for the home (nil) or ends the home (its result).
    private func openTabs() async -> FlowResult? {
        while let tab = nextTab {
            nextTab = nil
            if let result = await Self.tabs.open(tab, in: self), let ended = result { return ended }
        }
        return nil
    }

    /// Starts `child` as the tab `id`: its screens show every tab, and the one tapped there is
    /// kept to open next.
    private func tab<Child: Flow>(_ id: ElementID, _ child: Child) async -> Child.FlowResult {
        // Each tab says, as it opens, how up to date the replica it reads is (nothing when all
        // is synced, and on the embedded store).
        let (result, next) = await router.start(child, asTabAmong: Self.tabs.tabs(selected: id), saying: await offlineNotice())
        nextTab = next
        return result
    }

    /// The Groups tab; an expense a group asks for is added in it here, and the tab opens again
    /// saying so.
    private func groups() async -> FlowResult? {
        var said: String?
        while case .addExpense(let group) = await tab("groups", GroupsFlow(user: user.id, notice: said, dependencies: dependencies, router: router)) {
            said = await addExpense(in: group)
        }
        return nil
    }

    /// The Friends tab, and what a friend's preview asked for.
    private func friends() async -> FlowResult? {
        switch await tab("friends", FriendsFlow(user: user, dependencies: dependencies, router: router)) {
        case .closed, .cancelled: break
        case .addExpense(let friend): notice = await addExpense(with: [friend])
        case .settleUp(let friend): await settleUp(with: friend)
        }
        return nil
    }

    /// Records a payment with `friend`; the home then says what was recorded.
    private func settleUp(with friend: Friend) async {
        let result = await router.start(SettleUpFlow(user: user.id, with: friend, dependencies: dependencies, router: router))
        if let said = result.notice(for: user.id) { notice = said }
    }

    /// Adds an expense (with `friends`, or in `group` with its members, or with whom the user
    /// picks first): what to say of it, or nil when the user left.
    private func addExpense(with friends: [Friend] = [], in group: Group? = nil) async -> String? {
        let flow = AddExpenseFlow(user: user.id, with: friends, in: group, dependencies: dependencies, router: router)
        guard case .added(let expense, _, _) = await router.start(flow) else { return nil }
        return group.map { "Added \(expense.summary) in \($0.name)." } ?? "Added \(expense.summary)."
    }

    /// The Expenses tab, saying `notice` when it opens; an expense it asks for is added here,
    /// and the tab opens again on it.
    private func expenses(saying notice: String?) async -> FlowResult? {
        var said = notice
        while case .addExpense = await tab("expenses", ExpensesFlow(user: user.id, notice: said, dependencies: dependencies, router: router)) {
            said = await addExpense(with: [])
        }
        return nil
    }

    /// Contacts that others made with this user's email are claimed: each owner is asked to
    /// confirm it is this user, and once they do, what they shared moves to the account. What
    /// the home says about it, or nil when nobody was asked. A failure is left for the next
    /// start to try again.
    private func claimContacts() async -> String? {
        guard let owners = try? await dependencies.friends.claimContacts(for: user.id), !owners.isEmpty,
              let names = try? await dependencies.friends.names(of: Set(owners), for: user.id), !names.isEmpty
        else { return nil }
        let who = names.values.map(\.value).sorted().listedInWords
        return "\(who) had you as a contact with this email: once they confirm it is you, what you shared moves to your account and you are friends."
    }

    /// What the screens say while the server the replica is kept from cannot be reached; nil
    /// while it answers, and on the embedded store.
    private func offlineNotice() async -> String? {
        await dependencies.replicaChanges?.status(of: user.id)?.offlineNotice(in: dependencies.timeZone)
    }

    /// What the home says while the email waits for its code (an unverified account claims no
    /// contacts: nobody is asked).
    private static func unverifiedNotice(_ user: User) -> String {
        "Your email \(user.email.value) is not verified yet: enter the code we sent under Account, Verify email."
    }

    /// The Account tab; back from it, the home shows the user as they are now.
    private func account() async -> FlowResult? {
        if case .closed(let updated) = await tab("account", AccountFlow(user: user, dependencies: dependencies, router: router)) {
            user = updated
        }
        return nil
    }
}
