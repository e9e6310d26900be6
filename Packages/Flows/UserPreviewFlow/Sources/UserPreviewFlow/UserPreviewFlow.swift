import Accounts
import Expenses
import FlowKit
import Friends
import Groups
import Preferences
import Primitives
import Rates

/// One friend or contact: who they are, the balance with them in each currency, and the
/// expenses the two share, newest first and paged. Adding an expense with them and settling up
/// are returned as the result, for the flows above to start; removing or blocking them,
/// renaming a contact and linking a contact to their account happen here, all but renaming
/// after asking.
public actor UserPreviewFlow: InventoriedFlow {
    /// How the preview ended.
    public enum FlowResult: FlowOutcome {
        /// Back to where it was started.
        case closed
        /// The user wants to add an expense with this person.
        case addExpense(Friend)
        /// The user wants to settle up with this person.
        case settleUp(Friend)
        /// The person is no longer a friend (or contact).
        case removed(Friend)
        /// The contact is now the account: their expenses and balances moved to it.
        case linked(Friend, to: Friend)
        /// The account was asked to be the user's friend; the contact becomes it once they accept.
        case linkRequested(Friend, to: PublicProfile)
        /// The account is blocked: no longer a friend, and their requests refused.
        case blocked(Friend)
        /// The contact has a new name (the person as they are now); the preview was left after.
        case renamed(Friend)
        /// The user left, and nothing was changed.
        case cancelled

        public func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws {
            switch self {
            case .addExpense(let friend), .settleUp(let friend), .removed(let friend), .renamed(let friend), .blocked(let friend):
                try container.encode(friend, forKey: "friend")
            case .linked(let contact, let account):
                try container.encode(contact, forKey: "contact")
                try container.encode(account, forKey: "account")
            case .linkRequested(let contact, let account):
                try container.encode(contact, forKey: "contact")
                try container.encode(account, forKey: "account")
            case .closed, .cancelled:
                break
            }
        }
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var accounts: any AccountsService { get }
        var friends: any FriendsService { get }
        var expenses: any ExpensesService { get }
        /// The groups' names, for the balance's split by group.
        var groups: any GroupsService { get }
        /// Balances in several currencies also as one total, in the user's usual currency, at
        /// today's reference rates.
        var rates: any RatesService { get }
        var preferences: any PreferencesService { get }
        var today: Day { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: UserPreviewView(), for: UserPreviewViewModel.examples)
    }

    private let user: User
    private let friend: Friend?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<UserPreviewAction>

    /// The preview of `friend`; without one, the user first chooses among their friends.
    public init(user: User, friend: Friend?, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.friend = friend
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = UserPreviewViewModel(friend: friend)
        if friend == nil { await loadFriends(into: &model) } else { await load(into: &model) }
        // A rename is written at once: leaving after one says so, whichever way the user leaves.
        var renamed = false
        return await presenter.presenting(model.state) { view in
            while true {
                let step = model.state.step
                switch await view.next() {
                case .picked(let id):
                    guard step == .pick, let chosen = model.person(id) else { break }
                    model.chose(chosen)
                    await load(into: &model)
                case .tapped(.addExpense):
                    if step == .preview, let friend = model.friend { return .addExpense(friend) }
                case .tapped(.settleUp):
                    if step == .preview, model.state.canSettle, let friend = model.friend { return .settleUp(friend) }
                case .tapped(.older):
                    guard step == .preview, model.state.hasOlder else { break }
                    model.turn(older: true)
                    await load(into: &model)
                case .tapped(.newer):
                    guard step == .preview, model.state.hasNewer else { break }
                    model.turn(older: false)
                    await load(into: &model)
                case .tapped(.remove):
                    if step == .preview {
                        model.confirmingRemove()
                    } else if step == .confirmRemove, let friend = model.friend {
                        model.busy()
                        await view.show(model.state)
                        if await remove(friend, model: &model) { return .removed(friend) }
                    }
                case .tapped(.block):
                    if step == .preview, !model.state.isContact {
                        model.confirmingBlock()
                    } else if step == .confirmBlock, let friend = model.friend {
                        model.busy()
                        await view.show(model.state)
                        if await block(friend, model: &model) { return .blocked(friend) }
                    }
                case .tapped(.rename):
                    if step == .preview, model.state.isContact { model.renaming() }
                case .nameChanged(let name):
                    if step == .rename { model.nameChanged(name) }
                case .tapped(.saveName):
                    guard step == .rename, let contact = model.friend, model.checkName() else { break }
                    model.busy()
                    await view.show(model.state)
                    if await rename(contact, model: &model) { renamed = true }
                case .tapped(.link):
                    if step == .preview, model.state.isContact {
                        model.linking()
                    } else if step == .confirmLink, let contact = model.friend {
                        model.busy()
                        await view.show(model.state)
                        switch await link(contact, model: &model) {
                        case .friends(let account)?: return .linked(contact, to: account)
                        case .requested(let account)?: return .linkRequested(contact, to: account)
                        case nil: break
                        }
                    }
                case .linkHowChosen(let how):
                    if step == .link { model.linkHowChosen(how) }
                case .linkValueChanged(let value):
                    if step == .link { model.linkValueChanged(value) }
                case .tapped(.find):
                    guard step == .link, let contact = model.friend, model.checkLink() else { break }
                    model.busy()
                    await view.show(model.state)
                    await findLink(for: contact, model: &model)
                case .refresh:
                    // Someone else's change: the preview reads again; a question or a form in
                    // progress is left as it is.
                    if step == .preview { await load(into: &model) }
                case .back:
                    if !model.back() { return left(renamed: renamed, model.friend) ?? .closed }
                case .cancel:
                    return left(renamed: renamed, model.friend) ?? .cancelled
                }
                await view.show(model.state)
            }
        }
    }

    /// How the flow ends when the user leaves after renaming the contact; nil when they did not.
    private func left(renamed: Bool, _ contact: Friend?) -> FlowResult? {
        guard renamed, let contact else { return nil }
        return .renamed(contact)
    }

    // MARK: - Reading

    /// The friends to choose from, when started without one.
    private func loadFriends(into model: inout UserPreviewViewModel) async {
        do throws(FriendsError) {
            model.pickable(try await dependencies.friends.friends(of: user.id))
        } catch {
            model.failed(error.message)
        }
    }

    /// The balances with the friend, the page of shared expenses, the names of the others in
    /// them (among the user's friends), and the friend's avatar the first time.
    private func load(into model: inout UserPreviewViewModel) async {
        guard let friend = model.friend else { return }
        let me = user.id
        let page = PageRequest(offset: model.offset, limit: UserPreviewViewModel.pageSize + 1)
        let balances: [Money]
        let expenses: [Expense]
        let inGroups: [GroupBalance]
        do throws(ExpensesError) {
            balances = try await dependencies.expenses.balances(of: me).filter { $0.other == friend.id && $0.amount.minorUnits != 0 }.map(\.amount)
            expenses = try await dependencies.expenses.expenses(of: me, sharedWith: friend.id, page: page)
            inGroups = try await dependencies.expenses.groupBalances(of: me).filter { $0.other == friend.id }
        } catch {
            model.failed(error.message)
            return
        }
        var names: [UserID: String] = [:]
        let others = Set(expenses.flatMap(\.people)).subtracting([me, friend.id])
        for other in others {
            // Someone the user does not know by name stays "someone else".
            if let known = try? await dependencies.friends.friend(other, of: me) { names[other] = known.name.value }
        }
        // The avatar is a picture beside the name, read once: without it, the preview still stands.
        var avatar: Avatar?
        if !model.hasAvatar {
            avatar = friend.isContact ? Avatar.none : (try? await dependencies.accounts.avatar(of: friend.id, for: me)) ?? .none
        }
        // Each group's part by the group's name (a group the user has left, as "a group").
        let groupNames = inGroups.isEmpty ? [:] : await dependencies.groups.names(of: me)
        let parts = inGroups.map { (group: groupNames[$0.group] ?? "a group", amount: $0.amount) }
        var converted: ConvertedTotal?
        if Set(balances.map(\.currency)).count > 1 {
            let usual = (try? await dependencies.preferences.preferences(of: me).defaultCurrency) ?? Preferences.standard.defaultCurrency
            converted = await dependencies.rates.total(ofSeveral: balances, in: usual, on: dependencies.today)
        }
        model.loaded(balances: balances, inGroups: parts, page: expenses, user: me, names: names, avatar: avatar, converted: converted)
    }

    // MARK: - Changing

    /// Removes the friend; false (with the refusal on the preview) when refused.
    private func remove(_ friend: Friend, model: inout UserPreviewViewModel) async -> Bool {
        do throws(FriendsError) {
            try await dependencies.friends.remove(friend.id, by: user.id)
            return true
        } catch {
            await load(into: &model)
            model.failed(error.message)
            return false
        }
    }

    /// Blocks the friend; false (with the refusal on the preview) when refused.
    private func block(_ friend: Friend, model: inout UserPreviewViewModel) async -> Bool {
        do throws(FriendsError) {
            try await dependencies.friends.block(friend.id, by: user.id)
            return true
        } catch {
            await load(into: &model)
            model.failed(error.message)
            return false
        }
    }

    /// Renames the contact; the preview shows them under the new name, and the expenses read
    /// again name them so. False (with the refusal on the form) when refused.
    private func rename(_ contact: Friend, model: inout UserPreviewViewModel) async -> Bool {
        do throws(FriendsError) {
            model.renamed(try await dependencies.friends.renameContact(contact.id, to: model.state.newName.text, by: user.id))
            await load(into: &model)
            return true
        } catch {
            model.renameFailed(error)
            return false
        }
    }

    /// Looks up the account the contact would be linked to, to confirm.
    private func findLink(for contact: Friend, model: inout UserPreviewViewModel) async {
        do throws(FriendsError) {
            model.linkFound(try await dependencies.friends.linkTarget(contact.id, to: model.linkQuery, by: user.id))
        } catch {
            model.linkFailed(error)
        }
    }

    /// Links the contact, or asks the account first; nil (with the refusal on the form) when
    /// refused.
    private func link(_ contact: Friend, model: inout UserPreviewViewModel) async -> FriendAddition? {
        do throws(FriendsError) {
            return try await dependencies.friends.link(contact.id, to: model.linkQuery, by: user.id)
        } catch {
            model.linkFailed(error)
            return nil
        }
    }
}
