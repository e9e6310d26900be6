import Expenses
import FlowKit
import Friends
import Groups
import Primitives

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
        /// The user left; nothing was written.
        case cancelled

        /// What the screen the user comes back to says of it, seen by `user` (who recorded it):
        /// "Recorded: you paid Bob Stone 20.00 EUR." Nil when nothing was recorded.
        public func notice(for user: UserID) -> String? {
            guard case .settled(let settlement, let name) = self else { return nil }
            return settlement.from == user ? "Recorded: you paid \(name) \(settlement.amount)." : "Recorded: \(name) paid you \(settlement.amount)."
        }

        public func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws {
            guard case .settled(let settlement, let name) = self else { return }
            try container.encode(settlement.id.rawValue, forKey: "id")
            try container.encode(settlement.from.rawValue, forKey: "from")
            try container.encode(settlement.to.rawValue, forKey: "to")
            try container.encode(settlement.amount.amountText, forKey: "amount")
            try container.encode(settlement.amount.currency.code, forKey: "currency")
            try container.encode(settlement.day.description, forKey: "day")
            try container.encode(name, forKey: "with")
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
        do throws(ExpensesError) {
            model = SettleUpViewModel(people: try await people(), today: dependencies.today)
        } catch {
            model = SettleUpViewModel(people: [], today: dependencies.today)
            model.failedToLoad(error)
        }
        if let group { model.within(group.name) }
        return await presenter.run(model.state) { action, view in
            switch action {
            case .personChosen(let id):
                model.chose(id)
            case .currencyChosen(let id):
                model.choseCurrency(id.rawValue)
            case .typed(let id, let text, let isFinal):
                model.typed(id, text, isFinal: isFinal)
            case .next:
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
            case .back:
                if !model.back() { return .cancelled }
            case .cancel:
                return .cancelled
            }
            return nil
        }
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
