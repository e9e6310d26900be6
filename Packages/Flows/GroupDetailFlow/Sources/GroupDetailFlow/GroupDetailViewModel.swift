import Expenses
import FlowKit
import Groups
import Primitives
import Rates

/// What a group's screens show.
struct GroupDetailViewState: Equatable, Sendable {
    struct Option: Equatable, Sendable {
        var id: ElementID
        var label: String
    }

    /// The group shown, in words.
    struct Shown: Equatable, Sendable {
        var id: GroupID
        var name: String
        /// `Trip · EUR · simplifies debts · 3 members`.
        var header: String
        /// `You: you are owed 20.00 EUR`, `Bob Stone: owes 10.00 EUR`.
        var members: [String]
        /// The user's balances here in several currencies as one, in the group's currency:
        /// `In all, in JPY: you are owed 4243 JPY (at 1 EUR = 175.68 JPY, ECB 2026-10-30).`
        var inAll: String? = nil
        /// `Bob Stone pays you 10.00 EUR.`
        var suggestions: [String]
        /// The expenses and payments shown, newest first.
        var lines: [Option]
        var hasMore: Bool
        var archived = false
        /// Whether the user owes or is owed anything in the group.
        var userHasBalance = false
        /// What the expenses came to, by member and by category, once asked for.
        var totals: [String] = []
        /// Why its expenses and balances are not shown: they are the server's, which cannot be
        /// reached (the group itself is on the replica).
        var ledgerUnread: String? = nil
    }

    var shown: Shown?
    /// The groups to choose from, when launched without one.
    var pickable: [Option] = []
    var tones: [TonedPhrase] = []
    var phase = Phase.idle
    var notice: String?
}

/// Turns a group, its ledger and its members' names into the screen's state.
struct GroupDetailViewModel: ViewModel {
    /// An expense or a payment of the group's list.
    enum Line: Sendable {
        case expense(Expense)
        case payment(Settlement)
    }

    static var examples: [GroupDetailViewState] {
        let me = UserID(rawValue: "me"), other = UserID(rawValue: "other")
        let group = Group(
            id: GroupID(rawValue: "g"), name: "Some group", kind: .trip, currency: .eur, simplifyDebts: true, members: [me, other],
            archived: false, createdBy: me
        )
        var choosing = GroupDetailViewModel(user: me)
        choosing.choosing([group])
        var none = GroupDetailViewModel(user: me)
        none.choosing([])
        var settled = GroupDetailViewModel(user: me)
        settled.loaded(group, debts: [], suggested: [], expenses: [], payments: [], names: [:])
        var owing = GroupDetailViewModel(user: me)
        let debt = Money(minorUnits: 1000, currency: .eur)
        let payments = (try? Day("2027-01-01")).map { day in
            Array(repeating: Settlement(id: ExpenseID(rawValue: "p"), from: other, to: me, amount: debt, day: day, group: group.id), count: shownAtFirst + 1)
        } ?? []
        owing.loaded(
            group, debts: [Debt(debtor: other, creditor: me, amount: debt)], suggested: [SuggestedPayment(from: other, to: me, amount: debt)],
            expenses: [], payments: payments, names: [other: FlowInventory.anyDetail]
        )
        var failed = GroupDetailViewModel(user: me)
        failed.failed(FlowInventory.anyDetail)
        var noticed = settled
        noticed.said(FlowInventory.anyDetail)
        var totalled = owing
        totalled.showTotals(GroupTotals(byMember: [.init(key: "me", amount: debt)], byCategory: [.init(key: "food", amount: debt)]))
        var nothingSpent = settled
        nothingSpent.showTotals(GroupTotals(byMember: [], byCategory: []))
        var unread = GroupDetailViewModel(user: me)
        unread.loaded(group, names: [other: FlowInventory.anyDetail], ledgerUnreadBecause: FlowInventory.anyDetail)
        return [choosing.state, none.state, settled.state, owing.state, failed.state, noticed.state, totalled.state, nothingSpent.state, unread.state]
    }

    /// Expenses and payments shown before the user asks for more.
    static let shownAtFirst = 20

    private let user: UserID
    private(set) var state = GroupDetailViewState()
    /// How many of the group's expenses and payments are shown.
    private(set) var limit = shownAtFirst
    private var groups: [ElementID: Group] = [:]
    /// The group shown, whole.
    private var current: Group?
    private var lines: [ElementID: Line] = [:]
    private var names: [UserID: String] = [:]

    init(user: UserID) {
        self.user = user
    }

    /// The group shown, if any.
    var shown: GroupDetailViewState.Shown? { state.shown }

    mutating func choosing(_ groups: [Group]) {
        let ids = ElementID.readable(for: groups.map(\.name))
        self.groups = Dictionary(uniqueKeysWithValues: zip(ids, groups))
        state.pickable = zip(ids, groups).map { .init(id: $0, label: $1.name) }
        state.phase = .idle
    }

    /// The group shown, by its id.
    func group(_ id: GroupID) -> Group? {
        current?.id == id ? current : nil
    }

    func pickable(_ id: ElementID) -> Group? {
        groups[id]
    }

    func line(_ id: ElementID) -> Line? {
        lines[id]
    }

