import Primitives

/// An amount divided among participants, to the minor unit, adding up exactly.
///
/// Every rule except exact amounts is a weighting: equal is one share each, percentages are
/// weights in basis points. Each participant first gets the whole minor units of their exact
/// quota (amount × weight ÷ total weight, rounded down); the units left over, fewer than the
/// participants, go one each to the largest remainders. Ties go to whoever is listed first: the
/// order is the expense's own and stays with it, so a unit never moves when a person's identifier
/// changes (a contact linked to an account). ``extraUnits`` says who got a unit and why.
public struct Split: Equatable, Sendable {
    public let amount: Money
    /// Each participant's part, in the order they were given (the order ties follow).
    public let parts: [Part]
    /// Who got a leftover unit, most deserving first.
    public let extraUnits: [ExtraUnit]

    public struct Part: Equatable, Sendable {
        public let user: UserID
        public let amount: Money
    }

    /// One leftover unit and why it went where it went.
    public struct ExtraUnit: Equatable, Sendable {
        public let user: UserID
        /// The remainder of the participant's exact quota, as a fraction of one unit.
        public let remainder: Int64
        public let denominator: Int64
        /// 1 for the largest remainder, 2 for the next, ...
        public let rank: Int
        /// Whether another participant had the same remainder and lost the tie.
        public let wonTie: Bool
    }

    /// The most shares one person can have, so the shares' total stays far within Int64.
    public static let maximumShare = 1_000_000

    /// Divides `amount` among `participants` by `rule`.
    public init(amount: Money, participants: [UserID], rule: SplitRule) throws(SplitProblem) {
        guard amount.isPositive else { throw .amountNotPositive }
        guard !participants.isEmpty else { throw .noParticipants }
        guard Set(participants).count == participants.count else { throw .duplicateParticipant }
        self.amount = amount

        switch rule {
        case .exact(let given):
            guard Set(given.keys) == Set(participants) else { throw .partsDoNotMatchParticipants }
            var total: Int64 = 0
            for user in participants {
                guard let part = given[user], part.currency == amount.currency else { throw .currencyMismatch }
                guard !part.isNegative else { throw .negativePart }
                let (sum, overflow) = total.addingReportingOverflow(part.minorUnits)
                guard !overflow else { throw .exactSumMismatch(sum: nil, amount: amount) }
                total = sum
            }
            guard total == amount.minorUnits else {
                throw .exactSumMismatch(sum: Money(minorUnits: total, currency: amount.currency), amount: amount)
            }
            parts = participants.map { Part(user: $0, amount: given[$0] ?? .zero(amount.currency)) }
            extraUnits = []

        case .equal:
            (parts, extraUnits) = Self.weighted(amount, participants.map { ($0, 1) })

        case .percentages(let basisPoints):
            guard Set(basisPoints.keys) == Set(participants) else { throw .partsDoNotMatchParticipants }
            let weights = participants.map { ($0, basisPoints[$0] ?? 0) }
            guard weights.allSatisfy({ $0.1 >= 0 }) else { throw .negativePart }
            // Each within 0 to 100 %, so their sum cannot overflow.
            guard weights.allSatisfy({ $0.1 <= 10_000 }) else { throw .percentageTooLarge }
            let sum = weights.reduce(0) { $0 + $1.1 }
            guard sum == 10_000 else { throw .percentagesSum(basisPoints: sum) }
            (parts, extraUnits) = Self.weighted(amount, weights.map { ($0.0, Int64($0.1)) })

        case .shares(let shares):
            guard Set(shares.keys) == Set(participants) else { throw .partsDoNotMatchParticipants }
            let weights = participants.map { ($0, shares[$0] ?? 0) }
            guard weights.allSatisfy({ $0.1 >= 0 }) else { throw .negativePart }
            guard weights.allSatisfy({ $0.1 <= Self.maximumShare }) else { throw .shareTooLarge }
            guard weights.contains(where: { $0.1 > 0 }) else { throw .noShares }
            (parts, extraUnits) = Self.weighted(amount, weights.map { ($0.0, Int64($0.1)) })
        }
    }

    /// A split as it was recorded: `parts` as they were kept, each checked against `rule` (exact
    /// amounts as given; by a weighting, each part the whole units of its exact quota or one
    /// more, adding up to the amount). Who got the leftover units is read off the parts, so an
    /// expense keeps the parts it was written with, whatever rule for ties was in force then.
    /// Nil when the rule could not have given them (a damaged record).
    public init?(amount: Money, recorded parts: [(user: UserID, amount: Money)], rule: SplitRule) {
        guard let worked = try? Split(amount: amount, participants: parts.map(\.user), rule: rule) else { return nil }
        let parts = parts.map { Part(user: $0.user, amount: $0.amount) }
        guard worked.parts != parts else {
            self = worked
            return
        }
        guard let weights = Self.weights(of: rule, for: parts.map(\.user)) else { return nil }
        let (floors, remainders, total) = Self.quotas(amount, weights)
        var given: [Int] = []
        for (index, part) in parts.enumerated() {
            guard part.amount.currency == amount.currency else { return nil }
            switch part.amount.minorUnits &- floors[index] {
            case 0: continue
            case 1: given.append(index)
            default: return nil
            }
        }
        // The floors leave fewer units over than there are people: as many parts have one more.
        guard given.count == Int(amount.minorUnits - floors.reduce(0, +)) else { return nil }
        self.amount = amount
        self.parts = parts
        extraUnits = Self.extras(given, users: parts.map(\.user), remainders: remainders, total: total)
    }

