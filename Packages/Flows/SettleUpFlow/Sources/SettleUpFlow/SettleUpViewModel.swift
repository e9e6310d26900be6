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
        /// The balance in the chosen currency, to move into another at a rate.
        case convert
        /// The payment is more than the balance: asked before it is recorded.
        case more(String)
    }

    /// A rate as the rate table gives it for a day: 1 `base` = `rate` of the other currency.
    struct Reference: Equatable, Sendable {
        var base: Currency
        var rate: String
        /// `ECB 2026-11-24`.
        var source: String
    }

    /// Moving the balance in the chosen currency into another.
    struct Converting: Equatable, Sendable {
        /// The currencies it may go into: the person's other balances', then the usual one.
        var targets: [Currency]
        var into: Currency
        /// Each target's reference rate for the day, where the table has one.
        var references: [Currency: Reference]
        /// The rate as typed, 1 `base` = `rate` of the other currency.
        var base: Currency
        var rate: String
        var rateError: String?

        /// The rate as typed, for a balance in `currency`; nil when it is not a number above zero.
        func typedRate(converting currency: Currency) -> ExchangeRate? {
            let typed = rate.trimmingWhitespace().replacingOccurrences(of: ",", with: ".")
            return PublishedRate(typed).flatMap { ExchangeRate(base: base, quote: base == currency ? into : currency, rate: $0) }
        }

        /// The reference rate for `into`, when the rate typed is still it.
        var reference: Reference? {
            references[into].flatMap { $0.base == base && $0.rate == rate ? $0 : nil }
        }
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
    /// The user's usual currency, or within a group the group's: a balance can also be moved into it.
    var usual: Currency?
    var converting: Converting?
    /// What the screen says of a conversion just recorded.
    var notice: String?

    var chosen: Person? { people.first { $0.id == person } }
    /// What settles the chosen person in the chosen currency: its sign says who pays.
    var settling: Money? { currency.flatMap { chosen?.settling(in: $0) } }
    /// The currencies the chosen balance can be moved into: none when there is no balance in
    /// the chosen currency (a suggested payment alone).
    var targets: [Currency] {
        guard let currency, let chosen, chosen.balances.contains(where: { $0.currency == currency }) else { return [] }
        var targets: [Currency] = []
        for other in chosen.balances.map(\.currency) + (usual.map { [$0] } ?? []) where other != currency && !targets.contains(other) {
            targets.append(other)
        }
        return targets
    }

    /// The balance being moved into another currency, in words: `You owe Bob Stone 22500 JPY.`
    var convertingSentence: String? {
        guard let currency, let chosen, let balance = chosen.balances.first(where: { $0.currency == currency }) else { return nil }
        return BalanceWords.sentence(balance, name: chosen.name)
    }

    /// What a typed rate says when the user does not take the table's.
    static let agreed = "agreed"

    /// What moving the balance comes to at the rate typed, in words: the balance in the other
    /// currency, and where the two of them stand in it afterwards. Empty while the rate is not one.
    var conversionPreview: [String] {
        guard let converting, let currency, let chosen, let balance = chosen.balances.first(where: { $0.currency == currency }) else { return [] }
        guard let rate = converting.typedRate(converting: currency), let converted = try? Conversion.converting(balance, at: rate) else { return [] }
        let whose = balance.isNegative ? "you owe \(chosen.name)" : "\(chosen.name) owes you"
        let already = chosen.balances.first { $0.currency == converting.into }?.minorUnits ?? 0
        let after = Money(minorUnits: already + (balance.isNegative ? -converted.minorUnits : converted.minorUnits), currency: converting.into)
        return [
            "At \(rate), the \(BalanceWords.owed(balance)) \(whose) is \(converted).",
            "Afterwards, in \(converting.into.code): \(BalanceWords.sentence(after, name: chosen.name))",
        ]
    }

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
        // Whom with, among two.
        var other = someone
        other.id = "other"
        other.user = UserID(rawValue: "other")
        states.append(SettleUpViewModel(people: [someone, other], today: today).state)
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
        // Moving the euros into dollars or yen: at the table's rate, at one typed, at none, and
        // then recorded.
        var converting = SettleUpViewModel(people: [someone], today: today, usual: .jpy)
        converting.startConverting(references: [.usd: .init(base: .eur, rate: "1.1172", source: "ECB 2026-11-20")])
        states.append(converting.state)
        var typing = converting
        typing.typed(SettleUpView.rate, "1,2", isFinal: true)
        states.append(typing.state)
        typing.typed(SettleUpView.rate, "0", isFinal: true)
        _ = typing.checkConversion()
        states.append(typing.state)
        var noRate = converting
        noRate.choseInto("JPY")
        states.append(noRate.state)
        if let published = PublishedRate("1.1172"), let rate = ExchangeRate(base: .eur, quote: .usd, rate: published) {
            // The user owed 12.00 EUR, 13.41 USD at the rate; Someone owed them 3.00 USD.
            let conversion = Settlement(
                id: ExpenseID(rawValue: "converted"), from: UserID(rawValue: "you"), to: someone.user, amount: Money(minorUnits: 1200, currency: .eur), day: today,
                conversion: Conversion(amount: Money(minorUnits: 1341, currency: .usd), rate: rate, source: "ECB 2026-11-20")
            )
            var after = someone
            after.balances = [Money(minorUnits: -1041, currency: .usd)]
            _ = converting.converted(conversion, people: [after])
            states.append(converting.state)
        }
        return states
    }

    private(set) var state = SettleUpViewState()
    private let today: Day

    /// Settling up within the group named `name`.
    mutating func within(_ name: String) {
        state.title = "Settle up in \(name)"
    }

    init(people: [SettleUpViewState.Person], today: Day, usual: Currency? = nil) {
        self.today = today
        state.people = people
        state.usual = usual
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
        case SettleUpView.rate:
            state.converting?.rate = text
            let problem = rateProblem
            if isFinal || problem == nil { state.converting?.rateError = problem }
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

    // MARK: Settling in another currency

    /// The balance in the chosen currency, to move into another: the first it can go into, at
    /// its reference rate for the day (`references`, by currency) where there is one.
    mutating func startConverting(references: [Currency: SettleUpViewState.Reference]) {
        guard let first = state.targets.first else { return }
        state.converting = SettleUpViewState.Converting(targets: state.targets, into: first, references: references, base: first, rate: "")
        choseInto(first.code)
        state.step = .convert
        state.phase = .idle
        state.notice = nil
    }

    /// The currency to move the balance into: the rate starts at its reference rate.
    mutating func choseInto(_ code: String) {
        guard var converting = state.converting, let into = converting.targets.first(where: { $0.code == code }) else { return }
        let reference = converting.references[into]
        converting.into = into
        converting.base = reference?.base ?? into
        converting.rate = reference?.rate ?? ""
        converting.rateError = nil
        state.converting = converting
    }

    /// The rate as typed, or why it is not one.
    private var rate: Result<ExchangeRate, Refusal> {
        guard let converting = state.converting, let currency = state.currency else { return .failure(Refusal("Choose the currency first.")) }
        guard let rate = converting.typedRate(converting: currency) else {
            let other = converting.base == currency ? converting.into : currency
            return .failure(Refusal("Enter how much 1 \(converting.base.code) is in \(other.code): a number above zero, like 162.51."))
        }
        return .success(rate)
    }

    private var rateProblem: String? {
        switch rate {
        case .failure(let refusal): return refusal.message
        case .success(let rate):
            if case .failure(let error) = converting(at: rate) { return error.message }
            return nil
        }
    }

    /// The chosen balance at `rate`, in the other currency, or why it cannot be moved.
    private func converting(at rate: ExchangeRate) -> Result<(balance: Money, converted: Money), ExpensesError> {
        guard let currency = state.currency, let balance = state.chosen?.balances.first(where: { $0.currency == currency }) else {
            return .failure(.invalidSettlement("There is no balance in that currency to convert."))
        }
        do throws(ExpensesError) {
            return .success((balance, try Conversion.converting(balance, at: rate)))
        } catch {
            return .failure(error)
        }
    }

    /// The conversion to record, or nil with why not shown on the rate or the day.
    mutating func checkConversion() -> (balance: Money, rate: ExchangeRate, source: String, day: Day)? {
        let problem = rateProblem
        state.converting?.rateError = problem
        state.dayError = dayProblem
        guard problem == nil, case .success(let rate) = rate, case .success(let moved) = converting(at: rate),
              let day = DayEntry(state.day, today: today).day
        else { return nil }
        return (moved.balance, rate, state.converting?.reference?.source ?? SettleUpViewState.agreed, day)
    }

    /// The conversion is recorded; `people` are the balances as they are now. The form goes on
    /// in the currency it went into, to pay it; false when nothing is left with that person.
    mutating func converted(_ conversion: Settlement, people: [SettleUpViewState.Person]) -> Bool {
        guard let chosen = state.chosen, let moved = conversion.conversion else { return false }
        let owed = conversion.to == chosen.user ? "you owed \(chosen.name)" : "\(chosen.name) owed you"
        state.notice = "Converted at \(moved.rate) (\(moved.source)): the \(conversion.amount) \(owed) is now \(moved.amount)."
        state.people = people
        state.converting = nil
        state.phase = .idle
        guard let person = people.first(where: { $0.user == chosen.user }) else { return false }
        state.person = person.id
        state.step = .form
        choseCurrency(person.currencies.contains(moved.amount.currency) ? moved.amount.currency.code : person.currencies.first?.code ?? "")
        return true
    }

    mutating func back() -> Bool {
        switch state.step {
        case .convert:
            state.step = .form
            state.converting = nil
            return true
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
        if state.step != .convert { state.step = state.person == nil ? .pick : .form }
        state.phase = .failed(error.message)
    }
}

extension Money {
    /// The amount without its sign or currency: `12.00`.
    var magnitudeText: String { BalanceWords.owed(self).amountText }
}
