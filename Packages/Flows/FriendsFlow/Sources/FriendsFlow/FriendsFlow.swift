import Accounts
import AddFriendFlow
import Expenses
import FlowKit
import Friends
import Primitives

/// The Friends tab: each friend with the balance in each currency, the user's totals on top,
/// the largest balances first, filtered as the user types; adding a friend is a child flow.
public actor FriendsFlow: InventoriedFlow {
    /// How the tab was left.
    public enum FlowResult: FlowOutcome {
        /// Back to the home.
        case closed
        case cancelled

        public var name: String {
            switch self {
            case .closed: "closed"
            case .cancelled: "cancelled"
            }
        }
    }

    /// What the flow needs from the app: its own needs and its children's.
    public protocol Dependencies: AddFriendFlow.Dependencies {
        var friends: any FriendsService { get }
        var expenses: any ExpensesService { get }
    }

    /// The tab's children.
    static let children = ChildMenu<FriendsFlow, String?>([
        .init("add-friend", "Add a friend") { flow in await flow.addFriend() },
    ])

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: FriendsView(), for: FriendsViewModel.examples(actions: children.actions))
    }

    private let user: User
    private let dependencies: any Dependencies
    private let router: AppRouter
    private let presenter: FriendsPresenter

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        self.router = router
        presenter = FriendsPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = FriendsViewModel(actions: Self.children.actions)
        await load(into: &model)
        return await presenter.presenting(model.state) { view in
            while true {
                switch await view.next() {
                case .filterChanged(let text):
                    model.filterChanged(text)
                case .open(let id):
                    let notice = await Self.children.open(id, in: self) ?? nil
                    await load(into: &model)
                    model.said(notice)
                case .back:
                    return .closed
                }
                await view.show(model.state)
            }
        }
    }

    /// The friends and the balances with each, as stored now.
    private func load(into model: inout FriendsViewModel) async {
        do throws(FriendsError) {
            let friends = try await dependencies.friends.friends(of: user.id)
            do throws(ExpensesError) {
                model.loaded(friends, balances: try await dependencies.expenses.balances(of: user.id))
            } catch {
                model.failed(error.message)
            }
        } catch {
            model.failed(error.message)
        }
    }

    private func addFriend() async -> String? {
        switch await router.start(AddFriendFlow(user: user, dependencies: dependencies, router: router)) {
        case .added(let friend): "\(friend.name.value) added."
        case .cancelled: nil
        }
    }
}
