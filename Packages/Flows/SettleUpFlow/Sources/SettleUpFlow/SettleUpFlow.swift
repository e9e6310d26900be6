import Expenses
import FlowKit
import Friends
import Groups
import Preferences
import Primitives
import Rates

/// Settles up with someone: whom (everyone the user has an open balance or a suggested payment
/// with, unless started with a friend), the currency, and the amount, which starts at the whole
/// balance (or, with no balance between them, the suggested payment) and can be less (a partial
/// payment), or up to the suggested payment, or more after a confirmation. The payment is recorded by whoever
/// owes paying: the user, or the other person paying the user.
public actor SettleUpFlow: InventoriedFlow {
    /// How settling up ended.
    public enum FlowResult: FlowOutcome {
        /// The payment is recorded; the other person's name, for what is said of it.
        case settled(Settlement, with: String)
        /// A balance was moved into another currency, and the user left without paying it.
        case converted(Settlement, with: String)
        /// The user left; nothing was written.
        case cancelled

        /// What the screen the user comes back to says of it, seen by `user` (who recorded it):
        /// "Recorded: you paid Bob Stone 20.00 EUR." Nil when nothing was recorded.
        public func notice(for user: UserID) -> String? {
            switch self {
            case .settled(let settlement, let name):
                settlement.from == user ? "Recorded: you paid \(name) \(settlement.amount)." : "Recorded: \(name) paid you \(settlement.amount)."
            case .converted(let settlement, let name):
                "Converted: \(settlement.from == user ? "what you owed \(name)" : "what \(name) owed you"), \(settlement.amount), is now \(settlement.conversion?.amount.description ?? "another currency")."
            case .cancelled: nil
            }
        }

        public func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws {
            let (settlement, name): (Settlement, String)
            switch self {
            case .settled(let payment, let with), .converted(let payment, let with): (settlement, name) = (payment, with)
            case .cancelled: return
            }
            try container.encode(settlement.id.rawValue, forKey: "id")
            try container.encode(settlement.from.rawValue, forKey: "from")
            try container.encode(settlement.to.rawValue, forKey: "to")
            try container.encode(settlement.amount.amountText, forKey: "amount")
            try container.encode(settlement.amount.currency.code, forKey: "currency")
            try container.encode(settlement.day.description, forKey: "day")
            try container.encode(name, forKey: "with")
            if let conversion = settlement.conversion {
                try container.encode(conversion.amount.amountText, forKey: "convertedAmount")
                try container.encode(conversion.amount.currency.code, forKey: "convertedCurrency")
                try container.encode(conversion.rate.description, forKey: "rate")
                try container.encode(conversion.source, forKey: "source")
            }
        }
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var friends: any FriendsService { get }
        var expenses: any ExpensesService { get }
        /// The day it is now in the user's time zone: where the payment's day starts.
        var today: Day { get }
        /// The groups' names, for the parts of an overall balance.
        var groups: any GroupsService { get }
        /// The reference rates a balance is moved into another currency at, unless the user types one.
        var rates: any RatesService { get }
        /// The user's usual currency: a balance outside any group can be moved into it.
        var preferences: any PreferencesService { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory {
        FlowInventory(drawing: SettleUpView(), for: SettleUpViewModel.examples)
    }

    private let user: UserID
    private let friend: Friend?
    /// The group it settles within, and its name; nil for the balances overall.
    private let group: (id: GroupID, name: String)?
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<SettleUpAction>

    /// Settling up for `user`, with `friend` (or whom they choose first): the balances overall,
    /// or within `group` (its id and name) only, with its members.
    public init(user: UserID, with friend: Friend? = nil, in group: (id: GroupID, name: String)? = nil, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.friend = friend
        self.group = group
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model: SettleUpViewModel
        // What a balance can also be moved into: the group's currency within one, else the user's usual one.
        let usual = if let group {
            try? await dependencies.groups.group(group.id, for: user)?.currency
        } else {
            try? await dependencies.preferences.preferences(of: user).defaultCurrency
        }
        do throws(ExpensesError) {
            model = SettleUpViewModel(people: try await people(), today: dependencies.today, usual: usual)
        } catch {
            model = SettleUpViewModel(people: [], today: dependencies.today, usual: usual)
            model.failedToLoad(error)
        }
        // The last balance moved into another currency, for what leaving says.
        var converted: (Settlement, with: String)?
        let left = { converted.map { FlowResult.converted($0.0, with: $0.with) } ?? .cancelled }
        if let group { model.within(group.name) }
        return await presenter.run(model.state) { action, view in
            switch action {
            case .personChosen(let id):
                model.chose(id)
            case .currencyChosen(let id):
                model.choseCurrency(id.rawValue)
            case .typed(let id, let text, let isFinal):
                model.typed(id, text, isFinal: isFinal)
            case .tapped(.next):
                if let id = model.state.person { model.chose(id) }
            case .record:
                let confirmed = if case .more = model.state.step { true } else { false }
                guard let payment = model.check(confirmed: confirmed), let other = model.state.chosen else { break }
                let settlement = await view.submit(&model) { _ throws(ExpensesError) in
                    try await dependencies.expenses.settle(
                        from: payment.from ?? user, to: payment.to ?? user, amount: payment.amount, day: payment.day, in: group?.id, by: user
                    )
                }
                if let settlement { return .settled(settlement, with: other.name) }
            case .tapped(.convert):
                guard let currency = model.state.currency else { break }
                model.startConverting(references: await references(from: currency, into: model.state.targets))
            case .intoChosen(let id):
                model.choseInto(id.rawValue)
            case .tapped(.convertNow):
                guard let conversion = model.checkConversion(), let other = model.state.chosen else { break }
                let recorded = await view.submit(&model) { _ throws(ExpensesError) in
                    try await dependencies.expenses.convert(
                        conversion.balance, with: other.user, at: conversion.rate, source: conversion.source, day: conversion.day, in: group?.id, by: user
                    )
                }
                guard let recorded else { break }
                converted = (recorded, other.name)
                if !model.converted(recorded, people: (try? await people()) ?? []) { return left() }
            case .back:
                if !model.back() { return left() }
            case .cancel:
                return left()
            }
            return nil
        }
    }

    /// Each target currency's reference rate from `currency` today, stated the way round that
    /// is 1 or more (`1 EUR = 162.51 JPY`, whichever is converted); none where the table has none.
    private func references(from currency: Currency, into targets: [Currency]) async -> [Currency: SettleUpViewState.Reference] {
        var references: [Currency: SettleUpViewState.Reference] = [:]
        for target in targets {
            guard let into = try? await dependencies.rates.quote(from: target, to: currency, on: dependencies.today),
                  let back = try? await dependencies.rates.quote(from: currency, to: target, on: dependencies.today)
            else { continue }
            let quote = into.numerator >= into.denominator ? into : back
            references[target] = SettleUpViewState.Reference(base: quote.from, rate: quote.rateText, source: "\(quote.source) \(quote.day)")
        }
        return references
    }

    /// Settling overall: each person's balances within groups, in words, and that the payment
    /// is recorded outside them (a group's part is settled from the group). Nothing when the
    /// groups cannot be read: the overall balance stands alone.
    private func groupParts(names: [UserID: String]) async -> [UserID: [String]] {
        guard let inGroups = try? await dependencies.expenses.groupBalances(of: user), !inGroups.isEmpty else { return [:] }
        let groupNames = await dependencies.groups.names(of: user)
        var parts: [UserID: [String]] = [:]
        for balance in inGroups where !balance.amount.isZero {
            let name = names[balance.other] ?? "Someone"
            parts[balance.other, default: []].append("Of it, in \(groupNames[balance.group] ?? "a group"): \(BalanceWords.sentence(balance.amount, name: name))")
        }
        for (person, lines) in parts {
            parts[person] = lines.sorted() + ["A payment here is recorded outside any group; to settle a group's part, settle up from the group."]
        }
        return parts
    }

    /// Everyone with an open balance or a suggested payment with the user, by the names the user
    /// knows them by (friends, accounts), anyone else as someone. With a friend given, only them.
    private func people() async throws(ExpensesError) -> [SettleUpViewState.Person] {
        // Within a group: the user's balances there, and the group's own suggestions.
        let balances = if let group {
            try await dependencies.expenses.groupBalances(of: user).filter { $0.group == group.id }.map { Balance(other: $0.other, amount: $0.amount) }
        } else {
            try await dependencies.expenses.balances(of: user)
        }
        var suggested: [UserID: [Money]] = [:]
        for currency in Set(balances.map(\.amount.currency)).sorted(by: { $0.code < $1.code }) {
            let payments = if let group {
                try await dependencies.expenses.suggestedPayments(in: group.id, currency: currency, for: user)
            } else {
                try await dependencies.expenses.suggestedPayments(for: user, in: currency)
            }
            for payment in payments {
                if payment.to == user { suggested[payment.from, default: []].append(payment.amount) }
                if payment.from == user, let owed = try? payment.amount.negated() { suggested[payment.to, default: []].append(owed) }
            }
        }
        var order: [UserID] = []
        var byPerson: [UserID: [Money]] = [:]
        for balance in balances {
            if byPerson[balance.other] == nil { order.append(balance.other) }
            byPerson[balance.other, default: []].append(balance.amount)
        }
        for other in suggested.keys.sorted(by: { $0.rawValue < $1.rawValue }) where byPerson[other] == nil {
            order.append(other)
        }
        if let friend { order = order.filter { $0 == friend.id } }
        let names = ((try? await dependencies.friends.names(of: Set(order), for: user)) ?? [:]).mapValues(\.value)
        let parts = group == nil ? await groupParts(names: names) : [:]
        order.sort { (names[$0] ?? "~", $0.rawValue) < (names[$1] ?? "~", $1.rawValue) }
        let labels = order.map { names[$0] ?? "Someone" }
        return zip(ElementID.readable(for: labels), order).map { id, other in
            SettleUpViewState.Person(
                id: id, user: other, name: names[other] ?? "Someone", balances: byPerson[other] ?? [], suggested: suggested[other] ?? [],
                groupParts: parts[other] ?? []
            )
        }
    }
}
