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
    /// those who come out ahead, paired in the expense's own order (each debt, in the order of
    /// the parts, filled from the first payer with something left), so everyone's balances move
    /// by exactly their net and a personal expense moves nothing. The pairs depend on that order
    /// alone, never on identifiers: a contact linked to an account keeps its place, so its
    /// expenses move the same pairs with the account in its stead.
    public var balanceDeltas: [PairBalances.Delta] {
        PairBalances.deltas(
            payers: payers.map { ($0.user, $0.amount.minorUnits) },
            parts: split.parts.map { ($0.user, $0.amount.minorUnits) },
            in: amount.currency
        )
    }
}

extension PairBalances {
    /// The changes an expense makes, from its payers and its parts, each list in the expense's
    /// order: those behind owe those ahead, debtors in the order of the parts, creditors in the
    /// order of the payers. What ``Expense/balanceDeltas`` uses, what undoing an expense as it
    /// was stored uses, and what a recount of the whole ledger uses.
    ///
    /// Both lists add up to the same amount (their callers check it); the sums wrap rather than
    /// trap, so a damaged record can give wrong changes but never stop the process.
    public static func deltas(
        payers: [(user: UserID, units: Int64)], parts: [(user: UserID, units: Int64)], in currency: Currency
    ) -> [Delta] {
        var net: [UserID: Int64] = [:]
        for payer in payers { net[payer.user, default: 0] &+= payer.units }
        for part in parts { net[part.user, default: 0] &-= part.units }
        var seen: Set<UserID> = []
        let creditors = payers.compactMap { payer -> (user: UserID, units: Int64)? in
            guard let units = net[payer.user], units > 0, seen.insert(payer.user).inserted else { return nil }
            return (payer.user, units)
        }
        let debtors = parts.compactMap { part -> (user: UserID, units: Int64)? in
            guard let units = net[part.user], units < 0, seen.insert(part.user).inserted else { return nil }
            return (part.user, 0 &- units)
        }
        return Settling.fill(creditors: creditors, debtors: debtors).map {
            Delta(creditor: $0.creditor, debtor: $0.debtor, amount: Money(minorUnits: $0.units, currency: currency))
        }
    }
}
