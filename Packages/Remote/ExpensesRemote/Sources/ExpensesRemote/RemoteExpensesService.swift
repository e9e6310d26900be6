import Expenses
import FlowsAPI
import FlowsAPIClient
import FlowsWire
import Foundation
import OpenAPIRuntime
import Primitives

/// The expenses service of a flows-server, over HTTP, for the signed-in user.
///
/// The server acts only as the user whose token it was sent: the `user` of each call is the
/// session's. Expenses come back as the server recorded them; their splits are worked out
/// again here by the same rules, to the same minor units.
public struct RemoteExpensesService: ExpensesService {
    private let connection: APIConnection

    public init(connection: APIConnection) {
        self.connection = connection
    }

    // MARK: - Expenses

    public func add(_ draft: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> Expense {
        try expense(try await call { try await $0.addExpense(body: .json(Self.draft(draft))).created.body.json })
    }

    public func edit(_ id: ExpenseID, to draft: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> Expense {
        try expense(try await call {
            try await $0.editExpense(path: .init(expenseId: id.rawValue), body: .json(Self.draft(draft))).ok.body.json
        })
    }

    public func delete(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) {
        _ = try await call { try await $0.deleteExpense(path: .init(expenseId: id.rawValue)).noContent }
    }

    public func restore(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) -> Expense {
        try expense(try await call { try await $0.restoreExpense(path: .init(expenseId: id.rawValue)).ok.body.json })
    }

    public func deletedExpenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        guard page.limit > 0 else { return [] }
        let query = Operations.ListDeletedExpenses.Input.Query(offset: Int32(clamping: page.offset), limit: Int32(clamping: page.limit))
        return try expenses(try await call { try await $0.listDeletedExpenses(query: query).ok.body.json })
    }

    public func expense(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Expense? {
        do {
            return try expense(try await call { try await $0.getExpense(path: .init(expenseId: id.rawValue)).ok.body.json })
        } catch .notFound {
            return nil
        }
    }

    public func expenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        guard page.limit > 0 else { return [] }
        let query = Operations.ListExpenses.Input.Query(offset: Int32(clamping: page.offset), limit: Int32(clamping: page.limit))
        return try expenses(try await call { try await $0.listExpenses(query: query).ok.body.json })
    }

    public func expenses(of user: UserID, sharedWith other: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        guard page.limit > 0 else { return [] }
        let query = Operations.ListSharedExpenses.Input.Query(offset: Int32(clamping: page.offset), limit: Int32(clamping: page.limit))
        return try expenses(try await call {
            try await $0.listSharedExpenses(path: .init(personId: other.rawValue), query: query).ok.body.json
        })
    }

    public func recentPeople(of user: UserID) async throws(ExpensesError) -> [UserID] {
        try await call { try await $0.listRecentPeople().ok.body.json }.ids.map(UserID.init(rawValue:))
    }

    // MARK: - Payments

    public func settle(from: UserID, to: UserID, amount: Money, day: Day, by user: UserID) async throws(ExpensesError) -> Settlement {
        // The contract names the other person and who paid, so a payment it cannot say (the
        // user neither of the two) is refused here, by the service's own rules.
        if let reason = Settlement.problem(from: from, to: to, amount: amount, by: user) { throw .invalidSettlement(reason) }
        let body = Components.Schemas.SettleUpRequest(
            counterparty: (user == from ? to : from).rawValue, paidBy: user == from ? .me : .counterparty,
            amount: .init(minorUnits: amount.minorUnits, currency: amount.currency.code), day: day.description
        )
        return try settlement(try await call { try await $0.settleUp(body: .json(body)).created.body.json })
    }

    public func settlements(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement] {
        guard page.limit > 0 else { return [] }
        let query = Operations.ListSettlements.Input.Query(offset: Int32(clamping: page.offset), limit: Int32(clamping: page.limit))
        var settlements: [Settlement] = []
        for wire in try await call({ try await $0.listSettlements(query: query).ok.body.json }).settlements {
            settlements.append(try settlement(wire))
        }
        return settlements
    }

    public func undoSettlement(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) {
        _ = try await call { try await $0.undoSettlement(path: .init(settlementId: id.rawValue)).noContent }
    }

    // MARK: - Balances and reports

    public func balances(of user: UserID) async throws(ExpensesError) -> [Balance] {
        var balances: [Balance] = []
        for wire in try await call({ try await $0.listBalances().ok.body.json }).balances {
            balances.append(Balance(other: UserID(rawValue: wire.other), amount: try money(wire.amount)))
        }
        return balances
    }

    public func suggestedPayments(for user: UserID, in currency: Currency) async throws(ExpensesError) -> [SuggestedPayment] {
        var payments: [SuggestedPayment] = []
        for wire in try await call({ try await $0.listSuggestedPayments(query: .init(currency: currency.code)).ok.body.json }).payments {
            payments.append(SuggestedPayment(from: UserID(rawValue: wire.from), to: UserID(rawValue: wire.to), amount: try money(wire.amount)))
        }
        return payments
    }

    public func activity(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Activity] {
        guard page.limit > 0 else { return [] }
        let query = Operations.ListActivity.Input.Query(offset: Int32(clamping: page.offset), limit: Int32(clamping: page.limit))
        var activity: [Activity] = []
        for wire in try await call({ try await $0.listActivity(query: query).ok.body.json }).activity {
            guard let kind = Activity.Kind(rawValue: wire.kind.rawValue) else { throw unreadable("activity") }
            activity.append(Activity(
                kind: kind, actor: UserID(rawValue: wire.actor), subject: ExpenseID(rawValue: wire.subject), summary: wire.summary, at: wire.at
            ))
        }
        return activity
    }

    public func spending(of user: UserID, from first: Day?, through last: Day?) async throws(ExpensesError) -> SpendingReport {
        let query = Operations.GetSpendingReport.Input.Query(from: first?.description, through: last?.description)
        let report = try await call { try await $0.getSpendingReport(query: query).ok.body.json }
        var byCategory: [SpendingReport.Line] = []
        for line in report.byCategory { byCategory.append(.init(label: line.label, amount: try money(line.amount))) }
        var byMonth: [SpendingReport.Line] = []
        for line in report.byMonth { byMonth.append(.init(label: line.label, amount: try money(line.amount))) }
        return SpendingReport(byCategory: byCategory, byMonth: byMonth)
    }

    public func currencies(of user: UserID) async throws(ExpensesError) -> [Currency] {
        var currencies: [Currency] = []
        for wire in try await call({ try await $0.listCurrencies().ok.body.json }).currencies {
            guard let currency = Currency(code: wire.code) else { throw unreadable("a currency") }
            currencies.append(currency)
        }
        return currencies
    }

    // MARK: - Writing requests

    static func draft(_ draft: ExpenseDraft) -> Components.Schemas.ExpenseDraft {
        Components.Schemas.ExpenseDraft(
            description: draft.description,
            amount: .init(minorUnits: draft.amount.minorUnits, currency: draft.amount.currency.code),
            day: draft.day.description,
            category: Components.Schemas.Category(rawValue: draft.category.rawValue) ?? .general,
            payers: draft.payers.map { .init(user: $0.user.rawValue, amount: .init(minorUnits: $0.amount.minorUnits, currency: $0.amount.currency.code)) },
            participants: draft.participants.map(\.rawValue),
            rule: .init(draft.rule),
            note: draft.note
        )
    }

    // MARK: - Reading answers

    private func call<T>(_ work: (Client) async throws -> T) async throws(ExpensesError) -> T {
        do { return try await connection.call(work) } catch { throw Self.error(error) }
    }

    private func unreadable(_ what: String) -> ExpensesError {
        .serverUnreachable("\(connection.server.absoluteString) answered \(what) this app cannot read")
    }

    private func money(_ wire: Components.Schemas.Money) throws(ExpensesError) -> Money {
        guard let currency = Currency(code: wire.currency) else { throw unreadable("a currency") }
        return Money(minorUnits: wire.minorUnits, currency: currency)
    }

    private func expenses(_ list: Components.Schemas.ExpenseList) throws(ExpensesError) -> [Expense] {
        var expenses: [Expense] = []
        for wire in list.expenses { expenses.append(try expense(wire)) }
        return expenses
    }

    /// The expense the server recorded, checked here by the same rules.
    private func expense(_ wire: Components.Schemas.Expense) throws(ExpensesError) -> Expense {
        var payers: [Payer] = []
        for payer in wire.payers { payers.append(Payer(user: UserID(rawValue: payer.user), amount: try money(payer.amount))) }
        let rule: SplitRule
        switch wire.rule {
        case .equal: rule = .equal
        case .exact(let exact):
            var amounts: [UserID: Money] = [:]
            for (id, part) in exact.amounts.additionalProperties {
                guard let currency = Currency(code: part.currency) else { throw unreadable("a currency") }
                amounts[UserID(rawValue: id)] = Money(minorUnits: part.minorUnits, currency: currency)
            }
            rule = .exact(amounts)
        case .percentages(let percentages):
            rule = .percentages(Dictionary(uniqueKeysWithValues: percentages.basisPoints.additionalProperties.map { (UserID(rawValue: $0.key), Int($0.value)) }))
        case .shares(let shares):
            rule = .shares(Dictionary(uniqueKeysWithValues: shares.shares.additionalProperties.map { (UserID(rawValue: $0.key), Int($0.value)) }))
        }
        guard let category = Category(rawValue: wire.category.rawValue), let day = try? Day(wire.day) else { throw unreadable("an expense") }
        let draft = ExpenseDraft(
            description: wire.description, amount: try money(wire.amount), day: day, category: category, payers: payers,
            participants: wire.split.parts.map { UserID(rawValue: $0.user) }, rule: rule, note: wire.note
        )
        var parts: [(user: UserID, amount: Money)] = []
        for part in wire.split.parts { parts.append((UserID(rawValue: part.user), try money(part.amount))) }
        // The server's parts, as recorded, checked to be what the rule gives.
        guard let split = Split(amount: draft.amount, recorded: parts, rule: rule) else {
            throw unreadable("an expense split other than its rule splits it")
        }
        do throws(ExpenseProblem) {
            return try Expense(id: ExpenseID(rawValue: wire.id), draft: draft, recorded: split)
        } catch {
            throw unreadable("an expense")
        }
    }

    private func settlement(_ wire: Components.Schemas.Settlement) throws(ExpensesError) -> Settlement {
        guard let day = try? Day(wire.day) else { throw unreadable("a payment") }
        var legs: [PairBalances.Delta] = []
        for leg in wire.legs {
            legs.append(PairBalances.Delta(creditor: UserID(rawValue: leg.creditor), debtor: UserID(rawValue: leg.debtor), amount: try money(leg.amount)))
        }
        return Settlement(
            id: ExpenseID(rawValue: wire.id), from: UserID(rawValue: wire.from), to: UserID(rawValue: wire.to), amount: try money(wire.amount),
            day: day, legs: legs
        )
    }

    /// The domain's error for a failed call: the Problem's code names the case, its details
    /// the values.
    static func error(_ failure: RemoteFailure) -> ExpensesError {
        let details = failure.details
        let currency = details?.currency.flatMap { Currency(code: $0) }
        let money = { (wire: Components.Schemas.Money?) -> Money? in
            wire.flatMap { wire in Currency(code: wire.currency).map { Money(minorUnits: wire.minorUnits, currency: $0) } }
        }
        switch failure.code {
        case .invalidDescription?: return .invalid(.description)
        case .invalidDescriptionControlCharacters?: return .invalid(.descriptionControlCharacters)
        case .noPayer?: return .invalid(.noPayer)
        case .duplicatePayer?: return .invalid(.duplicatePayer)
        case .payerCurrency?: return .invalid(.payerCurrency)
        case .payerAmount?: return .invalid(.payerAmount)
        case .paymentsDoNotAddUp?: if let amount = money(details?.amount) { return .invalid(.paymentsDoNotAddUp(paid: money(details?.sum), amount: amount)) }
        case .amountTooLarge?: if let currency { return .invalid(.amountTooLarge(currency)) }
        case .invalidNote?: return .invalid(.note)
        case .splitAmountNotPositive?: return .invalid(.split(.amountNotPositive))
        case .splitNoParticipants?: return .invalid(.split(.noParticipants))
        case .splitDuplicateParticipant?: return .invalid(.split(.duplicateParticipant))
        case .splitPartsDoNotMatchParticipants?: return .invalid(.split(.partsDoNotMatchParticipants))
        case .splitCurrencyMismatch?: return .invalid(.split(.currencyMismatch))
        case .splitNegativePart?: return .invalid(.split(.negativePart))
        case .splitExactSumMismatch?: if let amount = money(details?.amount) { return .invalid(.split(.exactSumMismatch(sum: money(details?.sum), amount: amount))) }
        case .splitPercentagesSum?: if let points = details?.basisPoints { return .invalid(.split(.percentagesSum(basisPoints: Int(clamping: points)))) }
        case .splitPercentageTooLarge?: return .invalid(.split(.percentageTooLarge))
        case .splitShareTooLarge?: return .invalid(.split(.shareTooLarge))
        case .splitNoShares?: return .invalid(.split(.noShares))
        case .notFound?: return .notFound(ExpenseID(rawValue: details?.expenseId ?? ""))
        case .notInExpense?: return .notInExpense
        case .unknownPeople?: return .unknownPeople((details?.people ?? []).map(UserID.init(rawValue:)))
        case .invalidSettlement?: return .invalidSettlement(details?.reason ?? failure.message)
        case .beyondLimit?: if let currency { return .beyondLimit(currency) }
        case .cannotMerge?: return .cannotMerge(details?.reason ?? failure.message)
        case .refused?: return .refused(details?.reason ?? failure.message)
        case .storeUnavailable?: return .storeUnavailable(failure.message)
        case .unauthenticated?, .sessionExpired?, .noSuchAccount?: return .signedOut
        default: break
        }
        return .serverUnreachable(failure.description)
    }
}
