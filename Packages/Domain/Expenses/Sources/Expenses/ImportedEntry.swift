import Primitives

/// An expense or a payment read from a file to import, with the key that makes importing the
/// same file twice add it once (``ExpensesService/importEntries(_:by:progress:)``).
public struct ImportedEntry: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case expense(ExpenseDraft)
        /// `from` paid `to` directly (a file's payment names the pair; it is not routed).
        case payment(from: UserID, to: UserID, amount: Money, day: Day, group: GroupID?)
    }

    /// Unique to the entry within its file, and the same in every read of it.
    public var key: String
    public var kind: Kind
    /// The id to give it (from a Flows export), unless one is taken; nil for a new one.
    public var id: ExpenseID?

    public init(key: String, kind: Kind, id: ExpenseID? = nil) {
        self.key = key
        self.kind = kind
        self.id = id
    }

    /// Everyone it names.
    public var people: Set<UserID> {
        switch kind {
        case .expense(let draft): Set(draft.payers.map(\.user) + draft.participants)
        case .payment(let from, let to, _, _, _): [from, to]
        }
    }

    /// The group it is filed under, if any.
    public var group: GroupID? {
        switch kind {
        case .expense(let draft): draft.group
        case .payment(_, _, _, _, let group): group
        }
    }
}

/// Hears an import's progress: how many of its entries are written so far, of how many to write.
/// Called from inside the import's transaction, so it should return at once.
public typealias ImportProgress = @Sendable (_ written: Int, _ total: Int) -> Void
