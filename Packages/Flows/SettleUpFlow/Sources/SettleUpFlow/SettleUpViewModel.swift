import Expenses
import FlowKit
import FormFields
import Friends
import Primitives

/// What settling up shows: whom to settle with, then how much in which currency and when, and
/// a confirmation when the payment is more than the balance.
struct SettleUpViewState: Equatable, Sendable {
    /// `Settle up`, or within a group `Settle up in Kyoto trip`.
    var title = "Settle up"
    enum Step: Equatable, Sendable {
        case pick
        case form
        /// The payment is more than the balance: asked before it is recorded.
        case more(String)
    }

    /// Someone the user has an open balance with, or a suggested payment with.
    struct Person: Equatable, Sendable {
        var id: ElementID
        var user: UserID
        var name: String
        /// Positive: they owe the user.
        var balances: [Money]
        /// The suggested payments between them and the user: positive when they pay the user.
        var suggested: [Money] = []
        /// Settling the balances overall: each group's part of them, in words.
        var groupParts: [String] = []

        /// The currencies to settle in: the balances' then the suggestions'.
        var currencies: [Currency] {
            var seen: [Currency] = []
            for currency in (balances + suggested).map(\.currency) where !seen.contains(currency) { seen.append(currency) }
            return seen
        }

        /// What the payment starts at in `currency`: the whole balance, or else (with nobody
        /// owing anybody directly) the suggested payment. Its sign says who pays.
        func settling(in currency: Currency) -> Money? {
            balances.first { $0.currency == currency } ?? suggested.first { $0.currency == currency }
        }

        /// The most the payment can be without a question: the larger of the balance and the
        /// suggested payment, when that goes the same way.
        func most(in currency: Currency) -> UInt64 {
            guard let settling = settling(in: currency) else { return 0 }
            let suggestion = suggested.first { $0.currency == currency }
            let same = suggestion.map { $0.isNegative == settling.isNegative } ?? false
            return max(settling.minorUnits.magnitude, same ? (suggestion?.minorUnits.magnitude ?? 0) : 0)
        }

        /// `you owe 12.00 EUR; owes you 3.00 USD`, beside their name (a suggestion alone:
        /// `suggested: you pay 3.00 EUR`).
        var phrases: String {
            let owing = balances.map(BalanceWords.phrase)
            let paying = suggested.filter { money in !balances.contains { $0.currency == money.currency } }.map(suggestion)
            return (owing + paying).joined(separator: "; ")
        }

        /// `You owe Bob Stone 12.00 EUR.`, one per currency, then each suggested payment that is
        /// not the balance itself.
        var sentences: [String] {
            let owing = balances.map { BalanceWords.sentence($0, name: name) }
            let differing = suggested.filter { !balances.contains($0) }.map { money in
                "Suggested payment: \(money.isNegative ? "you pay \(name)" : "\(name) pays you") \(BalanceWords.owed(money)) (with the other suggested payments, it settles everyone)."
            }
            return owing + differing
        }

        private func suggestion(_ money: Money) -> String {
            "suggested: \(money.isNegative ? "you pay" : "pays you") \(BalanceWords.owed(money))"
        }
    }

    var step = Step.pick
    var people: [Person] = []
    /// Whether what the screen lists was read: after a failed read it says nothing of it (not
    /// "settled up" or "none yet"), only why.
    var isLoaded = true
    var person: ElementID?
    var currency: Currency?
    var amount = ""
    var amountError: String?
    var day = "today"
    var dayRead: String?
    var dayError: String?
    var phase = Phase.idle

    var chosen: Person? { people.first { $0.id == person } }
    /// What settles the chosen person in the chosen currency: its sign says who pays.
    var settling: Money? { currency.flatMap { chosen?.settling(in: $0) } }
    /// What the amount starts at, in words for its hint.
    var amountHint: String {
        guard let currency, let chosen, !chosen.balances.contains(where: { $0.currency == currency }) else { return "the whole balance, or less" }
        return "the suggested payment, or less"
    }
}

/// Turns balances and answers into the screen's state, and checks the answers.
struct SettleUpViewModel: SubmittingViewModel {
    static var examples: [SettleUpViewState] {
        guard let today = try? Day("2026-11-22") else { return [] }
        let someone = SettleUpViewState.Person(id: "someone", user: UserID(rawValue: "someone"), name: "Someone", balances: [
            Money(minorUnits: -1200, currency: .eur), Money(minorUnits: 300, currency: .usd),
        ])
        var picking = SettleUpViewModel(people: [someone], today: today)
        var states = [picking.state, SettleUpViewModel(people: [], today: today).state]
        picking.chose("someone")
        states.append(picking.state)
        var broken = picking
        broken.typed(SettleUpView.amount, "0", isFinal: true)
        broken.typed(SettleUpView.day, "someday", isFinal: true)
        states.append(broken.state)
        var more = picking
        more.typed(SettleUpView.amount, "20", isFinal: true)
        _ = more.check()
        states.append(more.state)
        var receiving = picking
        receiving.choseCurrency("USD")
        states.append(receiving.state)
        var failing = picking
        failing.failed(.storeUnavailable(FlowInventory.anyDetail))
        states.append(failing.state)
        // A suggested payment beyond the balance, and one with nobody owing anybody directly
        // (it starts there, and the hint says so).
        let through = SettleUpViewState.Person(
            id: "through", user: UserID(rawValue: "through"), name: "Someone",
            balances: [Money(minorUnits: -300, currency: .eur)], suggested: [Money(minorUnits: -500, currency: .eur), Money(minorUnits: 700, currency: .usd)]
        )
        var suggesting = SettleUpViewModel(people: [through], today: today)
        states.append(suggesting.state)
        suggesting.choseCurrency("USD")
        states.append(suggesting.state)
        return states
    }

