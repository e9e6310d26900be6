import Expenses
import FlowKit
import Foundation
import Primitives
import Rates

/// What the Expenses tab shows, already in words.
struct ExpensesViewState: Equatable, Sendable {
    var balances: [String] = []
    /// Each balance line in its tone: owed to the user, or owed by them.
    var tones: [TonedPhrase] = []
    var suggestions: [String] = []
    /// The next occurrence of each repeating expense: `2027-01-31 Rent, 900.00 EUR (every month on its last day)`.
    var comingUp: [String] = []
    var activity: [String] = []
    /// The user's newest expenses, to open.
    var recent: [Choice] = []
    /// The user's newest payments, to take back.
    var payments: [Choice] = []
    /// The user's most recently deleted expenses, to restore.
    var deleted: [Choice] = []
    /// The question before a payment is taken back or an expense restored.
    var question: Question?
    var page = 0
    var pageSize = ExpensesViewModel.pageSize
    var hasOlder = false
    /// Whether the balances and activity were read: before that (or when that failed) the tab
    /// says nothing of them, rather than "settled up" and "no activity".
    var isLoaded = false
    var notice: String?
    var phase = Phase.idle
}

/// A question the tab asks before it changes something.
enum Question: Equatable, Sendable {
    case takeBack(String)
    case restore(String)
}

/// Turns balances, suggested payments and activity into sentences with people's names.
struct ExpensesViewModel: ViewModel {
    static let pageSize = 10

    static var examples: [ExpensesViewState] {
        let me = UserID(rawValue: "me")
        let someone = UserID(rawValue: "someone")
        var empty = ExpensesViewModel(user: me, timeZone: .gmt)
        empty.loaded(balances: [], suggestions: [], activity: [], names: [:])
        var full = ExpensesViewModel(user: me, timeZone: .gmt)
        let owed = Money(minorUnits: 1200, currency: .eur)
        full.loaded(
            balances: [Balance(other: someone, amount: owed), Balance(other: someone, amount: Money(minorUnits: -300, currency: .usd))],
            suggestions: [SuggestedPayment(from: someone, to: me, amount: owed)],
            activity: Activity.Kind.allCases.map { Activity(kind: $0, actor: someone, subject: ExpenseID(rawValue: "e"), summary: FlowInventory.anyDetail, at: Date(timeIntervalSince1970: 0)) },
            names: [someone: "Someone"]
        )
        full.turned(to: 1, hasOlder: true)
        var failing = ExpensesViewModel(user: me, timeZone: .gmt)
        failing.failed(.storeUnavailable(FlowInventory.anyDetail))
        var said = empty
        said.said(FlowInventory.anyDetail)
        var asking = full
        asking.payments([Settlement(id: ExpenseID(rawValue: "s"), from: someone, to: me, amount: owed, day: Day.today(at: Date(timeIntervalSince1970: 0), in: .gmt))])
        if let first = asking.state.payments.first { asking.askTakeBack(first.id) }
        var restoring = full
        if let lunch = try? Expense(id: ExpenseID(rawValue: "e"), draft: ExpenseDraft(
            description: "Lunch", amount: owed, day: Day.today(at: Date(timeIntervalSince1970: 0), in: .gmt), category: .food,
            payers: [Payer(user: me, amount: owed)], participants: [me, someone], rule: .equal
        )) {
            restoring.deleted([lunch])
        }
        if let first = restoring.state.deleted.first { restoring.askRestore(first.id) }
        return [empty.state, full.state, failing.state, said.state, asking.state, restoring.state]
    }

    private(set) var state = ExpensesViewState()
    private let user: UserID
    private let timeZone: TimeZone
    private var names: [UserID: String] = [:]
    /// The expenses on offer to open, by their choice's id.
    private(set) var openable: [ElementID: ExpenseID] = [:]
    /// The payments on offer to take back, by their choice's id.
    private(set) var payable: [ElementID: Settlement] = [:]
    /// The deleted expenses on offer to restore, by their choice's id.
    private(set) var restorable: [ElementID: Expense] = [:]
    /// What the question is about.
    private(set) var pending: Pending?

    enum Pending: Equatable {
        case takeBack(Settlement)
        case restore(Expense)
    }

    init(user: UserID, timeZone: TimeZone) {
        self.user = user
        self.timeZone = timeZone
    }

    private func name(_ person: UserID, capitalised: Bool = false) -> String {
        person == user ? (capitalised ? "You" : "you") : names[person] ?? "Someone"
    }

