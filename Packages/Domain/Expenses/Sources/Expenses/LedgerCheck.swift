import Primitives

/// A recount of the whole ledger: every balance worked out again from the expenses and the
/// payments, and compared with the balances kept (which every write maintains, so that reading
/// them never scans expenses). A kept balance that drifted from its recount is the bug class
/// that made SplitPro drop its balance table; this check makes it visible.
///
/// It reads everyone's expenses, so it is not a user's service: it is for the owner of a store
/// (`flows verify`), and a server does not serve it.
public protocol LedgerVerifier: Sendable {
    func verify() async throws(ExpensesError) -> LedgerCheck
}

/// What a recount found.
public struct LedgerCheck: Equatable, Sendable {
    /// A pair's balance in one currency that differs from its recount: minor units `high` owes
    /// `low`, as kept and as recounted (in 128 bits: a recount is not bound by the ledger's limits).
    public struct Difference: Equatable, Sendable {
        public let low: UserID
        public let high: UserID
        public let currency: String
        public let kept: Int64
        public let recounted: Int128
        /// The group whose balance it is; nil for the pair's overall balance.
        public let group: GroupID?

        public init(low: UserID, high: UserID, currency: String, kept: Int64, recounted: Int128, group: GroupID? = nil) {
            self.group = group
            self.low = low
            self.high = high
            self.currency = currency
            self.kept = kept
            self.recounted = recounted
        }
    }

    public var expenses = 0
    public var settlements = 0
    public var balances = 0
    /// Balances within groups read (each pair's in each group and currency).
    public var groupBalances = 0
    public var differences: [Difference] = []
    /// Expenses whose payments or parts do not add up to their amount, and payments whose legs do
    /// not move their amount, with why.
    public var brokenExpenses: [String] = []

    public init() {}

    /// Whether every kept balance matches its recount and every expense adds up.
    public var isSound: Bool { differences.isEmpty && brokenExpenses.isEmpty }

    /// One line: what was read and whether it holds.
    public var summary: String {
        let withinGroups = groupBalances > 0 ? ", \(groupBalances) balances within groups" : ""
        let read = "\(expenses) expenses, \(settlements) payments, \(balances) balances\(withinGroups)"
        return isSound
            ? "Ledger verified: \(read); every balance matches its recount."
            : "Ledger differs: \(read); \(differences.count) balances differ from their recount, \(brokenExpenses.count) expenses or payments do not add up."
    }
}
