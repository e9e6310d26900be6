import Expenses
import FlowKit
import Friends
import Primitives

/// What settling up shows: whom to settle with, then how much in which currency and when, and
/// a confirmation when the payment is more than the balance.
struct SettleUpViewState: Equatable, Sendable {
    enum Step: Equatable, Sendable {
        case pick
        case form
        /// The payment is more than the balance: asked before it is recorded.
        case more(String)
    }

    /// Someone the user has an open balance with.
    struct Person: Equatable, Sendable {
        var id: ElementID
        var user: UserID
        var name: String
        /// Positive: they owe the user.
        var balances: [Money]

        /// `you owe 12.00 EUR; owes you 3.00 USD`, beside their name.
        var phrases: String { balances.map(BalanceWords.phrase).joined(separator: "; ") }
        /// `You owe Bob Stone 12.00 EUR.`, one per currency.
        var sentences: [String] { balances.map { BalanceWords.sentence($0, name: name) } }
    }

    var step = Step.pick
    var people: [Person] = []
    var person: ElementID?
    var currency: Currency?
    var amount = ""
    var amountError: String?
    var day = "today"
    var dayRead: String?
    var dayError: String?
    var phase = Phase.idle

    var chosen: Person? { people.first { $0.id == person } }
    var balance: Money? { chosen?.balances.first { $0.currency == currency } }
}

/// Turns balances and answers into the screen's state, and checks the answers.
struct SettleUpViewModel: ViewModel {
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
        return states
    }

    private(set) var state = SettleUpViewState()
    private let today: Day

    init(people: [SettleUpViewState.Person], today: Day) {
        self.today = today
        state.people = people
        state.dayRead = today.withWeekday
        if people.count == 1, let only = people.first { chose(only.id) }
    }


    /// The person to settle with: the form starts at the whole balance in their first currency.
    mutating func chose(_ id: ElementID) {
        guard let person = state.people.first(where: { $0.id == id }) else { return }
        state.person = id
        state.step = .form
        state.phase = .idle
        choseCurrency(person.balances.first?.currency.code ?? "")
    }

    mutating func choseCurrency(_ code: String) {
        guard let balance = state.chosen?.balances.first(where: { $0.currency.code == code }) else { return }
        state.currency = balance.currency
        state.amount = balance.magnitudeText
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
            state.dayRead = (try? Day(typed: text, today: today)).map(\.withWeekday)
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
            guard money.isPositive else { return .failure(Refusal("The amount must be more than zero.")) }
            guard money.minorUnits <= LedgerLimits.maximumAmount else { return .failure(Refusal("A payment is at most \(LedgerLimits.largest(currency)).")) }
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
        Validation.message { () throws(Day.Problem) in _ = try Day(typed: state.day, today: today) }
    }

    /// The payment to record, or nil with the messages shown (or the question when it is more
    /// than the balance and not yet confirmed).
    mutating func check(confirmed: Bool = false) -> (from: UserID?, to: UserID?, amount: Money, day: Day)? {
        state.amountError = amountProblem
        state.dayError = dayProblem
        guard state.amountError == nil, state.dayError == nil, case .success(let money) = amount,
              let day = try? Day(typed: state.day, today: today), let person = state.chosen, let balance = state.balance
        else { return nil }
        let owed = balance.minorUnits.magnitude
        if UInt64(money.minorUnits) > owed, !confirmed {
            let left = Money(minorUnits: Int64(UInt64(money.minorUnits) - owed), currency: money.currency)
            state.step = .more(balance.isNegative
                ? "That is more than you owe \(person.name) (\(balance.magnitudeText) \(money.currency.code)): afterwards \(person.name) would owe you \(left)."
                : "That is more than \(person.name) owes you (\(balance.magnitudeText) \(money.currency.code)): afterwards you would owe \(person.name) \(left).")
            return nil
        }
        // The one who owes pays: the user when the balance is negative.
        return balance.isNegative ? (nil, person.user, money, day) : (person.user, nil, money, day)
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

    mutating func failed(_ error: ExpensesError) {
        state.step = state.person == nil ? .pick : .form
        state.phase = .failed(error.message)
    }
}

/// Why an answer is not taken, in words for the user.
struct Refusal: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

extension Money {
    /// The amount without its sign or currency: `12.00`.
    var magnitudeText: String { BalanceWords.owed(self).amountText }
}