    mutating func loaded(balances: [Balance], suggestions: [SuggestedPayment], activity: [Activity], names: [UserID: String], converted: ConvertedTotal? = nil) {
        self.names = names
        state.isLoaded = true
        state.phase = .idle
        var totals: [Currency: Int128] = [:]
        for balance in balances { totals[balance.amount.currency, default: 0] += Int128(balance.amount.minorUnits) }
        var toned: [(line: String, positive: Bool)] = totals.sorted { $0.key.code < $1.key.code }.compactMap { currency, units in
            BalanceWords.total(units, in: currency).map { ($0, units > 0) }
        }
        if let converted { toned.append((converted.sentence(), !converted.total.isNegative)) }
        // Each name looked up once, not at every comparison of the sort.
        let named = balances.map { (name: name($0.other, capitalised: true), balance: $0) }
        let ordered = named.sorted { ($0.name, $0.balance.amount.currency.code) < ($1.name, $1.balance.amount.currency.code) }
        toned += ordered.map { (BalanceWords.sentence($0.balance.amount, name: $0.name), !$0.balance.amount.isNegative) }
        state.balances = toned.map(\.line)
        state.tones = toned.map { TonedPhrase($0.line, $0.positive ? .positive : .negative) }
        state.suggestions = suggestions.map { payment in
            payment.from == user ? "You pay \(name(payment.to)) \(payment.amount)." : "\(name(payment.from, capitalised: true)) pays \(name(payment.to)) \(payment.amount)."
        }
        page(activity)
    }

    /// The people among `people` the tab has no name for yet (besides the user).
    func unnamed(among people: [UserID]) -> Set<UserID> {
        Set(people).subtracting(names.keys).subtracting([user])
    }

    /// Names for people first seen on another page of activity.
    mutating func named(_ more: [UserID: String]) {
        names.merge(more) { _, new in new }
    }

    /// One page of activity, in words: `2027-01-15 You added Dinner, 30.00 EUR.`
    mutating func page(_ activity: [Activity]) {
        state.activity = activity.map { item in
            "\(Day.today(at: item.at, in: timeZone)) \(ActivityWords.sentence(item, who: name(item.actor, capitalised: true)))"
        }
    }

    /// The newest expenses, offered to open: `2027-01-15 Dinner, 30.00 EUR`.
    mutating func recent(_ expenses: [Expense]) {
        let ids = ElementID.readable(for: expenses.map(\.description))
        openable = Dictionary(zip(ids, expenses.map(\.id)), uniquingKeysWith: { first, _ in first })
        state.recent = zip(ids, expenses).map { Choice(id: $0, label: "\($1.day) \($1.summary)") }
    }

    /// The next occurrence of each series still running, soonest first.
    mutating func comingUp(_ upcoming: [UpcomingOccurrence]) {
        state.comingUp = upcoming.compactMap { item -> (Day, String)? in
            guard let next = item.next else { return nil }
            let template = item.series.template
            return (next, "\(next) \(template.description), \(template.amount) (\(item.series.rhythm))")
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The newest payments, offered to take back: `2027-01-15 Cy Young paid you 30.00 EUR`.
    mutating func payments(_ settlements: [Settlement]) {
        let labels = settlements.map { payment in "\(payment.day) \(payment.sentence(for: user) { name($0) })" }
        let ids = ElementID.readable(for: settlements.map { "payment \($0.day)" })
        payable = Dictionary(zip(ids, settlements), uniquingKeysWith: { first, _ in first })
        state.payments = zip(ids, labels).map { Choice(id: $0, label: $1) }
    }

    /// The most recently deleted expenses, offered to restore: `2027-01-15 Dinner, 30.00 EUR`.
    mutating func deleted(_ expenses: [Expense]) {
        let ids = ElementID.readable(for: expenses.map(\.description))
        restorable = Dictionary(zip(ids, expenses), uniquingKeysWith: { first, _ in first })
        state.deleted = zip(ids, expenses).map { Choice(id: $0, label: "\($1.day) \($1.summary)") }
    }

    /// Asks before taking back the payment offered as `id`.
    mutating func askTakeBack(_ id: ElementID) {
        guard let payment = payable[id] else { return }
        pending = .takeBack(payment)
        state.notice = nil
        let whose = payment.from == user ? "your" : "\(name(payment.from, capitalised: true))'s"
        state.question = .takeBack(payment.conversion == nil
            ? "Take back \(whose) payment of \(payment.amount) to \(name(payment.to)), on \(payment.day)?"
            : "Take back the conversion of \(payment.day) (\(payment.sentence(for: user) { name($0) }))? Both balances return to what they were.")
    }

    /// Asks before restoring the deleted expense offered as `id`.
    mutating func askRestore(_ id: ElementID) {
        guard let expense = restorable[id] else { return }
        pending = .restore(expense)
        state.notice = nil
        state.question = .restore("Restore \(expense.summary), of \(expense.day)?")
    }

    mutating func keep() {
        pending = nil
        state.question = nil
        state.phase = .idle
    }

    mutating func turned(to page: Int, hasOlder: Bool) {
        state.page = page
        state.hasOlder = hasOlder
    }

    mutating func said(_ notice: String?) {
        state.notice = notice
    }

    mutating func busy() {
        state.phase = .loading
    }

    mutating func failed(_ error: ExpensesError) {
        state.phase = .failed(error.message)
    }
}
