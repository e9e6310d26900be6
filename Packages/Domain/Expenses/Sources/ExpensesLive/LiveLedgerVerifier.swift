import Expenses
import ExpensesData
import Primitives

/// Recounts every balance from the store's expenses and payments, in one read transaction, a
/// row at a time (memory grows with the pairs of people, not with the expenses).
public struct LiveLedgerVerifier: LedgerVerifier {
    private let store: any ExpensesStore

    public init(store: any ExpensesStore) {
        self.store = store
    }

    public func verify() async throws(ExpensesError) -> LedgerCheck {
        try await storing {
            try await store.read { db in
                var recount = Recount()
                try db.forEachLedgerRow(
                    expensePerson: { recount.add($0) },
                    settlement: { recount.add($0) },
                    balance: { recount.compare($0) }
                )
                try db.forEachGroupBalance { recount.compare($0) }
                return recount.finished()
            }
        }
    }
}

/// The running recount: one expense's people at a time, the pairs' sums so far.
private struct Recount {
    var check = LedgerCheck()
    /// Units `high` owes `low`, by pair and currency code, recounted.
    var pairs: [PairKey: Int128] = [:]
    /// The same within each group, by group id.
    var groupPairs: [String: [PairKey: Int128]] = [:]
    var expense: (id: String, amount: Int64, currency: String, group: String?)?
    /// The expense's payers and parts so far, each with its place in its list.
    var payers: [(position: Int64, user: UserID, units: Int64)] = []
    var shares: [(position: Int64, user: UserID, units: Int64)] = []
    var paid: Int128 = 0
    var parts: Int128 = 0

    struct PairKey: Hashable {
        var low: String
        var high: String
        var currency: String
    }

    mutating func add(_ row: LedgerRow) {
        if expense?.id != row.expense {
            finishExpense()
            expense = (row.expense, row.amount, row.currency, row.group)
        }
        paid += Int128(row.paid ?? 0)
        parts += Int128(row.part ?? 0)
        let user = UserID(rawValue: row.user)
        // A row without its place (a file changed by hand) goes last; the sums still check it.
        if let units = row.paid { payers.append((row.paidPosition ?? .max, user, units)) }
        if let units = row.part { shares.append((row.partPosition ?? .max, user, units)) }
    }

    /// The expense read so far: checked to add up, then its changes added to the pairs.
    mutating func finishExpense() {
        defer {
            payers = []
            shares = []
            paid = 0
            parts = 0
        }
        guard let expense else { return }
        check.expenses += 1
        guard paid == Int128(expense.amount), parts == Int128(expense.amount) else {
            check.brokenExpenses.append("\(expense.id): paid \(paid) and parts \(parts) for an amount of \(expense.amount) (minor units)")
            return
        }
        // The currency matters only as a key here: a code the domain does not know still counts.
        let currency = Currency(code: expense.currency) ?? .eur
        // Paired as the expense was when written: in the order of its lists, not of its people's ids.
        let inOrder = { (list: [(position: Int64, user: UserID, units: Int64)]) in
            list.sorted { ($0.position, $0.user.rawValue) < ($1.position, $1.user.rawValue) }.map { (user: $0.user, units: $0.units) }
        }
        for delta in PairBalances.deltas(payers: inOrder(payers), parts: inOrder(shares), in: currency) {
            add(creditor: delta.creditor.rawValue, debtor: delta.debtor.rawValue, units: Int128(delta.amount.minorUnits), currency: expense.currency, group: expense.group)
        }
    }

    /// The last expense counted: payments and balances come after every expense.
    mutating func endExpenses() {
        finishExpense()
        expense = nil
    }

    mutating func add(_ settlement: SettlementRecord) {
        endExpenses()
        check.settlements += 1
        if let conversion = settlement.conversion {
            // A conversion's other side: the payee is owed its worth, at its own rate.
            if let problem = Self.problem(of: conversion, paying: settlement) {
                check.brokenExpenses.append("conversion \(settlement.id): \(problem)")
            }
            add(creditor: settlement.to, debtor: settlement.from, units: Int128(conversion.amount), currency: conversion.currency, group: settlement.group)
        }
        guard !settlement.legs.isEmpty else {
            add(creditor: settlement.from, debtor: settlement.to, units: Int128(settlement.amount), currency: settlement.currency, group: settlement.group)
            return
        }
        // Its legs move the payer by the amount, the payee by its opposite, and nobody else.
        var nets: [String: Int128] = [:]
        for leg in settlement.legs {
            nets[leg.creditor, default: 0] += Int128(leg.amount)
            nets[leg.debtor, default: 0] -= Int128(leg.amount)
        }
        let expected = [settlement.from: Int128(settlement.amount), settlement.to: -Int128(settlement.amount)]
        guard nets.filter({ $0.value != 0 }) == expected else {
            check.brokenExpenses.append("payment \(settlement.id): its legs do not move \(settlement.amount) (minor units) from \(settlement.from) to \(settlement.to)")
            return
        }
        for leg in settlement.legs {
            add(creditor: leg.creditor, debtor: leg.debtor, units: Int128(leg.amount), currency: settlement.currency, group: settlement.group)
        }
    }

