import ExpenseDetailFlow
import Expenses
import FlowKit
import Foundation
import Friends
import Preferences
import Primitives
import Rates
import ReportsFlow
import SettleUpFlow

/// The Expenses tab: the user's balances per currency and per person, the payments that would
/// settle them (simplified among the people they share balances with), the activity, newest
/// first, a page at a time, the newest expenses to open (ExpenseDetail: parts, edit, delete),
/// the newest payments to take back, the most recently deleted expenses to restore, and the
/// user's spending (Reports). Settling up happens here (SettleUp); adding an
/// expense is handed up, for the home to start.
public actor ExpensesFlow: InventoriedFlow {
    /// How the tab ended.
    public enum FlowResult: FlowOutcome {
        case closed
        /// The user wants to add an expense.
        case addExpense
        case cancelled
    }

    /// What the flow needs from the app: its own needs and SettleUp's.
    public protocol Dependencies: SettleUpFlow.Dependencies, ExpenseDetailFlow.Dependencies, ReportsFlow.Dependencies {
        var friends: any FriendsService { get }
        var expenses: any ExpensesService { get }
        /// The user's time zone: the day each change is shown on.
        var timeZone: TimeZone { get }
        /// The reference rates: balances in several currencies also as one total, in the user's
        /// usual currency.
        var rates: any RatesService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: ExpensesView(), for: ExpensesViewModel.examples)
    }

    private let user: UserID
    private let notice: String?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<ExpensesAction>
    private var router: AppRouter { presenter.router }

    /// The tab for `user`, saying `notice` when it opens (what was just added).
    public init(user: UserID, notice: String? = nil, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.notice = notice
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = ExpensesViewModel(user: user, timeZone: dependencies.timeZone)
        await load(into: &model)
        model.said(notice)
        return await presenter.run(model.state) { action, view in
            switch action {
            case .tapped(.older):
                guard model.state.hasOlder else { break }
                await turn(&model, to: model.state.page + 1)
            case .tapped(.newer):
                guard model.state.page > 0 else { break }
                await turn(&model, to: model.state.page - 1)
            case .open(let id):
                guard let expense = model.openable[id] else { break }
                let result = await router.start(ExpenseDetailFlow(user: user, expense: expense, dependencies: dependencies, router: router))
                await load(into: &model)
                model.said(nil)
                if case .deleted(let summary) = result { model.said("Deleted \(summary). Restore it below if that was a mistake.") }
            case .payment(let id):
                model.askTakeBack(id)
            case .deleted(let id):
                model.askRestore(id)
            case .tapped(.takeBack), .tapped(.restore):
                // The question's own action: its screen offers no other.
                guard let pending = model.pending else { break }
                model.busy()
                await view.show(model.state)
                do throws(ExpensesError) {
                    let done = try await answer(pending)
                    model.keep()
                    await load(into: &model)
                    model.said(done)
                } catch {
                    model.keep()
                    model.failed(error)
                }
            case .tapped(.keep):
                model.keep()
            case .tapped(.reports):
                _ = await router.start(ReportsFlow(user: user, dependencies: dependencies, router: router))
            case .tapped(.addExpense):
                return .addExpense
            case .tapped(.settleUp):
                let result = await router.start(SettleUpFlow(user: user, dependencies: dependencies, router: router))
                await load(into: &model)
                if let said = result.notice(for: user) { model.said(said) }
            case .refresh:
                // Someone else's change: read again, on the page being read. An open question
                // stays as it was asked.
                guard model.state.question == nil else { break }
                let page = model.state.page
                await load(into: &model)
                if page > 0 { await turn(&model, to: page) }
            case .back:
                guard model.state.question != nil else { return .closed }
                model.keep()
            }
            return nil
        }
    }

    /// Takes back the payment or restores the expense a question was about: what to say of it.
    private func answer(_ pending: ExpensesViewModel.Pending) async throws(ExpensesError) -> String {
        switch pending {
        case .takeBack(let payment):
            try await dependencies.expenses.undoSettlement(payment.id, by: user)
            return "Payment of \(payment.amount) taken back."
        case .restore(let expense):
            let restored = try await dependencies.expenses.restore(expense.id, by: user)
            return "Restored \(restored.summary)."
        }
    }

    /// Balances in more than one currency as one total in the user's usual currency, at today's
    /// reference rates; nil for one currency, or when a rate is missing.
    private func converted(_ balances: [Balance]) async -> ConvertedTotal? {
        guard Set(balances.map(\.amount.currency)).count > 1 else { return nil }
        let usual = (try? await dependencies.preferences.preferences(of: user).defaultCurrency) ?? Preferences.standard.defaultCurrency
        return await dependencies.rates.total(ofSeveral: balances.map(\.amount), in: usual, on: dependencies.today)
    }

    /// Balances, suggestions for each currency, names, and the newest page of activity.
    private func load(into model: inout ExpensesViewModel) async {
        do throws(ExpensesError) {
            let balances = try await dependencies.expenses.balances(of: user)
            var suggestions: [SuggestedPayment] = []
            for currency in Set(balances.map(\.amount.currency)).sorted(by: { $0.code < $1.code }) {
                suggestions += try await dependencies.expenses.suggestedPayments(for: user, in: currency)
            }
            let fetched = try await dependencies.expenses.activity(of: user, page: Self.page(0))
            let activity = Array(fetched.prefix(ExpensesViewModel.pageSize))
            let payments = try await dependencies.expenses.settlements(of: user, page: PageRequest(limit: 5))
            // Only those the screen names: a settled pair (a zero balance) is not shown.
            let people = Set(balances.filter { $0.amount.minorUnits != 0 }.map(\.other) + suggestions.flatMap { [$0.from, $0.to] } + activity.map(\.actor) + payments.flatMap { [$0.from, $0.to] })
                .subtracting([user])
            model.loaded(balances: balances, suggestions: suggestions, activity: activity, names: await names(of: people), converted: await converted(balances))
            model.turned(to: 0, hasOlder: fetched.count > ExpensesViewModel.pageSize)
            model.recent(try await dependencies.expenses.expenses(of: user, page: PageRequest(limit: ExpensesViewModel.pageSize)))
            model.payments(payments)
            model.deleted(try await dependencies.expenses.deletedExpenses(of: user, page: PageRequest(limit: 5)))
            if let recurring = dependencies.recurring {
                model.comingUp(try await recurring.series(of: user, after: dependencies.today))
            }
        } catch {
            model.failed(error)
        }
    }

    /// Another page of activity, naming the people first seen on it. A page that cannot be read
    /// leaves the one shown.
    private func turn(_ model: inout ExpensesViewModel, to page: Int) async {
        do throws(ExpensesError) {
            let fetched = try await dependencies.expenses.activity(of: user, page: Self.page(page))
            let activity = Array(fetched.prefix(ExpensesViewModel.pageSize))
            let unnamed = model.unnamed(among: activity.map(\.actor))
            if !unnamed.isEmpty { model.named(await names(of: unnamed)) }
            model.page(activity)
            model.turned(to: page, hasOlder: fetched.count > ExpensesViewModel.pageSize)
        } catch {
            model.failed(error)
        }
    }

    /// A page, with one more item to tell whether an older page exists.
    private static func page(_ number: Int) -> PageRequest {
        PageRequest(offset: number * ExpensesViewModel.pageSize, limit: ExpensesViewModel.pageSize + 1)
    }

    /// Friends by their names, other accounts by theirs; anyone else stays unnamed ("Someone").
    private func names(of people: Set<UserID>) async -> [UserID: String] {
        ((try? await dependencies.friends.names(of: people, for: user)) ?? [:]).mapValues(\.value)
    }
}
