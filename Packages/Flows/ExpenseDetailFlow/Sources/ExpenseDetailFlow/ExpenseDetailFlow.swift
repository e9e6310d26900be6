import AddExpenseFlow
import Expenses
import FlowKit
import Foundation
import Friends
import Primitives

/// One expense: what it was, who paid what, each part and why any extra unit went where it
/// did. Editing opens AddExpense's form exactly as the expense was saved (its split's mode and
/// values, its payers); deleting asks first. Its history tells every change kept, in words,
/// and restores an older version as a new change. Its thread of comments is shown below it:
/// the user adds to it, and deletes their own after a question.
public actor ExpenseDetailFlow: InventoriedFlow {
    /// How the details ended.
    public enum FlowResult: FlowOutcome {
        /// Back; the expense may have been edited meanwhile.
        case closed
        /// The expense is deleted; its summary (`Dinner, 30.00 EUR`), for what is said of it.
        case deleted(expense: String)
        case cancelled
    }

    /// What the flow needs from the app: its own needs and AddExpense's.
    public protocol Dependencies: AddExpenseFlow.Dependencies {
        var friends: any FriendsService { get }
        var expenses: any ExpensesService { get }
        /// Where the user is: the history's times are shown in it.
        var timeZone: TimeZone { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: ExpenseDetailView(), for: ExpenseDetailViewModel.examples)
    }

    private let user: UserID
    private var expense: ExpenseID?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<ExpenseDetailAction>
    private var router: AppRouter { presenter.router }

    /// The details of `expense`; without one, the user first picks among their newest.
    public init(user: UserID, expense: ExpenseID?, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.expense = expense
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = ExpenseDetailViewModel(user: user)
        var shown: (expense: Expense, friends: [Friend], names: [UserID: String])?
        if let expense { shown = await load(expense, into: &model) } else { await loadPickable(into: &model) }
        return await presenter.run(model.state) { action, view in
            switch action {
            case .picked(let id):
                guard let picked = model.pickable[id] else { break }
                shown = await load(picked, into: &model)
            case .tapped(.edit):
                guard let current = shown else { break }
                model.said(nil)
                let editing = AddExpenseFlow(user: user, editing: current.expense, with: current.friends, dependencies: dependencies, router: router)
                switch await router.start(editing) {
                case .edited:
                    shown = await load(current.expense.id, into: &model)
                    model.said("Saved.")
                case .outdated:
                    shown = await reload(current.expense, into: &model, after: "Your edit was not saved")
                case .added, .cancelled:
                    break
                }
            case .tapped(.delete):
                guard shown != nil else { break }
                model.askDelete()
            case .tapped(.confirmDelete):
                guard let current = shown else { break }
                let deleted: Bool? = await view.submit(&model) { _ throws(ExpensesError) in
                    do throws(ExpensesError) {
                        try await dependencies.expenses.delete(current.expense, by: user)
                        return true
                    } catch {
                        if case .changedSince = error { return false }
                        throw error
                    }
                }
                if deleted == true { return .deleted(expense: current.expense.summary) }
                if deleted == false { shown = await reload(current.expense, into: &model, after: "It was not deleted") }
            case .tapped(.history):
                guard let current = shown else { break }
                await showHistory(of: current.expense, into: &model)
            case .versionChosen(let id):
                model.chooseVersion(id)
            case .tapped(.restoreVersion):
                guard let current = shown, model.state.step == .history, let older = model.chosenVersion else { break }
                let restored: Bool? = await view.submit(&model) { _ throws(ExpensesError) in
                    do throws(ExpensesError) {
                        _ = try await dependencies.expenses.edit(current.expense, to: older.draft, by: user)
                        return true
                    } catch {
                        if case .changedSince = error { return false }
                        throw error
                    }
                }
                if restored == true {
                    shown = await load(current.expense.id, into: &model)
                    model.said("Version \(older.version) restored as a new change.")
                }
                if restored == false { shown = await reload(current.expense, into: &model, after: "The older version was not restored") }
            case .typedComment(let text, let isFinal):
                model.typedComment(text, isFinal: isFinal)
            case .tapped(.addComment):
                guard let current = shown, let text = model.checkComment() else { break }
                let added = await view.submit(&model) { _ throws(ExpensesError) in
                    try await dependencies.expenses.comment(text, on: current.expense.id, by: user)
                }
                if added != nil {
                    await loadComments(of: current.expense.id, into: &model)
                    model.commented()
                }
            case .myCommentChosen(let id):
                model.askDeleteComment(id)
            case .tapped(.confirmDeleteComment):
                guard let current = shown, let comment = model.pendingComment else { break }
                let deleted: Bool? = await view.submit(&model) { _ throws(ExpensesError) in
                    try await dependencies.expenses.deleteComment(comment.id, on: current.expense.id, by: user)
                    return true
                }
                if deleted == true {
                    model.backToDetail()
                    await loadComments(of: current.expense.id, into: &model)
                    model.said("Your comment was deleted.")
                }
            case .tapped(.editSeries):
                guard let current = shown, let series = model.shownSeries, let recurring = dependencies.recurring else { break }
                model.said(nil)
                guard let editing = AddExpenseFlow(user: user, editingSeries: series, with: current.friends, dependencies: dependencies, router: router)
                else { break }
                if case .edited = await router.start(editing) {
                    model.showSeries(try? await recurring.series(containing: current.expense.id, for: user), today: dependencies.today)
                    model.said("The series is changed: the later ones copy it; those made stay as they are.")
                }
            case .tapped(.stopRepeating):
                guard let series = model.shownSeries, let recurring = dependencies.recurring else { break }
                let today = dependencies.today
                let stopped = await view.submit(&model) { _ throws(ExpensesError) in
                    try await recurring.stopSeries(series.id, after: today, by: user)
                }
                if let stopped {
                    model.showSeries(stopped, today: today)
                    model.said("It no longer repeats: nothing is made after \(today). Those made stay.")
                }
            case .back:
                if [.confirmDelete, .history, .confirmDeleteComment].contains(model.state.step) {
                    model.backToDetail()
                } else {
                    return .closed
                }
            }
            return nil
        }
    }

    /// The expense and its people's names (friends, then accounts, else "Someone"), shown;
    /// nil when it cannot be read (the screen says why).
    private func load(_ id: ExpenseID, into model: inout ExpenseDetailViewModel) async -> (Expense, [Friend], [UserID: String])? {
        do throws(ExpensesError) {
            guard let expense = try await dependencies.expenses.expense(id, for: user) else {
                model.unavailable(.notFound(id))
                return nil
            }
            // The edit form takes the others as friends; only their names matter there.
            let others = expense.people.subtracting([user])
            let known = (try? await dependencies.friends.names(of: others, for: user)) ?? [:]
            var friends: [Friend] = []
            for person in others {
                guard let name = known[person] ?? (try? DisplayName("Someone")) else { continue }
                friends.append(Friend(id: person, name: name, kind: .contact(email: nil)))
            }
            // In the expense's own order: its parts, then payers who have none.
            let order = expense.split.parts.map(\.user) + expense.payers.map(\.user)
            friends.sort { (order.firstIndex(of: $0.id) ?? .max) < (order.firstIndex(of: $1.id) ?? .max) }
            let names = Dictionary(friends.map { ($0.id, $0.name.value) }, uniquingKeysWith: { first, _ in first })
            model.show(expense, names: names)
            if let recurring = dependencies.recurring {
                model.showSeries(try? await recurring.series(containing: id, for: user), today: dependencies.today)
            }
            await loadComments(of: id, into: &model)
            return (expense, friends, names)
        } catch {
            model.unavailable(error)
            return nil
        }
    }

    /// The expense's thread, its authors by the names the user knows; when it cannot be read,
    /// the screen says why and the expense is still shown.
    private func loadComments(of id: ExpenseID, into model: inout ExpenseDetailViewModel) async {
        do throws(ExpensesError) {
            let comments = try await dependencies.expenses.comments(on: id, for: user)
            let authors = Set(comments.map(\.author)).subtracting([user])
            let names = authors.isEmpty ? [:] : ((try? await dependencies.friends.names(of: authors, for: user)) ?? [:]).mapValues(\.value)
            model.showComments(comments, names: names, timeZone: dependencies.timeZone)
        } catch {
            model.failed(error)
        }
    }

    /// The expense as it is now, after someone else changed `seen` while the user was acting on
    /// it: what changed is said, then `outcome` (nothing of the user's was written).
    private func reload(
        _ seen: Expense, into model: inout ExpenseDetailViewModel, after outcome: String
    ) async -> (Expense, [Friend], [UserID: String])? {
        let now = await load(seen.id, into: &model)
        guard let now else { return nil }
        let changes = now.0.changes(from: seen)
        let what = changes.isEmpty ? "" : ": " + changes.joined(separator: ", ")
        model.said("Someone changed this expense after you opened it\(what). \(outcome); it is shown as it is now.")
        return now
    }

    /// The expense's changes, with everyone they name by the names the user knows.
    private func showHistory(of expense: Expense, into model: inout ExpenseDetailViewModel) async {
        do throws(ExpensesError) {
            let changes = try await dependencies.expenses.history(of: expense.id, for: user)
            let people = Set(changes.flatMap { [$0.by] + ($0.expense.map { Array($0.people) } ?? []) }).subtracting([user])
            let names = ((try? await dependencies.friends.names(of: people, for: user)) ?? [:]).mapValues(\.value)
            model.showHistory(changes, current: expense, names: names, timeZone: dependencies.timeZone)
        } catch {
            model.failed(error)
        }
    }

    private func loadPickable(into model: inout ExpenseDetailViewModel) async {
        do throws(ExpensesError) {
            model.pickable(try await dependencies.expenses.expenses(of: user, page: PageRequest(limit: 20)))
        } catch {
            model.failedToLoad(error)
        }
    }
}