    private(set) var state = SettleUpViewState()
    private let today: Day

    /// Settling up within the group named `name`.
    mutating func within(_ name: String) {
        state.title = "Settle up in \(name)"
    }

    init(people: [SettleUpViewState.Person], today: Day) {
        self.today = today
        state.people = people
        state.dayRead = today.withWeekday
        if people.count == 1, let only = people.first { chose(only.id) }
    }


    /// The person to settle with: the form starts at the whole balance (or else the suggested
    /// payment) in their first currency.
    mutating func chose(_ id: ElementID) {
        guard let person = state.people.first(where: { $0.id == id }) else { return }
        state.person = id
        state.step = .form
        state.phase = .idle
        choseCurrency(person.currencies.first?.code ?? "")
    }

    mutating func choseCurrency(_ code: String) {
        guard let person = state.chosen, let currency = person.currencies.first(where: { $0.code == code }),
              let settling = person.settling(in: currency)
        else { return }
        state.currency = currency
        state.amount = settling.magnitudeText
        state.amountError = nil
    }

    mutating func typed(_ id: ElementID, _ text: String, isFinal: Bool) {
        switch id {
        case SettleUpView.amount:
            state.amount = text
            let problem = amountProblem
            if isFinal || problem == nil { state.amountError = problem }
        case SettleUpView.day:
            state.day = text
            state.dayRead = DayEntry(text, today: today).read
            let problem = dayProblem
            if isFinal || problem == nil { state.dayError = problem }
        default:
            return
        }
        state.phase = .idle
    }

    private var amount: Result<Money, Refusal> {
        guard let currency = state.currency else { return .failure(Refusal("Choose the currency first.")) }
        do throws(Money.Problem) {
            let money = try Money(parsing: state.amount, currency: currency)
            if let problem = Settlement.problem(amount: money) { return .failure(Refusal(problem)) }
            return .success(money)
        } catch {
            return .failure(Refusal(error.message))
        }
    }

    private var amountProblem: String? {
        if case .failure(let refusal) = amount { return refusal.message }
        return nil
    }

    private var dayProblem: String? {
        DayEntry(state.day, today: today).problem
    }

    /// The payment to record, or nil with the messages shown (or the question when it is more
    /// than the balance and not yet confirmed).
    mutating func check(confirmed: Bool = false) -> (from: UserID?, to: UserID?, amount: Money, day: Day)? {
        state.amountError = amountProblem
        state.dayError = dayProblem
        guard state.amountError == nil, state.dayError == nil, case .success(let money) = amount,
              let day = DayEntry(state.day, today: today).day, let person = state.chosen, let settling = state.settling
        else { return nil }
        let most = person.most(in: money.currency)
        if UInt64(money.minorUnits) > most, !confirmed {
            let left = Money(minorUnits: Int64(UInt64(money.minorUnits) - most), currency: money.currency)
            let limit = Money(minorUnits: Int64(most), currency: money.currency).amountText
            state.step = .more(settling.isNegative
                ? "That is more than you owe \(person.name) (\(limit) \(money.currency.code)): afterwards \(person.name) would owe you \(left)."
                : "That is more than \(person.name) owes you (\(limit) \(money.currency.code)): afterwards you would owe \(person.name) \(left).")
            return nil
        }
        // The one who owes pays: the user when what settles them is negative.
        return settling.isNegative ? (nil, person.user, money, day) : (person.user, nil, money, day)
    }

    mutating func back() -> Bool {
        switch state.step {
        case .more:
            state.step = .form
            return true
        case .form where state.people.count > 1:
            state.step = .pick
            return true
        default:
            return false
        }
    }

    mutating func busy() {
        state.phase = .loading
    }

    /// The balances could not be read: nobody to offer, and the screen says why.
    mutating func failedToLoad(_ error: ExpensesError) {
        state.isLoaded = false
        failed(error)
    }

    mutating func failed(_ error: ExpensesError) {
        state.step = state.person == nil ? .pick : .form
        state.phase = .failed(error.message)
    }
}

extension Money {
    /// The amount without its sign or currency: `12.00`.
    var magnitudeText: String { BalanceWords.owed(self).amountText }
}
