import Accounts
import AddFriendFlow
import Expenses
import FlowKit
import FriendRequestsFlow
import Friends
import Primitives
import UserPreviewFlow

/// The Friends tab: each friend with the balance in each currency, the user's totals on top,
/// the largest balances first, filtered as the user types, and how many friend requests wait
/// for the user's answer. Adding a friend, answering requests (FriendRequests) and opening a
/// friend (UserPreview) are child flows; what a preview asks of the flows above (adding an expense
/// with the friend, settling up) is passed up as the tab's result.
public actor FriendsFlow: InventoriedFlow {
    /// How the tab was left.
    public enum FlowResult: FlowOutcome {
        /// Back to the home.
        case closed
        /// The user wants to add an expense with this friend.
        case addExpense(Friend)
        /// The user wants to settle up with this friend.
        case settleUp(Friend)
        case cancelled
    }

    /// What the flow needs from the app: its own needs and its children's.
    public protocol Dependencies: AddFriendFlow.Dependencies, FriendRequestsFlow.Dependencies, UserPreviewFlow.Dependencies {
        var friends: any FriendsService { get }
        var expenses: any ExpensesService { get }
    }

    /// The tab's children.
    static let children = ChildMenu<FriendsFlow, String?>([
        .init("add-friend", "Add a friend") { flow in await flow.addFriend() },
        .init(FriendsView.requests, "Friend requests") { flow in await flow.answerRequests() },
    ])

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: FriendsView(), for: FriendsViewModel.examples(actions: children.actions))
    }

    private let user: User
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<FriendsAction>
    private var router: AppRouter { presenter.router }

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = FriendsViewModel(actions: Self.children.actions)
        await load(into: &model)
        return await presenter.run(model.state) { action, view in
            switch action {
            case .filterChanged(let text):
                model.filterChanged(text)
            case .tapped(.more):
                model.more()
            case .openFriend(let id):
                guard let friend = model.friend(id) else { break }
                let (notice, handedUp) = await preview(friend)
                if let handedUp { return handedUp }
                await load(into: &model)
                model.said(notice)
            case .open(let id):
                let notice = await Self.children.open(id, in: self) ?? nil
                await load(into: &model)
                model.said(notice)
            case .refresh:
                await load(into: &model)
            case .back:
                return .closed
            }
            return nil
        }
    }

    /// The friends and the balances with each, and the requests waiting, as stored now.
    private func load(into model: inout FriendsViewModel) async {
        do throws(FriendsError) {
            let friends = try await dependencies.friends.friends(of: user.id)
            let waiting = try await dependencies.friends.requests(of: user.id).incoming.count
            do throws(ExpensesError) {
                model.loaded(friends, balances: try await dependencies.expenses.balances(of: user.id), requestsWaiting: waiting)
            } catch {
                model.failed(error.message)
            }
        } catch {
            model.failed(error.message)
        }
    }

    /// Opens a friend's preview: a notice for the tab after a change, or what to hand up.
    private func preview(_ friend: Friend) async -> (notice: String?, handedUp: FlowResult?) {
        switch await router.start(UserPreviewFlow(user: user, friend: friend, dependencies: dependencies, router: router)) {
        case .closed, .cancelled: (nil, nil)
        case .addExpense(let friend): (nil, .addExpense(friend))
        case .settleUp(let friend): (nil, .settleUp(friend))
        case .removed(let friend): ("\(friend.name.value) removed.", nil)
        case .renamed(let contact): ("Renamed to \(contact.name.value).", nil)
        case .linked(let contact, let account):
            ("\(contact.name.value) is now \(account.name.value)'s account: what you shared moved to it.", nil)
        case .linkRequested(let contact, let account):
            ("Asked \(account.name.value) to be your friend: \(contact.name.value) becomes their account once they accept.", nil)
        case .blocked(let friend): ("Blocked \(friend.name.value).", nil)
        }
    }

    private func addFriend() async -> String? {
        switch await router.start(AddFriendFlow(user: user, dependencies: dependencies, router: router)) {
        case .added(let friend) where friend.isContact: "\(friend.name.value) added."
        case .added(let friend): "You and \(friend.name.value) are friends now: they had asked you too."
        case .requested(let person): "Request sent to \(person.name.value): they become your friend when they accept."
        case .cancelled: nil
        }
    }

    private func answerRequests() async -> String? {
        switch await router.start(FriendRequestsFlow(user: user, dependencies: dependencies, router: router)) {
        case .answered(let accepted) where !accepted.isEmpty:
            "New friends: " + accepted.map(\.name.value).joined(separator: ", ") + "."
        case .answered, .cancelled: nil
        }
    }
}