    mutating func loaded(
        _ group: Group, debts: [Debt], suggested: [SuggestedPayment], expenses: [Expense], payments: [Settlement], names: [UserID: String],
        converted: ConvertedTotal? = nil
    ) {
        self.names = names
        current = group
        // Each member's net in each currency, summed from the pairs.
        var net: [UserID: [Currency: Int128]] = [:]
        for debt in debts {
            net[debt.creditor, default: [:]][debt.amount.currency, default: 0] += Int128(debt.amount.minorUnits)
            net[debt.debtor, default: [:]][debt.amount.currency, default: 0] -= Int128(debt.amount.minorUnits)
        }
        var tones: [TonedPhrase] = []
        let members = ([user] + group.members.filter { $0 != user }).filter { group.members.contains($0) }.map { member in
            let sums = (net[member] ?? [:]).filter { $0.value != 0 }.sorted { $0.key.code < $1.key.code }
            let standing = sums.map { currency, units in
                let phrase = BalanceWords.standing(Money(minorUnits: Int64(clamping: units), currency: currency), you: member == user)
                let toned = TonedPhrase(phrase, units > 0 ? .positive : .negative)
                if member == user, !tones.contains(toned) { tones.append(toned) }
                return phrase
            }
            return "\(member == user ? "You" : name(member)): \(standing.isEmpty ? "settled up" : standing.joined(separator: ", "))"
        }
        let suggestions = suggested.map { payment in
            if payment.from == user { return "You pay \(name(payment.to)) \(payment.amount)." }
            if payment.to == user { return "\(name(payment.from)) pays you \(payment.amount)." }
            return "\(name(payment.from)) pays \(name(payment.to)) \(payment.amount)."
        }
        // Expenses and payments together, newest first (by day; an expense before a payment of the same day).
        let merged: [(day: Day, line: Line)] = (expenses.map { ($0.day, Line.expense($0)) } + payments.map { ($0.day, Line.payment($0)) })
            .enumerated().sorted { ($0.element.day, -$0.offset) > ($1.element.day, -$1.offset) }.map(\.element)
        let visible = merged.prefix(limit)
        let labels = visible.map { entry in
            switch entry.line {
            case .expense(let expense): "\(expense.day) \(expense.summary), paid by \(expense.payers.map { name($0.user) }.listedInWords)"
            case .payment(let payment): "\(payment.day) \(sentence(payment))"
            }
        }
        let ids = ElementID.readable(for: labels)
        lines = Dictionary(uniqueKeysWithValues: zip(ids, visible.map(\.line)))
        let header = [
            group.kind.rawValue.capitalized, group.currency.code, group.simplifyDebts ? "simplifies debts" : "pays each debt as it is",
            group.members.count == 1 ? "1 member" : "\(group.members.count) members",
        ] + (group.archived ? ["archived"] : [])
        state.shown = GroupDetailViewState.Shown(
            id: group.id, name: group.name, header: header.joined(separator: " · "), members: members, inAll: converted?.sentence(), suggestions: suggestions,
            lines: zip(ids, labels).map { .init(id: $0, label: $1) }, hasMore: merged.count > limit, archived: group.archived,
            userHasBalance: debts.contains { $0.debtor == user || $0.creditor == user }
        )
        state.tones = tones
        state.phase = .idle
    }

    /// The group without its expenses and balances, which the server keeps and could not be
    /// asked for (`reason`): its settings and members, as the replica has them.
    mutating func loaded(_ group: Group, names: [UserID: String], ledgerUnreadBecause reason: String) {
        loaded(group, debts: [], suggested: [], expenses: [], payments: [], names: names)
        guard var shown = state.shown else { return }
        shown.members = ([user] + group.members.filter { $0 != user }).filter { group.members.contains($0) }.map { $0 == user ? "You" : name($0) }
        shown.ledgerUnread = "Its expenses and balances come from the server, which cannot be reached now: they show once it can."
        state.shown = shown
        state.tones = []
        state.phase = .failed(reason)
    }

    /// What the group's expenses came to: `Spent by member: you 45.00 EUR, Bob Stone 30.00 EUR.`
    /// and `By category: food 60.00 EUR, general 15.00 EUR.`
    mutating func showTotals(_ totals: GroupTotals) {
        guard var shown = state.shown else { return }
        let members = totals.byMember.map { "\(name(UserID(rawValue: $0.key))) \($0.amount)" }
        let categories = totals.byCategory.map { "\($0.key) \($0.amount)" }
        shown.totals = members.isEmpty
            ? ["Nothing spent in this group yet."]
            : ["Spent by member: \(members.joined(separator: ", ")).", "By category: \(categories.joined(separator: ", "))."]
        state.shown = shown
    }

    /// A payment in words, from the user's side: `Bob Stone paid you 10.00 EUR.`
    func sentence(_ payment: Settlement) -> String {
        payment.sentence(for: user) { name($0) } + "."
    }

    /// An expense the user is not in, in words: the group shows it to every member, but only
    /// the people in it open it.
    func sentence(_ expense: Expense) -> String {
        let people = expense.split.parts.map { name($0.user) }.listedInWords
        return "\(expense.summary) on \(expense.day), paid by \(expense.payers.map { name($0.user) }.listedInWords) and shared by \(people). You are not in it."
    }

    /// Whether the user pays or shares `expense`.
    func isIn(_ expense: Expense) -> Bool {
        expense.people.contains(user)
    }

    /// Shows more of the group's expenses and payments (read again by the flow).
    mutating func more() {
        limit += Self.shownAtFirst
    }

    mutating func said(_ notice: String?) {
        state.notice = notice
    }

    mutating func failed(_ message: String) {
        state.phase = .failed(message)
    }

    private func name(_ person: UserID) -> String {
        person == user ? "you" : names[person] ?? "someone's contact"
    }
}
