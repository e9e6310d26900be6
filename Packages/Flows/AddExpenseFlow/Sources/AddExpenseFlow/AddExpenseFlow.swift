import Expenses
import FlowKit
import Friends
import Groups
import PickCounterpartyFlow
import Preferences
import Primitives

/// Adds an expense: who shares it (PickCounterparty, unless it was started with someone), then
/// one form with the description, amount, currency, day, category, who paid (one or several),
/// how it is split, a note, and the group it belongs to (if any). Under the form, the parts it comes to, on every key. Saving
/// writes it in one transaction; leaving at any step writes no expense (a contact added while
/// picking people stays: PickCounterparty's own result says so).
public actor AddExpenseFlow: InventoriedFlow {
    /// How adding ended.
    public enum FlowResult: FlowOutcome {
        /// The expense is recorded; the names of the people in it, for what is shown of it.
        case added(Expense, names: [UserID: String], by: UserID)
        /// The expense edited is saved as it is now.
        case edited(Expense, names: [UserID: String], by: UserID)
        /// The expense edited was changed by someone else while the form was open: nothing was
        /// saved (it would have undone their change unseen).
        case outdated
        /// The user left; no expense was written (a contact added while picking stays).
        case cancelled

        public func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws {
            switch self {
            case .added(let expense, let names, let user), .edited(let expense, let names, let user):
                try container.encode(AddedExpense(expense, names: names, by: user), forKey: "expense")
            case .cancelled, .outdated:
                break
            }
        }
    }

    /// What the flow needs from the app: its own needs and those of PickCounterparty.
    public protocol Dependencies: PickCounterpartyFlow.Dependencies {
        var expenses: any ExpensesService { get }
        var preferences: any PreferencesService { get }
        /// The groups the user may file it under.
        var groups: any GroupsService { get }
        /// The day it is now in the user's time zone: where the form's day starts.
        var today: Day { get }
        /// Where series of expenses are kept; nil where the app keeps none (then a new expense
        /// offers no "Repeats").
        var recurring: (any RecurringExpenses)? { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: AddExpenseView(), for: AddExpenseViewModel.examples)
    }

    private let user: UserID
    private var with: [Friend]
    private let editing: Expense?
    /// The series whose template is edited, when it is one (`editing` is then its template).
    private let series: SeriesID?
    /// The group it was started from: it is filed there, and its members are in it.
    private let group: Group?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<AddExpenseAction>
    private var router: AppRouter { presenter.router }

    /// Adds an expense of `user`'s with `with`; with nobody given, it asks first whom it is with.
    /// Started from `group`, it is filed there and shared by the group's members to begin with.
    public init(user: UserID, with: [Friend] = [], in group: Group? = nil, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.with = with
        self.group = group
        editing = nil
        series = nil
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    /// Edits `expense`, whose other people are `friends`: the form opens as it was saved.
    public init(user: UserID, editing expense: Expense, with friends: [Friend], dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        with = friends
        editing = expense
        series = nil
        group = nil
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    /// Edits what the later occurrences of `repeating` copy (its template, whose other people
    /// are `friends`); those made stay. Ends `edited` with the template as saved, or `cancelled`.
    public init?(user: UserID, editingSeries repeating: ExpenseSeries, with friends: [Friend], dependencies: any Dependencies, router: AppRouter) {
        guard let template = try? Expense(id: ExpenseID(rawValue: repeating.id.rawValue), draft: repeating.template) else { return nil }
        self.user = user
        with = friends
        editing = template
        series = repeating.id
        group = nil
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        if let group, with.isEmpty { with = await members(of: group) }
        if with.isEmpty, editing == nil {
            guard case .picked(let picked) = await pickPeople() else { return .cancelled }
            with = picked
        }
        // A group's expense starts in the group's currency; any other in the user's own.
        let usual = (try? await dependencies.preferences.preferences(of: user).defaultCurrency) ?? Preferences.standard.defaultCurrency
        let currency = group?.currency ?? usual
        var model = AddExpenseViewModel(user: user, with: with, currency: currency, today: dependencies.today)
        model.canRepeat = dependencies.recurring != nil
        model.groupsLoaded((try? await dependencies.groups.groups(of: user, archived: false)) ?? [], chosen: editing?.group ?? group?.id)
        if let editing { model.opened(editing) }
        model.isSeries = series != nil
        return await presenter.run(model.state) { action, view in
            switch action {
            case .typed(let id, let text, let isFinal):
                model.typed(id, text, isFinal: isFinal)
            case .chose(let id, let options):
                let before = model.chosenGroup?.id
                model.chose(id, options)
                // Filed under a group with nobody else in it yet: its members share it.
                if id == AddExpenseView.group, editing == nil, model.sharedByNobodyElse, let group = model.chosenGroup, group.id != before {
                    with = await members(of: group)
                    model.filedWithMembers(with, currency: group.currency)
                }
            case .tapped(.people):
                if case .picked(let picked) = await pickPeople() {
                    with = picked
                    model.peopleChanged(picked)
                }
            case .tapped(.save):
                guard let draft = model.check(), case .success(let repeating) = model.checkRepeat(from: draft.day) else { break }
                let answer = await view.submit(&model) { [editing, series] _ throws(ExpensesError) -> Expense? in
                    if let series, let recurring = dependencies.recurring {
                        let changed = try await recurring.editSeries(series, to: draft, by: user)
                        do throws(ExpenseProblem) {
                            return try Expense(id: ExpenseID(rawValue: series.rawValue), draft: changed.template)
                        } catch {
                            throw .invalid(error)
                        }
                    }
                    guard let editing else {
                        let added = try await dependencies.expenses.add(draft, by: user)
                        // The expense is saved: a series that cannot be made now leaves it as
                        // it is (its details offer no series), rather than have a retry add it twice.
                        if let repeating {
                            _ = try? await dependencies.recurring?.repeatExpense(added.id, every: repeating.frequency, until: repeating.end, by: user)
                        }
                        return added
                    }
                    do throws(ExpensesError) {
                        return try await dependencies.expenses.edit(editing, to: draft, by: user)
                    } catch {
                        // Changed meanwhile: the one who opened the edit sees the change first.
                        if case .changedSince = error { return nil }
                        throw error
                    }
                }
                guard let answer else { break }
                guard let saved = answer else { return .outdated }
                return editing == nil ? .added(saved, names: model.names, by: user) : .edited(saved, names: model.names, by: user)
            case .cancel:
                return .cancelled
            }
            return nil
        }
    }

    /// A group's other members, by the names the user knows them by (someone else's contact, who
    /// has none for the user, as "Someone's contact").
    private func members(of group: Group) async -> [Friend] {
        let others = group.members.filter { $0 != user }
        let names = (try? await dependencies.friends.names(of: Set(others), for: user)) ?? [:]
        return others.compactMap { id in
            (names[id] ?? (try? DisplayName("Someone's contact"))).map { Friend(id: id, name: $0, kind: .contact(email: nil)) }
        }
    }

    private func pickPeople() async -> PickCounterpartyFlow.FlowResult {
        await router.start(PickCounterpartyFlow(user: user, picked: with, dependencies: dependencies, router: router))
    }
}

/// An added expense as `--json` prints it: amounts as text in the currency's decimals, each
/// person with their name.
struct AddedExpense: Encodable {
    struct Share: Encodable {
        var user: String
        var name: String
        var amount: String
    }

    var id: String
    var description: String
    var amount: String
    var currency: String
    var day: String
    var category: String
    var split: String
    var note: String?
    /// The group it is filed under, by id; absent for none.
    var group: String?
    var paidBy: [Share]
    var parts: [Share]
    var extraUnits: [String]

    init(_ expense: Expense, names: [UserID: String], by user: UserID) {
        id = expense.id.rawValue
        description = expense.description
        amount = expense.amount.amountText
        currency = expense.amount.currency.code
        day = expense.day.description
        category = expense.category.rawValue
        split = expense.rule.mode.rawValue
        note = expense.note
        group = expense.group?.rawValue
        paidBy = expense.payers.map { Share(user: $0.user.rawValue, name: names[$0.user] ?? $0.user.rawValue, amount: $0.amount.amountText) }
        parts = expense.split.parts.map { Share(user: $0.user.rawValue, name: names[$0.user] ?? $0.user.rawValue, amount: $0.amount.amountText) }
        extraUnits = AddExpenseViewModel.extraUnits(of: expense.split, names: names, you: user)
    }
}
