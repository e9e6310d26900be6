import Primitives

/// Which balances a payment moves.
///
/// First what the payer owes the payee. Beyond that, what the payer owes someone who owes the
/// payee: the payment clears both debts at once, as if the payer paid that person and they paid
/// the payee (so suggested payments, which net people out, leave no balance behind). Anything
/// still left the payee owes the payer. The payer's total moves by the amount, the payee's by
/// its opposite, and everyone else's stays as it was.
public enum PaymentRouting {
    /// The balance changes of a payment of `amount` from `payer` to `payee`.
    ///
    /// - Parameters:
    ///   - payerOwes: what the payer owes each person, in the payment's currency (positive units).
    ///   - owedToPayee: what each person owes the payee (positive units).
    /// - Returns: one change for the pair of payer and payee when nothing else moves; otherwise
    ///   that change (if any) and two for each person the payment passes through, in user-id order.
    public static func legs(
        from payer: UserID, to payee: UserID, amount: Money, payerOwes: [UserID: Int64], owedToPayee: [UserID: Int64]
    ) -> [PairBalances.Delta] {
        let currency = amount.currency
        var left = amount.minorUnits
        var direct = min(left, max(0, payerOwes[payee] ?? 0))
        left -= direct
        var through: [PairBalances.Delta] = []
        let middle = payerOwes.keys.filter { $0 != payer && $0 != payee && (owedToPayee[$0] ?? 0) > 0 }.sorted { $0.rawValue < $1.rawValue }
        for person in middle where left > 0 {
            let units = min(left, payerOwes[person] ?? 0, owedToPayee[person] ?? 0)
            guard units > 0 else { continue }
            through.append(PairBalances.Delta(creditor: payer, debtor: person, amount: Money(minorUnits: units, currency: currency)))
            through.append(PairBalances.Delta(creditor: person, debtor: payee, amount: Money(minorUnits: units, currency: currency)))
            left -= units
        }
        // More than all of that: the payee owes the payer the rest.
        direct += left
        let payerAndPayee = direct > 0 ? [PairBalances.Delta(creditor: payer, debtor: payee, amount: Money(minorUnits: direct, currency: currency))] : []
        return payerAndPayee + through
    }
}
