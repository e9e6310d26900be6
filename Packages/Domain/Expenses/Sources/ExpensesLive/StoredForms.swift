import Expenses
import ExpensesData
import Primitives

/// Conversions between the domain's values and the store's records, through SaveFormatter.
extension StoredExpense {
    init(_ expense: Expense, rule: SplitRule, createdBy: UserID, createdAt: Double) {
        let ruleValues: [UserID: Int64] = switch rule {
        case .equal: [:]
        case .exact(let parts): parts.mapValues(\.minorUnits)
        case .percentages(let points): points.mapValues(Int64.init)
        case .shares(let shares): shares.mapValues(Int64.init)
        }
        self.init(
            id: expense.id.rawValue,
            description: expense.description,
            amount: expense.amount.minorUnits,
            currency: SaveFormatter.text(expense.amount.currency),
            day: expense.day.description,
            category: SaveFormatter.text(expense.category),
            splitMode: SaveFormatter.text(rule.mode),
            createdBy: createdBy.rawValue,
            createdAt: createdAt,
            payers: expense.payers.map { StoredExpense.Payer(user: $0.user.rawValue, amount: $0.amount.minorUnits) },
            parts: expense.split.parts.map { StoredExpense.Part(user: $0.user.rawValue, amount: $0.amount.minorUnits, ruleValue: ruleValues[$0.user]) },
            note: expense.note,
            version: Int64(expense.version),
            group: expense.group?.rawValue
        )
    }

    /// The expense as the domain knows it, with the parts it was written with: read as kept, and
    /// checked to be what its rule gives (never worked out again, so no later rule moves them).
    func expense() throws -> Expense {
        let currency = try SaveFormatter.value(Currency.self, from: self.currency)
        let users = parts.map { UserID(rawValue: $0.user) }
        let values = Dictionary(uniqueKeysWithValues: parts.map { (UserID(rawValue: $0.user), $0.ruleValue ?? 0) })
        let rule: SplitRule = switch try SaveFormatter.value(SplitMode.self, from: splitMode) {
        case .equal: .equal
        case .exact: .exact(values.mapValues { Money(minorUnits: $0, currency: currency) })
        case .percentages: .percentages(values.mapValues { Int($0) })
        case .shares: .shares(values.mapValues { Int($0) })
        }
        let draft = ExpenseDraft(
            description: description,
            amount: Money(minorUnits: amount, currency: currency),
            day: try Day(day),
            category: try SaveFormatter.value(Category.self, from: category),
            payers: payers.map { Expenses.Payer(user: UserID(rawValue: $0.user), amount: Money(minorUnits: $0.amount, currency: currency)) },
            participants: users,
            rule: rule,
            note: note,
            group: group.map(GroupID.init(rawValue:))
        )
        let recorded = parts.map { (user: UserID(rawValue: $0.user), amount: Money(minorUnits: $0.amount, currency: currency)) }
        guard let split = Split(amount: draft.amount, recorded: recorded, rule: rule) else {
            throw DamagedExpense(id: id)
        }
        guard version >= 1, let version = Int(exactly: version) else { throw DamagedExpense(id: id) }
        return try Expense(id: ExpenseID(rawValue: id), draft: draft, recorded: split, version: version)
    }
}

extension StoredExpense {
    /// The balance changes the expense made as it is kept: from its stored payers and parts in
    /// their stored order, as the recount reads them. Undoing it (an edit, a delete) moves back
    /// exactly these, whatever became of the rule that made them.
    func balanceDeltas() throws -> [PairBalances.Delta] {
        PairBalances.deltas(
            payers: payers.map { (UserID(rawValue: $0.user), $0.amount) },
            parts: parts.map { (UserID(rawValue: $0.user), $0.amount) },
            in: try SaveFormatter.value(Currency.self, from: currency)
        )
    }
}

/// A stored expense whose parts its own rule could not have given.
struct DamagedExpense: Error, CustomStringConvertible {
    let id: String
    var description: String { "the parts of expense \(id) are not what its rule gives" }
}
