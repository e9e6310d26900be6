import Expenses
import FlowKit
import Primitives

/// What an expense's screen shows, already in words.
struct ExpenseDetailViewState: Equatable, Sendable {
    enum Step: Equatable, Sendable {
        case pick
        case detail
        case confirmDelete
    }

    var step = Step.detail
    var choices: [Choice] = []
    /// Whether what the screen lists was read: after a failed read it says nothing of it (not
    /// "settled up" or "none yet"), only why.
    var isLoaded = true
    var title = ""
    var lines: [String] = []
    var notice: String?
    var phase = Phase.idle
}

/// Turns an expense and the names of its people into sentences.
struct ExpenseDetailViewModel: SubmittingViewModel {
    static var examples: [ExpenseDetailViewState] {
        let me = UserID(rawValue: "me")
        let someone = UserID(rawValue: "someone")
        let amount = Money(minorUnits: 1000, currency: .eur)
        guard let day = try? Day("2026-11-22"),
              let expense = try? Expense(id: ExpenseID(rawValue: "e"), draft: ExpenseDraft(
                  description: "Dinner", amount: amount, day: day, category: .food, payers: [Payer(user: me, amount: amount)],
                  participants: [me, someone], rule: .shares([me: 1, someone: 2]), note: "A note"
              ))
        else { return [] }
        var picking = ExpenseDetailViewModel(user: me)
        picking.pickable([expense])
        var nothing = ExpenseDetailViewModel(user: me)
        nothing.pickable([])
        var shown = ExpenseDetailViewModel(user: me)
        shown.show(expense, names: [someone: "Someone"])
        var asking = shown
        asking.askDelete()
        var failing = shown
        failing.failed(.storeUnavailable(FlowInventory.anyDetail))
        var saved = shown
        saved.said("Saved.")
        var gone = ExpenseDetailViewModel(user: me)
        gone.unavailable(.notFound(ExpenseID(rawValue: "e")))
        return [picking.state, nothing.state, shown.state, asking.state, failing.state, saved.state, gone.state]
    }

    private(set) var state = ExpenseDetailViewState()
    private let user: UserID
    /// The expenses on offer to pick, by their choice's id.
    private(set) var pickable: [ElementID: ExpenseID] = [:]

    init(user: UserID) {
        self.user = user
    }

    mutating func pickable(_ expenses: [Expense]) {
        state.step = .pick
        let ids = ElementID.readable(for: expenses.map(\.description))
        pickable = Dictionary(zip(ids, expenses.map(\.id)), uniquingKeysWith: { first, _ in first })
        state.choices = zip(ids, expenses).map { Choice(id: $0, label: "\($1.day) \($1.summary)") }
    }

    /// The expense could not be read (deleted meanwhile, or a failing store): nothing of it is
    /// shown or offered, only why and the way back.
    mutating func unavailable(_ error: ExpensesError) {
        state.step = .detail
        state.isLoaded = false
        if state.title.isEmpty { state.title = "An expense" }
        state.lines = []
        if case .notFound = error {
            state.phase = .failed("This expense is not there any more: it was deleted, or you were taken out of it.")
        } else {
            failed(error)
        }
    }

    mutating func show(_ expense: Expense, names: [UserID: String]) {
        let me = user
        let name = { (person: UserID) in person == me ? "You" : names[person] ?? "Someone" }
        state.step = .detail
        state.isLoaded = true
        state.phase = .idle
        state.title = expense.summary
        let category = expense.category.rawValue.prefix(1).uppercased() + expense.category.rawValue.dropFirst()
        var lines = ["\(expense.amount) on \(expense.day), \(category)."]
        lines.append("Paid by " + expense.payers.map { "\(name($0.user)) \($0.amount)" }.joined(separator: ", ") + ".")
        let how = switch expense.rule {
        case .equal: "Split equally"
        case .exact: "Split by exact amounts"
        case .percentages: "Split by percentages"
        case .shares: "Split by shares"
        }
        let parts = expense.split.parts.map { part -> String in
            let given: String? = switch expense.rule {
            case .equal: nil
            case .exact: nil
            case .percentages(let points): points[part.user].map { "\(SplitRule.percentText(basisPoints: $0)) %" }
            case .shares(let shares): shares[part.user].map { $0 == 1 ? "1 share" : "\($0) shares" }
            }
            return "\(name(part.user)) \(part.amount)" + (given.map { " (\($0))" } ?? "")
        }
        lines.append("\(how): " + parts.joined(separator: ", ") + ".")
        lines += expense.split.explanation(naming: name, you: user)
        if let note = expense.note { lines.append("Note: \(note)") }
        state.lines = lines
    }

    mutating func askDelete() {
        state.step = .confirmDelete
        state.notice = nil
    }

    mutating func backToDetail() {
        state.step = .detail
    }

    mutating func said(_ notice: String?) {
        state.notice = notice
    }

    mutating func busy() {
        state.phase = .loading
    }

    /// The expenses to pick from could not be read: none offered, and the screen says why.
    mutating func failedToLoad(_ error: ExpensesError) {
        pickable([])
        state.isLoaded = false
        failed(error)
    }

    mutating func failed(_ error: ExpensesError) {
        if state.step == .confirmDelete { state.step = .detail }
        state.phase = .failed(error.message)
    }
}
