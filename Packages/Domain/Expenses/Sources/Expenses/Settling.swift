import Primitives

/// Pairs people who are owed with people who owe, exactly to the unit.
enum Settling {
    /// Walks both lists in their order: each debt is filled from the first creditor with
    /// something left. Both lists hold positive units and add up to the same total; the result
    /// has at most `creditors.count + debtors.count - 1` transfers, none larger than a position.
    static func fill<Units: BinaryInteger>(
        creditors: [(user: UserID, units: Units)],
        debtors: [(user: UserID, units: Units)]
    ) -> [(creditor: UserID, debtor: UserID, units: Units)] {
        var creditors = creditors
        var debtors = debtors
        var transfers: [(creditor: UserID, debtor: UserID, units: Units)] = []
        var creditor = 0
        var debtor = 0
        while creditor < creditors.count, debtor < debtors.count {
            let units = min(creditors[creditor].units, debtors[debtor].units)
            transfers.append((creditors[creditor].user, debtors[debtor].user, units))
            creditors[creditor].units -= units
            debtors[debtor].units -= units
            if creditors[creditor].units == 0 { creditor += 1 }
            if debtors[debtor].units == 0 { debtor += 1 }
        }
        return transfers
    }
}
