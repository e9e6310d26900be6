import CreateGroupFlow
import Expenses
import FlowKit
import GroupDetailFlow
import Groups
import Primitives

/// The Groups tab: each group the user is in with where they stand in it, per currency, and
/// their totals over all groups on top; archived groups behind their own list. Making a group
/// (CreateGroup) and opening one (GroupDetail) are child flows.
public actor GroupsFlow: InventoriedFlow {
    /// How the tab was left.
    public enum FlowResult: FlowOutcome {
        /// Back to the home.
        case closed
        /// The user wants to add an expense in this group.
        case addExpense(Group)
        case cancelled
    }

    /// What the flow needs from the app: its own needs and its children's.
    public protocol Dependencies: CreateGroupFlow.Dependencies, GroupDetailFlow.Dependencies {
        var groups: any GroupsService { get }
        var expenses: any ExpensesService { get }
    }

    /// The tab's children.
    static let children = ChildMenu<GroupsFlow, String?>([
        .init("create-group", "New group") { flow in await flow.createGroup() },
    ])

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: GroupsView(), for: GroupsViewModel.examples(actions: children.actions))
    }

    private let user: UserID
    /// What the tab says when it opens (an expense just added in a group).
    private let notice: String?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<GroupsAction>
    private var router: AppRouter { presenter.router }

    public init(user: UserID, notice: String? = nil, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.notice = notice
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = GroupsViewModel(actions: Self.children.actions)
        await load(into: &model)
        model.said(notice)
        return await presenter.run(model.state) { action, view in
            switch action {
            case .openGroup(let id):
                guard let group = model.group(id) else { break }
                let result = await router.start(GroupDetailFlow(user: user, group: group, dependencies: dependencies, router: router))
                if case .addExpense(let group) = result { return .addExpense(group) }
                await load(into: &model)
                let notice: String? = if case .left(let group) = result { "You left \(group.name)." } else { nil }
                model.said(notice)
            case .switchList:
                model.switchList()
                await load(into: &model)
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

    /// The groups of the list shown and the user's balances in them, as stored now.
    private func load(into model: inout GroupsViewModel) async {
        do throws(GroupsError) {
            let groups = try await dependencies.groups.groups(of: user, archived: model.state.archived)
            do throws(ExpensesError) {
                model.loaded(groups, balances: try await dependencies.expenses.groupBalances(of: user))
            } catch {
                model.failed(error.message)
            }
        } catch {
            model.failed(error.message)
        }
    }

    private func createGroup() async -> String? {
        switch await router.start(CreateGroupFlow(user: user, dependencies: dependencies, router: router)) {
        case .created(let group): "Made \(group.name)."
        case .left(let added): "No group was made; \(added.map(\.name.value).listedInWords) stay\(added.count == 1 ? "s" : "") among your contacts."
        case .cancelled: nil
        }
    }
}