    /// Why a conversion as stored is not what its rate makes of its payment; nil when it is.
    private static func problem(of conversion: SettlementRecord.Conversion, paying settlement: SettlementRecord) -> String? {
        guard let paid = Currency(code: settlement.currency), let (rate, other) = conversion.read(paying: paid) else {
            return "its currencies or its rate cannot be read"
        }
        let converted = rate.convert(Money(minorUnits: settlement.amount, currency: paid))
        guard converted?.minorUnits == conversion.amount else {
            return "\(settlement.amount) \(paid.code) at \(rate) is not \(conversion.amount) minor units of \(other.code)"
        }
        return nil
    }

    /// Adds to the pair's overall balance and, for a write in a group, to its balance there.
    private mutating func add(creditor: String, debtor: String, units: Int128, currency: String, group: String?) {
        let (key, signed) = creditor < debtor
            ? (PairKey(low: creditor, high: debtor, currency: currency), units)
            : (PairKey(low: debtor, high: creditor, currency: currency), -units)
        pairs[key, default: 0] += signed
        if let group { groupPairs[group, default: [:]][key, default: 0] += signed }
    }

    mutating func compare(_ balance: GroupBalanceRecord) {
        endExpenses()
        check.groupBalances += 1
        let key = PairKey(low: balance.low, high: balance.high, currency: balance.currency)
        let recounted = groupPairs[balance.group]?.removeValue(forKey: key) ?? 0
        if recounted != Int128(balance.amount) {
            check.differences.append(.init(
                low: UserID(rawValue: balance.low), high: UserID(rawValue: balance.high), currency: balance.currency, kept: balance.amount,
                recounted: recounted, group: GroupID(rawValue: balance.group)
            ))
        }
    }

    mutating func compare(_ balance: BalanceRecord) {
        endExpenses()
        check.balances += 1
        let key = PairKey(low: balance.low, high: balance.high, currency: balance.currency)
        let recounted = pairs.removeValue(forKey: key) ?? 0
        if recounted != Int128(balance.amount) {
            check.differences.append(.init(low: UserID(rawValue: balance.low), high: UserID(rawValue: balance.high), currency: balance.currency, kept: balance.amount, recounted: recounted))
        }
    }

    mutating func finished() -> LedgerCheck {
        endExpenses()
        // Pairs the recount has and the store does not keep.
        for (key, units) in pairs where units != 0 {
            check.differences.append(.init(low: UserID(rawValue: key.low), high: UserID(rawValue: key.high), currency: key.currency, kept: 0, recounted: units))
        }
        for (group, pairs) in groupPairs {
            for (key, units) in pairs where units != 0 {
                check.differences.append(.init(
                    low: UserID(rawValue: key.low), high: UserID(rawValue: key.high), currency: key.currency, kept: 0, recounted: units,
                    group: GroupID(rawValue: group)
                ))
            }
        }
        check.differences.sort {
            ($0.group?.rawValue ?? "", $0.low.rawValue, $0.high.rawValue, $0.currency) < ($1.group?.rawValue ?? "", $1.low.rawValue, $1.high.rawValue, $1.currency)
        }
        return check
    }
}

extension SettlementRecord.Conversion {
    /// The rate as stored and the currency converted into, for a payment in `paid`; nil when
    /// they cannot be read or do not convert from `paid`.
    func read(paying paid: Currency) -> (rate: ExchangeRate, into: Currency)? {
        guard let other = Currency(code: currency), let base = Currency(code: rateBase), let published = PublishedRate(rate),
              let rate = ExchangeRate(base: base, quote: base == other ? paid : other, rate: published), rate.relates(paid, other)
        else { return nil }
        return (rate, other)
    }
}
