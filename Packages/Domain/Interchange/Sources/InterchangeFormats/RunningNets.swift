import Interchange
import Primitives

/// Each person's nets row by row, in minor units, from exact nets that may fall below a minor
/// unit: whole minor units are taken as they are; a row with a net below one takes what rounding
/// each person's running total in that currency (by the largest remainder, to a sum of zero)
/// moves. So each person's rounded nets add up to their exact total, rounded the same way, and
/// every row's nets to zero (docs/business-rules.md).
struct RunningNets {
    enum Failure: Error {
        /// The person's running total would go beyond what can be kept exactly.
        case beyondExact(person: Int)
        /// The row's nets do not add up to zero, to within a minor unit per person.
        case unroundable
    }

    private let count: Int
    /// Per currency, each person's exact nets so far.
    private var exact: [String: [Int64]] = [:]
    /// Per currency, each person's rounded nets so far.
    private var rounded: [String: [Int64]] = [:]

    init(count: Int) {
        self.count = count
    }

    /// The row's nets in minor units of `currency`, each person's in their place.
    mutating func take(_ nets: [ExactAmount], in currency: Currency) -> Result<[Int64], Failure> {
        let zeros = Array(repeating: Int64(0), count: count)
        var running = exact[currency.code] ?? zeros
        for index in running.indices {
            let (sum, over) = running[index].addingReportingOverflow(index < nets.count ? nets[index].nanos : 0)
            guard !over else { return .failure(.beyondExact(person: index)) }
            running[index] = sum
        }
        let before = rounded[currency.code] ?? zeros
        let moved: [Int64]
        if nets.allSatisfy({ $0.isWhole(in: currency) }) {
            let unit = ExactAmount.unit(currency)
            moved = running.indices.map { $0 < nets.count ? nets[$0].nanos / unit : 0 }
        } else {
            guard let after = LargestRemainder.share(0, by: running.map(ExactAmount.init(nanos:)), in: currency) else { return .failure(.unroundable) }
            moved = zip(after, before).map { $0 - $1 }
        }
        exact[currency.code] = running
        rounded[currency.code] = zip(before, moved).map { $0 + $1 }
        return .success(moved)
    }

    /// Each person's rounded total in `currency` so far.
    func totals(in currency: Currency) -> [Int64] {
        rounded[currency.code] ?? Array(repeating: 0, count: count)
    }

    /// Who paid and whose part, from rounded nets: above zero paid, below had a part of that
    /// size; the rest of the cost is the payers' own part, shared evenly (earlier places take the
    /// units left over).
    static func expense(nets: [Int64], cost: Int64) -> SheetEntry.Movement {
        let payers = nets.indices.filter { nets[$0] > 0 }
        let own = cost - nets.filter { $0 > 0 }.reduce(0, +)
        var parts: [Int: Int64] = [:]
        var paid: [Shares.Share] = []
        for index in nets.indices where nets[index] < 0 { parts[index] = -nets[index] }
        let (each, left) = own.quotientAndRemainder(dividingBy: Int64(max(payers.count, 1)))
        for (place, payer) in payers.enumerated() {
            let part = each + (Int64(place) < left ? 1 : 0)
            if part > 0 { parts[payer] = part }
            paid.append(Shares.Share(person: payer, amount: nets[payer] + part))
        }
        // In the people's order.
        return .expense(paid: Shares(paid), parts: Shares(parts.keys.sorted().map { Shares.Share(person: $0, amount: parts[$0] ?? 0) }))
    }
}
