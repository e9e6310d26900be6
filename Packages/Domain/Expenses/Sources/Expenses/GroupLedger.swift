import Primitives

/// What one person owes another, within a group, in one currency.
public struct Debt: Equatable, Sendable {
    public let debtor: UserID
    public let creditor: UserID
    /// More than zero.
    public let amount: Money

    public init(debtor: UserID, creditor: UserID, amount: Money) {
        self.debtor = debtor
        self.creditor = creditor
        self.amount = amount
    }
}

/// One of `user`'s balances within a group: what `other` owes them there (negative when they
/// owe `other`). Their overall balance with `other` (``Balance``) includes it.
public struct GroupBalance: Equatable, Sendable {
    public let group: GroupID
    public let other: UserID
    public let amount: Money

    public init(group: GroupID, other: UserID, amount: Money) {
        self.group = group
        self.other = other
        self.amount = amount
    }
}

/// What a group's expenses came to: each member's parts summed, and the amounts by category,
/// per currency (payments are not spending, and are left out).
public struct GroupTotals: Equatable, Sendable {
    public struct Line: Equatable, Sendable {
        /// A member's id, or a category's name.
        public let key: String
        public let amount: Money

        public init(key: String, amount: Money) {
            self.key = key
            self.amount = amount
        }
    }

    /// Each member's parts, the largest first.
    public let byMember: [Line]
    /// Each category's amounts, the largest first.
    public let byCategory: [Line]

    public init(byMember: [Line], byCategory: [Line]) {
        self.byMember = byMember
        self.byCategory = byCategory
    }
}

/// A group as the ledger needs to know it, seen by one of its members: which of the people
/// asked about are in it.
public struct GroupMembers: Equatable, Sendable {
    /// The members among the people asked about (the one asking included).
    public let members: Set<UserID>
    /// An archived group takes no new expenses or payments until it is brought back.
    public let archived: Bool
    /// Whether its suggested payments may ask someone to pay a member they owe nothing.
    public let simplifyDebts: Bool

    public init(members: Set<UserID>, archived: Bool = false, simplifyDebts: Bool = true) {
        self.members = members
        self.archived = archived
        self.simplifyDebts = simplifyDebts
    }
}

/// Who is in a group: the Groups area answers, so that the ledger files under a group only
/// what its members share, and shows a group's ledger to its members only.
public protocol GroupMembership: Sendable {
    /// The group as `user` sees it, with which of `people` (and `user`) are its members; nil
    /// when there is no such group or `user` is not in it. Asked before every write in a
    /// group: it reads only the people asked about, not every member.
    func members(among people: Set<UserID>, of group: GroupID, seenBy user: UserID) async throws -> GroupMembers?
}

/// A ledger with no groups: every expense or payment filed under a group is refused.
public struct NoGroups: GroupMembership {
    public init() {}
    public func members(among people: Set<UserID>, of group: GroupID, seenBy user: UserID) async throws -> GroupMembers? { nil }
}

/// The open balances of a group, for the Groups area's own checks (who may leave, whether it
/// may be archived): the store's owner's read, not a user's, and never served.
public protocol GroupBalanceReading: Sendable {
    /// Every debt within `group`, in every currency.
    func debts(in group: GroupID) async throws(ExpensesError) -> [Debt]
}
