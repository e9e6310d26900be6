import Primitives

/// A payment that would move balances toward zero.
public struct SuggestedPayment: Equatable, Sendable {
    public let from: UserID
    public let to: UserID
    public let amount: Money

    public init(from: UserID, to: UserID, amount: Money) {
        self.from = from
        self.to = to
        self.amount = amount
    }
}

/// Turns net positions in one currency into few payments that settle everyone.
///
/// Up to ``exactLimit`` people with a balance, the fewest payments are found exactly: the most
/// groups whose balances sum to zero, each settled by its size minus one payments. Beyond that,
/// a greedy pass (exactly matching debts first, then the largest debtor pays the largest
/// creditor) settles everyone in at most people minus one payments. Ties go by user id, so the
/// suggestions are always the same for the same balances.
///
/// Sums are taken in 128-bit integers, so no position the store can hold (nor any other) can
/// overflow them.
public enum DebtSimplifier {
    public static let exactLimit = 14

    typealias Position = (key: UserID, value: Int128)

    /// - Parameter net: each person's position in minor units (positive: owed to them); the
    ///   positions sum to zero. Any values: sums are taken in 128 bits.
    public static func payments(for net: [UserID: Int128], currency: Currency) -> [SuggestedPayment] {
        let people: [Position] = net.filter { $0.value != 0 }.sorted { $0.key.rawValue < $1.key.rawValue }
        guard people.count > 1 else { return [] }
        let groups = people.count <= exactLimit ? zeroSumGroups(people) : [people]
        return groups.flatMap { greedy($0, currency: currency) }
    }

    /// The most disjoint zero-sum groups, by dynamic programming over subsets.
    private static func zeroSumGroups(_ people: [Position]) -> [[Position]] {
        let count = people.count
        let full = (1 << count) - 1
        var sums = [Int128](repeating: 0, count: full + 1)
        var best = [Int](repeating: 0, count: full + 1)
        for mask in 1...full {
            let lowest = mask.trailingZeroBitCount
            sums[mask] = sums[mask & (mask - 1)] + people[lowest].value
            var most = 0
            var rest = mask
            while rest != 0 {
                let bit = rest & -rest
                most = max(most, best[mask ^ bit])
                rest ^= bit
            }
            best[mask] = most + (sums[mask] == 0 ? 1 : 0)
        }
        // Walk back from everyone, removing one person at a time along a best chain; the
        // zero-sum masks met on the way bound the groups.
        var chain: [Int] = []
        var mask = full
        while mask != 0 {
            var rest = mask
            while rest != 0 {
                let bit = rest & -rest
                if best[mask] == best[mask ^ bit] + (sums[mask] == 0 ? 1 : 0) {
                    chain.append(mask)
                    mask ^= bit
                    break
                }
                rest ^= bit
            }
        }
        var groups: [[Position]] = []
        var previous = 0
        for mask in chain.reversed() where sums[mask] == 0 {
            let members = mask & ~previous
            groups.append((0..<count).filter { members & (1 << $0) != 0 }.map { people[$0] })
            previous = mask
        }
        return groups
    }

    /// Settles one zero-sum group in at most its size minus one payments.
    private static func greedy(_ group: [Position], currency: Currency) -> [SuggestedPayment] {
        var creditors = group.filter { $0.value > 0 }.map { (user: $0.key, units: $0.value) }
        var debtors = group.filter { $0.value < 0 }.map { (user: $0.key, units: -$0.value) }
        var payments: [SuggestedPayment] = []

        // Exact matches first: each saves a payment.
        for index in debtors.indices {
            if let match = creditors.firstIndex(where: { $0.units == debtors[index].units }) {
                payments += Self.payment(from: debtors[index].user, to: creditors[match].user, units: debtors[index].units, currency: currency)
                creditors.remove(at: match)
                debtors[index].units = 0
            }
        }
        debtors.removeAll { $0.units == 0 }

        let byLargest = { (left: (user: UserID, units: Int128), right: (user: UserID, units: Int128)) in
            left.units != right.units ? left.units > right.units : left.user.rawValue < right.user.rawValue
        }
        creditors.sort(by: byLargest)
        debtors.sort(by: byLargest)
        for transfer in Settling.fill(creditors: creditors, debtors: debtors) {
            payments += Self.payment(from: transfer.debtor, to: transfer.creditor, units: transfer.units, currency: currency)
        }
        return payments
    }

    /// A payment of `units`. One beyond what Money holds (a position summed over more than nine
    /// thousand balances at the limit) is given in parts, so the sum stays exact.
    private static func payment(from: UserID, to: UserID, units: Int128, currency: Currency) -> [SuggestedPayment] {
        var left = units
        var parts: [SuggestedPayment] = []
        while left > 0 {
            let part = min(left, Int128(Int64.max))
            parts.append(SuggestedPayment(from: from, to: to, amount: Money(minorUnits: Int64(part), currency: currency)))
            left -= part
        }
        return parts
    }
}
