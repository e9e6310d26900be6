/// An edit made from version `base` of an expense (offline, say) that the server refused because
/// the expense is now `theirs` (docs/sync.md): both changes, and the edit made again on top of
/// theirs.
public struct EditConflict: Equatable, Sendable {
    /// The expense as the edit's author saw it.
    public let base: Expense
    /// The expense as it is now.
    public let theirs: Expense
    /// What the author asked for.
    public let mine: ExpenseDraft

    public init(base: Expense, theirs: Expense, mine: ExpenseDraft) {
        self.base = base
        self.theirs = theirs
        self.mine = mine
    }

    /// What the others changed since `base`, in words (`the amount (30.00 EUR → 36.00 EUR)`).
    public var theirChanges: [String] { theirs.changes(from: base) }

    /// What the author changed from `base`, in words; empty when their draft is not a valid
    /// expense.
    public var myChanges: [String] {
        (try? Expense(id: base.id, draft: mine)).map { $0.changes(from: base) } ?? []
    }

    /// `Bob Stone changed Dinner while you were offline: the amount (30.00 EUR → 36.00 EUR).
    /// Yours: the description (Dinner → Team dinner).`, naming those who changed it as `who`.
    public func explanation(who: String) -> String {
        let theirs = theirChanges.isEmpty ? "" : ": " + theirChanges.joined(separator: ", ")
        let mine = myChanges.isEmpty ? "" : " Yours: " + myChanges.joined(separator: ", ") + "."
        return "\(who) changed \(base.description) while you were offline\(theirs).\(mine)"
    }

    /// The author's edit made again from `theirs`: each part of the expense the author changed
    /// from `base` as they left it, every other part as it is now.
    public var mineOnTop: ExpenseDraft {
        let (base, theirs, mine) = (base.draft, theirs.draft, mine)
        func pick<T: Equatable>(_ field: KeyPath<ExpenseDraft, T>) -> T { mine[keyPath: field] != base[keyPath: field] ? mine[keyPath: field] : theirs[keyPath: field] }
        var merged = theirs
        merged.description = pick(\.description)
        merged.amount = pick(\.amount)
        merged.day = pick(\.day)
        merged.category = pick(\.category)
        merged.payers = pick(\.payers)
        merged.participants = pick(\.participants)
        merged.rule = pick(\.rule)
        merged.note = pick(\.note)
        merged.group = pick(\.group)
        return merged
    }
}
