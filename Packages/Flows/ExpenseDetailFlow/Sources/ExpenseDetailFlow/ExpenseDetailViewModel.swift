import Expenses
import FlowKit
import Foundation
import Primitives

/// What an expense's screen shows, already in words.
struct ExpenseDetailViewState: Equatable, Sendable {
    enum Step: Equatable, Sendable {
        case pick
        case detail
        case confirmDelete
        /// Every change kept, newest first, and the older versions to restore.
        case history
        /// One of the user's comments, to delete after a question.
        case confirmDeleteComment
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
    /// The history's lines, newest first.
    var history: [String] = []
    /// The older versions that may be restored, newest first.
    var versions: [Choice] = []
    var selectedVersion: ElementID?
    /// The thread, oldest first, in words: `Bob Stone, 2027-01-15 08:00: Was it 30 or 36?`.
    var comments: [String] = []
    /// The user's own comments, to delete.
    var ownComments: [Choice] = []
    /// A comment being written.
    var comment = ""
    var commentError: String?
    /// The comment asked about before it is deleted, in words.
    var deleting: String?
    /// The series it is an occurrence of, in words, and whether it still runs (can be stopped).
    var series: String?
    var seriesRuns = false
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
        var states = [picking.state, nothing.state, shown.state, asking.state, failing.state, saved.state, gone.state]
        // A history with every kind of change, one kept before changes were kept whole, and
        // versions to restore; and one with nothing kept.
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        if let edited = try? Expense(id: expense.id, draft: ExpenseDraft(
            description: "Team dinner", amount: Money(minorUnits: 1500, currency: .eur), day: day, category: .general,
            payers: [Payer(user: someone, amount: Money(minorUnits: 1500, currency: .eur))], participants: [me], rule: .equal
        ), version: 2) {
            var history = shown
            history.showHistory([
                ExpenseChange(kind: .added, by: me, at: time, expense: expense),
                ExpenseChange(kind: .edited, by: someone, at: time, expense: edited),
                ExpenseChange(kind: .deleted, by: someone, at: time, expense: edited),
                ExpenseChange(kind: .restored, by: me, at: time, expense: edited),
                ExpenseChange(kind: .edited, by: me, at: time, expense: nil),
            ], current: edited, names: [someone: "Someone"], timeZone: .gmt)
            states.append(history.state)
        }
        var empty = shown
        empty.showHistory([], current: expense, names: [:], timeZone: .gmt)
        states.append(empty.state)
        // A thread, a comment refused, one added, and one of the user's asked about.
        var thread = shown
        let long = String(repeating: "A long comment. ", count: 8)
        thread.showComments([
            ExpenseComment(id: CommentID(rawValue: "c1"), expense: expense.id, author: someone, at: time, text: "Was it 10 or 16?"),
            ExpenseComment(id: CommentID(rawValue: "c2"), expense: expense.id, author: me, at: time, text: long),
        ], names: [someone: "Someone"], timeZone: .gmt)
        states.append(thread.state)
        var refused = thread
        refused.typedComment("two\nlines", isFinal: true)
        _ = refused.checkComment()
        states.append(refused.state)
        var added = thread
        added.commented()
        states.append(added.state)
        if let own = thread.state.ownComments.first?.id {
            thread.askDeleteComment(own)
            states.append(thread.state)
        }
        var none = shown
        none.showComments([], names: [:], timeZone: .gmt)
        states.append(none.state)
        if let monthly = try? Recurrence(start: day, frequency: .monthly(day: 22)) {
            var repeating = shown
            repeating.showSeries(ExpenseSeries(id: SeriesID(rawValue: "s"), template: expense.draft, recurrence: monthly, createdBy: me, version: 1), today: day)
            states.append(repeating.state)
        }
        return states
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

    /// The changes kept, in words, newest first, and the versions other than `current` that
    /// may be restored.
    mutating func showHistory(_ changes: [ExpenseChange], current: Expense, names: [UserID: String], timeZone: TimeZone) {
        let me = user
        let name = { (person: UserID) in person == me ? "you" : names[person] ?? "Someone" }
        state.step = .history
        state.phase = .idle
        state.notice = nil
        var lines: [String] = []
        var previous: Expense?
        for change in changes {
            let who = change.by == me ? "You" : names[change.by] ?? "Someone"
            let what: String
            switch change.kind {
            case .added: what = "added it" + (change.expense.map { ": \($0.summary)" } ?? "")
            case .deleted: what = "deleted it"
            case .restored: what = "restored it"
            default:
                if let before = previous, let after = change.expense {
                    let differences = Self.differences(after, from: before, name: name)
                    what = differences.isEmpty ? "saved it unchanged" : "changed " + differences.joined(separator: "; ")
                } else {
                    what = "changed it"
                }
            }
            lines.append("\(who) \(what), \(Day.minute(at: change.at, in: timeZone)).")
            if let kept = change.expense { previous = kept }
        }
        state.history = lines.isEmpty ? ["No changes of this expense were kept: it was last changed before history was kept."] : lines.reversed()
        // Each older version once (a delete and a restore keep the version), the newest first.
        var seen: Set<Int> = [current.version]
        var versions: [(id: ElementID, label: String, expense: Expense)] = []
        for change in changes.reversed() {
            guard let kept = change.expense, !seen.contains(kept.version), kept.draft != current.draft else { continue }
            seen.insert(kept.version)
            let id = ElementID("version-\(kept.version)")
            versions.append((id, "Version \(kept.version), \(Day.minute(at: change.at, in: timeZone)): \(kept.summary)", kept))
        }
        restorable = Dictionary(versions.map { ($0.id, $0.expense) }, uniquingKeysWith: { first, _ in first })
        state.versions = versions.map { Choice(id: $0.id, label: $0.label) }
        state.selectedVersion = versions.first?.id
    }