    /// The weights a weighting rule gives `users`, in their order; nil for exact amounts.
    private static func weights(of rule: SplitRule, for users: [UserID]) -> [Int64]? {
        switch rule {
        case .exact: nil
        case .equal: users.map { _ in 1 }
        case .percentages(let points): users.map { Int64(points[$0] ?? 0) }
        case .shares(let shares): users.map { Int64(shares[$0] ?? 0) }
        }
    }

    /// Largest remainder over non-negative integer weights (some positive, summing within
    /// Int64), exact in 128-bit arithmetic.
    static func weighted(_ amount: Money, _ weights: [(UserID, Int64)]) -> ([Part], [ExtraUnit]) {
        let (exact, remainders, total) = quotas(amount, weights.map(\.1))
        var floors = exact
        let leftover = Int(amount.minorUnits - floors.reduce(0, +))
        // Largest remainder first; between equal ones, whoever is listed first.
        let order = weights.indices.sorted { left, right in
            remainders[left] != remainders[right] ? remainders[left] > remainders[right] : left < right
        }
        let given = Array(order.prefix(leftover))
        for index in given { floors[index] += 1 }
        let parts = weights.indices.map { Part(user: weights[$0].0, amount: Money(minorUnits: floors[$0], currency: amount.currency)) }
        return (parts, extras(given, users: weights.map(\.0), remainders: remainders, total: total))
    }

    /// Each weight's exact quota of `amount`: its whole units, what is left of it (over `total`),
    /// and the weights' total.
    private static func quotas(_ amount: Money, _ weights: [Int64]) -> (floors: [Int64], remainders: [Int64], total: Int64) {
        let total = weights.reduce(0, +)
        var floors: [Int64] = []
        var remainders: [Int64] = []
        for weight in weights {
            let product = amount.minorUnits.multipliedFullWidth(by: weight)
            let (quotient, remainder) = total.dividingFullWidth(product)
            floors.append(quotient)
            remainders.append(remainder)
        }
        return (floors, remainders, total)
    }

    /// The leftover units given to the parts at `given`: ranked by remainder, then by place, and
    /// each marked when someone with the same remainder got none.
    private static func extras(_ given: [Int], users: [UserID], remainders: [Int64], total: Int64) -> [ExtraUnit] {
        let ranked = given.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
        let without = Set(users.indices).subtracting(given)
        return ranked.enumerated().map { rank, index in
            let tied = without.contains { remainders[$0] == remainders[index] }
            return ExtraUnit(user: users[index], remainder: remainders[index], denominator: total, rank: rank + 1, wonTie: tied)
        }
    }

    /// The part of one participant.
    public func amount(for user: UserID) -> Money? {
        parts.first { $0.user == user }?.amount
    }

    /// Why each leftover unit went where it did, one sentence each, with names from `name`;
    /// `you` is spoken to ("You get ...").
    public func explanation(naming name: (UserID) -> String, you: UserID? = nil) -> [String] {
        guard !extraUnits.isEmpty else {
            return ["Every part is exact: no unit was left over."]
        }
        let unit = Money(minorUnits: 1, currency: amount.currency)
        return extraUnits.map { extra in
            let who = extra.user == you ? "You get" : "\(name(extra.user)) gets"
            var sentence = "\(who) 1 extra unit (\(unit)): the exact part leaves "
                + "\(extra.remainder)/\(extra.denominator) of a unit, the "
                + (extra.rank == 1 ? "largest remainder" : "remainder ranked \(extra.rank)")
            if extra.wonTie { sentence += ", and ties go to whoever is listed first" }
            return sentence + "."
        }
    }
}

/// Why an amount cannot be split as asked.
public enum SplitProblem: Error, Equatable, Sendable {
    case amountNotPositive
    case noParticipants
    case duplicateParticipant
    case partsDoNotMatchParticipants
    case currencyMismatch
    case negativePart
    case exactSumMismatch(sum: Money?, amount: Money)
    case percentagesSum(basisPoints: Int)
    case percentageTooLarge
    case shareTooLarge
    case noShares

    public var message: String {
        switch self {
        case .amountNotPositive: "The amount must be more than zero."
        case .noParticipants: "Choose at least one person to share it."
        case .duplicateParticipant: "Each person shares an expense once."
        case .partsDoNotMatchParticipants: "Give a part for each person sharing it, and no one else."
        case .currencyMismatch: "Every part must be in the expense's currency."
        case .negativePart: "Parts cannot be negative."
        case .exactSumMismatch(let sum?, let amount): "The parts add up to \(sum), not \(amount)."
        case .exactSumMismatch(nil, let amount): "The parts add up to more than \(amount)."
        case .percentagesSum(let basisPoints):
            "The percentages add up to \(SplitRule.percentText(basisPoints: basisPoints)) %, not 100 %."
        case .percentageTooLarge: "A percentage is at most 100 %."
        case .shareTooLarge: "A share is a whole number from 0 to \(Split.maximumShare)."
        case .noShares: "Give at least one person a share."
        }
    }
}
