import Primitives

/// How an expense's amount is divided among its participants.
public enum SplitRule: Equatable, Sendable {
    /// The same for everyone.
    case equal
    /// Given amounts, which must add up to the expense exactly.
    case exact([UserID: Money])
    /// Percentages in basis points (1 % is 100), which must add up to 100 %.
    case percentages([UserID: Int])
    /// Whole shares: 1, 2 and 3 shares get 1/6, 2/6 and 3/6.
    case shares([UserID: Int])

    /// Basis points as people read a percentage: 3333 is `33.33`, 5000 is `50.00`.
    public static func percentText(basisPoints: Int) -> String {
        let fraction = basisPoints.magnitude % 100
        return "\(basisPoints / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The stored name of the rule.
    public var mode: SplitMode {
        switch self {
        case .equal: .equal
        case .exact: .exact
        case .percentages: .percentages
        case .shares: .shares
        }
    }
}

/// The kind of a split rule, as the store keeps it.
public enum SplitMode: String, Sendable, Codable, CaseIterable, SavedAsText {
    case equal
    case exact
    case percentages
    case shares
}