    /// The version to restore, chosen.
    mutating func chooseVersion(_ id: ElementID) {
        guard restorable[id] != nil else { return }
        state.selectedVersion = id
    }

    /// The older version chosen, to write again as a new change.
    var chosenVersion: Expense? {
        state.selectedVersion.flatMap { restorable[$0] }
    }

    /// What is different in `new` from `old`, with the people named: `who paid: you → Bob Stone`.
    static func differences(_ new: Expense, from old: Expense, name: (UserID) -> String) -> [String] {
        var lines: [String] = []
        if new.description != old.description { lines.append("the description: \(old.description) → \(new.description)") }
        if new.amount != old.amount { lines.append("the amount: \(old.amount) → \(new.amount)") }
        if new.day != old.day { lines.append("the day: \(old.day) → \(new.day)") }
        if new.category != old.category { lines.append("the category: \(old.category.rawValue) → \(new.category.rawValue)") }
        func payers(_ expense: Expense) -> String {
            expense.payers.count == 1
                ? expense.payers.map { name($0.user) }.joined()
                : expense.payers.map { "\(name($0.user)) \($0.amount)" }.joined(separator: ", ")
        }
        func sharers(_ expense: Expense) -> String { expense.split.parts.map { name($0.user) }.joined(separator: ", ") }
        // One payer paying a new amount paid the whole of it, as before: not another change.
        if new.payers.map(\.user) != old.payers.map(\.user) || (new.payers.count > 1 && new.payers != old.payers) {
            lines.append("who paid: \(payers(old)) → \(payers(new))")
        }
        if new.split.parts.map(\.user) != old.split.parts.map(\.user) {
            lines.append("who shares it: \(sharers(old)) → \(sharers(new))")
        } else if new.rule != old.rule {
            lines.append("how it is split")
        }
        if new.note != old.note { lines.append("the note") }
        return lines
    }

    // MARK: Series

    /// The series the expense is an occurrence of, with the next day it falls on after `today`.
    private(set) var shownSeries: ExpenseSeries?

    mutating func showSeries(_ series: ExpenseSeries?, today: Day) {
        shownSeries = series
        state.phase = .idle
        guard let series else {
            state.series = nil
            state.seriesRuns = false
            return
        }
        let next = series.recurrence.next(after: today)?.day
        state.series = "Repeats \(series.every) from \(series.recurrence.start)\(series.ending)" + (next.map { "; next on \($0)." } ?? "; it has ended.")
        state.seriesRuns = next != nil
    }

    // MARK: Comments

    /// The user's own comments on offer to delete, by their choice's id.
    private var deletable: [ElementID: ExpenseComment] = [:]
    /// The comment asked about.
    private(set) var pendingComment: ExpenseComment?

    /// The thread, with its authors by the names the user knows (anyone else as someone).
    mutating func showComments(_ comments: [ExpenseComment], names: [UserID: String], timeZone: TimeZone) {
        let me = user
        state.phase = .idle
        state.comments = comments.isEmpty ? [] : ["Comments, oldest first:"] + comments.map { comment in
                "\(comment.author == me ? "You" : names[comment.author] ?? "Someone"), \(Day.minute(at: comment.at, in: timeZone)): \(comment.text)"
            }
        let own = comments.filter { $0.author == me }
        let ids = ElementID.readable(for: own.map { "comment \($0.text.prefix(24))" })
        deletable = Dictionary(zip(ids, own), uniquingKeysWith: { first, _ in first })
        state.ownComments = zip(ids, own).map { Choice(id: $0, label: Self.quoted($1.text)) }
    }

    /// A comment as a sentence quotes it: whole when short, else its start.
    private static func quoted(_ text: String) -> String {
        text.count <= 60 ? "“\(text)”" : "“\(text.prefix(57))…”"
    }

    mutating func typedComment(_ text: String, isFinal: Bool) {
        state.comment = text
        // An empty field is no mistake until the comment is added.
        var problem: String?
        if !text.isEmpty, case .failure(let refused) = ExpenseComment.text(text) { problem = refused.message }
        if isFinal || problem == nil { state.commentError = problem }
        state.phase = .idle
    }

    /// The comment to add, or nil with why not on its field.
    mutating func checkComment() -> String? {
        switch ExpenseComment.text(state.comment) {
        case .success(let text):
            state.commentError = nil
            return text
        case .failure(let problem):
            state.commentError = problem.message
            return nil
        }
    }

    /// The comment is added: the field is empty again.
    mutating func commented() {
        state.comment = ""
        state.commentError = nil
        state.notice = "Comment added."
    }

    mutating func askDeleteComment(_ id: ElementID) {
        guard let comment = deletable[id] else { return }
        pendingComment = comment
        state.deleting = Self.quoted(comment.text)
        state.step = .confirmDeleteComment
        state.notice = nil
        state.phase = .idle
    }

    mutating func askDelete() {
        state.step = .confirmDelete
        state.notice = nil
    }

    /// The history's versions to restore, by their choice's id.
    private var restorable: [ElementID: Expense] = [:]

    mutating func backToDetail() {
        state.step = .detail
        pendingComment = nil
        state.deleting = nil
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
        if [.confirmDelete, .history, .confirmDeleteComment].contains(state.step) { state.step = .detail }
        if case .invalidComment(let problem) = error {
            state.commentError = problem.message
            state.phase = .idle
            return
        }
        state.phase = .failed(error.message)
    }
}
