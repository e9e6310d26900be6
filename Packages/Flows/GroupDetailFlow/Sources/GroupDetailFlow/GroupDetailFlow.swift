import EditGroupFlow
import ExpenseDetailFlow
import Expenses
import FlowKit
import Friends
import Groups
import Primitives
import Rates
import SettleUpFlow

/// One group: its members and where each stands in it, the payments that would settle it
/// (simplified when the group says so), and its expenses and payments, newest first and paged.
/// Opening an expense is ExpenseDetail, settling up within the group SettleUp; adding an expense
/// in it is handed up as the result. Launched without a group, the user first chooses one.
public actor GroupDetailFlow: InventoriedFlow {
    /// How the group was left.
    public enum FlowResult: FlowOutcome {
        /// Back to where it was started.
        case closed
        /// The user wants to add an expense in this group (its members sharing it).
        case addExpense(Group)
        /// The user left the group (EditGroup).
        case left(Group)
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: ExpenseDetailFlow.Dependencies, SettleUpFlow.Dependencies, EditGroupFlow.Dependencies {
        var groups: any GroupsService { get }
        var expenses: any ExpensesService { get }
        /// The user's balances in several currencies also as one, in the group's currency.
        var rates: any RatesService { get }
        var friends: any FriendsService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: GroupDetailView(), for: GroupDetailViewModel.examples)
    }

    private let user: UserID
    private let group: Group?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<GroupDetailAction>
    private var router: AppRouter { presenter.router }

    /// The group `group`; without one, the user first chooses among their groups.
    public init(user: UserID, group: Group?, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.group = group
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = GroupDetailViewModel(user: user)
        if let group { await load(group.id, into: &model) } else { await loadGroups(into: &model) }
        return await presenter.run(model.state) { action, view in
            switch action {
            case .pickGroup(let id):
                guard let picked = model.pickable(id) else { break }
                await load(picked.id, into: &model)
            case .openLine(let id):
                guard let line = model.line(id) else { break }
                switch line {
                case .expense(let expense) where !model.isIn(expense):
                    model.said(model.sentence(expense))
                case .expense(let expense):
                    let result = await router.start(ExpenseDetailFlow(user: user, expense: expense.id, dependencies: dependencies, router: router))
                    if let shown = model.shown { await load(shown.id, into: &model) }
                    if case .deleted(let summary) = result { model.said("Deleted \(summary).") }
                case .payment(let payment):
                    model.said(model.sentence(payment))
                }
            case .tapped(.addExpense):
                guard let shown = model.shown, let group = model.group(shown.id) else { break }
                return .addExpense(group)
            case .tapped(.settleUp):
                guard let shown = model.shown else { break }
                let result = await router.start(SettleUpFlow(user: user, in: (shown.id, shown.name), dependencies: dependencies, router: router))
                await load(shown.id, into: &model)
                model.said(result.notice(for: user))
            case .tapped(.editGroup):
                guard let shown = model.shown, let group = model.group(shown.id) else { break }
                switch await router.start(EditGroupFlow(user: user, group: group, dependencies: dependencies, router: router)) {
                case .left(let group): return .left(group)
                case .changed(let group):
                    await load(group.id, into: &model)
                    model.said(group.archived ? "Archived." : "Saved.")
                case .cancelled: break
                }
            case .tapped(.totals):
                guard let shown = model.shown else { break }
                do throws(ExpensesError) {
                    model.showTotals(try await dependencies.expenses.totals(in: shown.id, for: user))
                } catch {
                    model.failed(error.message)
                }
            case .tapped(.more):
                model.more()
                if let shown = model.shown { await load(shown.id, into: &model) }
            case .refresh:
                if let shown = model.shown { await load(shown.id, into: &model) } else { await loadGroups(into: &model) }
            case .back:
                return .closed
            }
            return nil
        }
    }

    /// The user's open groups, to choose one from.
    private func loadGroups(into model: inout GroupDetailViewModel) async {
        do throws(GroupsError) {
            model.choosing(try await dependencies.groups.groups(of: user, archived: false))
        } catch {
            model.failed(error.message)
        }
    }

    /// The group as stored now: its members, their names, the debts, the suggested payments in
    /// each currency they are in, and as many of its expenses and payments as are shown.
    /// The user's balances in the group, when in several currencies, as one total in `currency`
    /// at today's reference rates; nil otherwise, or when a rate is missing.
    private func converted(_ debts: [Debt], in currency: Currency) async -> ConvertedTotal? {
        let mine = debts.compactMap { debt -> Money? in
            if debt.creditor == user { return debt.amount }
            if debt.debtor == user { return Money(minorUnits: 0 &- debt.amount.minorUnits, currency: debt.amount.currency) }
            return nil
        }
        return await dependencies.rates.total(ofSeveral: mine, in: currency, on: dependencies.today)
    }

    private func load(_ id: GroupID, into model: inout GroupDetailViewModel) async {
        do throws(GroupsError) {
            guard let group = try await dependencies.groups.group(id, for: user) else {
                model.failed(GroupsError.notFound(id).message)
                return
            }
            do throws(ExpensesError) {
                let debts = try await dependencies.expenses.debts(in: id, for: user)
                var suggested: [SuggestedPayment] = []
                for currency in Set(debts.map(\.amount.currency)).sorted(by: { $0.code < $1.code }) {
                    suggested += try await dependencies.expenses.suggestedPayments(in: id, currency: currency, for: user)
                }
                let page = PageRequest(limit: model.limit + 1)
                let expenses = try await dependencies.expenses.expenses(in: id, for: user, page: page)
                let payments = try await dependencies.expenses.settlements(in: id, for: user, page: page)
                let people = Set(group.members + debts.flatMap { [$0.debtor, $0.creditor] } + payments.flatMap { [$0.from, $0.to] })
                let names = (try? await dependencies.friends.names(of: people, for: user)) ?? [:]
                model.loaded(
                    group, debts: debts, suggested: suggested, expenses: expenses, payments: payments, names: names.mapValues(\.value),
                    converted: await converted(debts, in: group.currency)
                )
            } catch .serverUnreachable(let reason) {
                // The group is on the replica; its ledger is the server's (docs/sync.md).
                let names = (try? await dependencies.friends.names(of: Set(group.members), for: user)) ?? [:]
                model.loaded(group, names: names.mapValues(\.value), ledgerUnreadBecause: ExpensesError.serverUnreachable(reason).message)
            } catch {
                model.failed(error.message)
            }
        } catch {
            model.failed(error.message)
        }
    }
}
