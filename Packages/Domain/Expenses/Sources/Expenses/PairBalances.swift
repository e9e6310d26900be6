import Primitives

/// Who owes whom, per pair of people and per currency.
///
/// A pair is kept once, in the order of the two user ids: a positive amount means the second
/// owes the first. Every change goes through ``apply(_:)`` with signed deltas, so each pair's
/// two sides always cancel: per currency, everyone's balances sum to exactly zero.
public struct PairBalances: Equatable, Sendable {
    /// One pair's balance in one currency.
    public struct Key: Hashable, Sendable {
        public let low: UserID
        public let high: UserID
        public let currency: Currency
    }

    /// A change to what `debtor` owes `creditor`.
    public struct Delta: Equatable, Sendable {
        public let creditor: UserID
        public let debtor: UserID
        public let amount: Money

        public init(creditor: UserID, debtor: UserID, amount: Money) {
            self.creditor = creditor
            self.debtor = debtor
            self.amount = amount
        }

        /// The same change in the pair's order: the key, and minor units owed by `high` to `low`.
        public var keyed: (key: Key, units: Int64) {
            creditor.rawValue < debtor.rawValue
                ? (Key(low: creditor, high: debtor, currency: amount.currency), amount.minorUnits)
                : (Key(low: debtor, high: creditor, currency: amount.currency), -amount.minorUnits)
        }

        /// The change that undoes this one.
        public var reversed: Delta { Delta(creditor: debtor, debtor: creditor, amount: amount) }
    }

    /// Minor units `high` owes `low`, by pair and currency; settled pairs are removed.
    public private(set) var amounts: [Key: Int64] = [:]

    public init() {}

    /// Applies the changes of one write, all or nothing: a change that would take a pair's
    /// balance beyond ``LedgerLimits/maximumAmount`` refuses the whole write.
    public mutating func apply(_ deltas: [Delta]) throws(ExpensesError) {
        // The pairs' new amounts are worked out apart and written only once all are within the
        // bound: a copy of every balance to throw away would make each call as slow as the
        // whole ledger is large.
        var changed: [Key: Int64] = [:]
        for delta in deltas {
            let (key, units) = delta.keyed
            guard units.magnitude <= LedgerLimits.maximumAmount.magnitude else { throw .beyondLimit(key.currency) }
            // Both within 10^15: the sum cannot overflow.
            let sum = (changed[key] ?? amounts[key] ?? 0) + units
            guard sum.magnitude <= LedgerLimits.maximumAmount.magnitude else { throw .beyondLimit(key.currency) }
            changed[key] = sum
        }
        for (key, sum) in changed {
            amounts[key] = sum == 0 ? nil : sum
        }
    }

    /// What `user` is owed (positive) or owes (negative), per other person and currency.
    public func balances(of user: UserID) -> [(other: UserID, amount: Money)] {
        amounts.compactMap { key, units in
            if key.low == user { return (key.high, Money(minorUnits: units, currency: key.currency)) }
            if key.high == user { return (key.low, Money(minorUnits: -units, currency: key.currency)) }
            return nil
        }.sorted { ($0.other.rawValue, $0.amount.currency.code) < ($1.other.rawValue, $1.amount.currency.code) }
    }

    /// Each person's net position per currency: positive is owed to them. A sum over many
    /// pairs, so in 128 bits: it cannot overflow.
    public func netPositions() -> [Currency: [UserID: Int128]] {
        var result: [Currency: [UserID: Int128]] = [:]
        for (key, units) in amounts {
            result[key.currency, default: [:]][key.low, default: 0] += Int128(units)
            result[key.currency, default: [:]][key.high, default: 0] -= Int128(units)
        }
        return result
    }
}

extension Expense {
    /// What the expense changes between people, exact to the unit.
    ///
    /// Each person's net is what they paid minus their part. Those who come out behind owe
    /// those who come out ahead, paired in the order of their user ids (each debt filled from
    /// the first creditor with something left), so everyone's balances move by exactly their
    /// net, a personal expense moves nothing, and the result never depends on entry order.
    public var balanceDeltas: [PairBalances.Delta] {
        var net: [UserID: Int64] = [:]
        for payer in payers { net[payer.user, default: 0] += payer.amount.minorUnits }
        for part in split.parts { net[part.user, default: 0] -= part.amount.minorUnits }
        return PairBalances.deltas(forNets: net, in: amount.currency)
    }
}

extension PairBalances {
    /// The changes an expense makes, from each person's net in it (what they paid minus their
    /// part, adding up to zero): those behind owe those ahead, paired in user-id order. What
    /// ``Expense/balanceDeltas`` uses, and what a recount of the whole ledger uses.
    public static func deltas(forNets net: [UserID: Int64], in currency: Currency) -> [Delta] {
        let byID = { (left: (key: UserID, value: Int64), right: (key: UserID, value: Int64)) in left.key.rawValue < right.key.rawValue }
        let creditors = net.filter { $0.value > 0 }.sorted(by: byID).map { (user: $0.key, units: $0.value) }
        let debtors = net.filter { $0.value < 0 }.sorted(by: byID).map { (user: $0.key, units: -$0.value) }
        return Settling.fill(creditors: creditors, debtors: debtors).map {
            Delta(creditor: $0.creditor, debtor: $0.debtor, amount: Money(minorUnits: $0.units, currency: currency))
        }
    }
}
