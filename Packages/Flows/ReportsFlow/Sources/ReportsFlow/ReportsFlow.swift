import Expenses
import FlowKit
import Primitives

/// The user's own spending (their parts of expenses) for a range of days, by category and by
/// month, each currency apart, with bars drawn in text.
public actor ReportsFlow: InventoriedFlow {
    /// How the reports ended: they only show, so there is nothing else to say.
    public enum FlowResult: FlowOutcome {
        case closed
        case cancelled
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var expenses: any ExpensesService { get }
        /// The day it is now in the user's time zone: where the range ends.
        var today: Day { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: ReportsView(), for: ReportsViewModel.examples)
    }

    private let user: UserID
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<ReportsAction>

    public init(user: UserID, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = ReportsViewModel(today: dependencies.today)
        if let range = model.range() { await show(range, in: &model) }
        return await presenter.run(model.state) { action, view in
            switch action {
            case .typed(let id, let text, let isFinal):
                model.typed(id, text, isFinal: isFinal)
            case .tapped(.show):
                // A range refused under its fields is not read: nothing to wait for.
                guard let range = model.range() else { break }
                model.busy()
                await view.show(model.state)
                await show(range, in: &model)
            case .back:
                return .closed
            }
            return nil
        }
    }

    private func show(_ range: (from: Day, through: Day), in model: inout ReportsViewModel) async {
        do throws(ExpensesError) {
            model.shown(try await dependencies.expenses.spending(of: user, from: range.from, through: range.through))
        } catch {
            model.failed(error)
        }
    }
}
