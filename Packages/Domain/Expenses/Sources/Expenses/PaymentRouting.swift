import Primitives

/// Which balances a payment moves.
///
/// First what the payer owes the payee. Beyond that, what the payer owes someone who owes the
/// payee: the payment clears both debts at once, as if the payer paid that person and they paid
/// the payee. It may pass through several such people, each one step between payer and payee
/// (never along a longer chain), those it can clear the most through first. Anything still left
/// the payee owes the payer. The payer's total moves by the amount, the payee's by its opposite,
/// and everyone else's stays as it was.
public enum PaymentRouting {
    /// The balance changes of a payment of `amount` from `payer` to `payee`.
    ///
    /// - Parameters:
    ///   - payerOwes: what the payer owes each person, in the payment's currency (positive units).
    ///   - owedToPayee: what each person owes the payee (positive units).
    /// - Returns: one change for the pair of payer and payee when nothing else moves; otherwise
    ///   that change (if any) and two for each person the payment passes through: the one it can
    ///   clear the most through first, equal ones in user-id order.
    public static func legs(
        from payer: UserID, to payee: UserID, amount: Money, payerOwes: [UserID: Int64], owedToPayee: [UserID: Int64]
    ) -> [PairBalances.Delta] {
        let currency = amount.currency
        var left = amount.minorUnits
        var direct = min(left, max(0, payerOwes[payee] ?? 0))
        left -= direct
        var legs: [PairBalances.Delta] = []
        let through = { (person: UserID) in min(payerOwes[person] ?? 0, owedToPayee[person] ?? 0) }
        let middle = payerOwes.keys.filter { $0 != payer && $0 != payee && through($0) > 0 }
            .sorted { (through($1), $0.rawValue) < (through($0), $1.rawValue) }
        for person in middle where left > 0 {
            let units = min(left, through(person))
            guard units > 0 else { continue }
            legs.append(PairBalances.Delta(creditor: payer, debtor: person, amount: Money(minorUnits: units, currency: currency)))
            legs.append(PairBalances.Delta(creditor: person, debtor: payee, amount: Money(minorUnits: units, currency: currency)))
            left -= units
        }
        // More than all of that: the payee owes the payer the rest.
        direct += left
        let payerAndPayee = direct > 0 ? [PairBalances.Delta(creditor: payer, debtor: payee, amount: Money(minorUnits: direct, currency: currency))] : []
        return payerAndPayee + legs
    }
}
