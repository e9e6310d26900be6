import Expenses
import ExpensesData
import Foundation
import Primitives

extension LiveExpensesService {
    public func importEntries(_ entries: [ImportedEntry], by user: UserID, progress: ImportProgress?) async throws(ExpensesError) -> Set<String> {
        var keys: Set<String> = []
        for entry in entries where !keys.insert(entry.key).inserted {
            throw .invalidSettlement("The file names one entry twice (\(entry.key)); nothing was imported.")
        }
        // Who may be named where, once for the whole file.
        var named: [GroupID?: Set<UserID>] = [:]
        for entry in entries {
            guard entry.people.contains(user) else { throw .notInExpense }
            named[entry.group, default: []].formUnion(entry.people)
        }
        for (group, people) in named { try await checkMayName(people, in: group, by: user) }
        try await checkNoBlock(among: named.values.reduce(into: Set<UserID>()) { $0.formUnion($1) }, for: user)

        // One transaction: each entry checked as add and settle check theirs, then written; the
        // first refusal rolls every write back. Entries are built one at a time as they are
        // written (a large file is never held twice), and the balances they move are summed and
        // applied once per pair at the end.
        let at = now().timeIntervalSince1970
        let allKeys = Array(keys)
        let asked = entries.compactMap(\.id?.rawValue)
        return try await storing {
            try await store.write { db in
                let done = try db.importedKeys(of: user.rawValue, among: allKeys)
                // An id asked for is kept unless the ledger has it already.
                let taken = try Set(asked.filter { try db.expense(id: $0) != nil || db.deletedExpense(id: $0) != nil || db.settlement(id: $0) != nil })
                var given: Set<String> = []
                var moved = MovedBalances()
                var added: Set<String> = []
                let total = entries.count - done.count
                // Heard about a hundred times over the import, and at its end.
                let step = max(total / 100, 1)
                for entry in entries where !done.contains(entry.key) {
                    let id: ExpenseID
                    if let asked = entry.id, !taken.contains(asked.rawValue), given.insert(asked.rawValue).inserted {
                        id = asked
                    } else {
                        id = ExpenseID(rawValue: UserID.random(using: random).rawValue)
                    }
                    switch entry.kind {
                    case .expense(let draft):
                        let expense = try checked(id, draft)
                        let stored = StoredExpense(expense, rule: draft.rule, createdBy: user, createdAt: at)
                        try db.insert(stored)
                        try db.insert(record(.added, expense, by: user, kept: stored))
                        try moved.add(expense.balanceDeltas, group: draft.group)
                    case .payment(let from, let to, let amount, let day, let group):
                        if let reason = Settlement.problem(from: from, to: to, amount: amount, by: user) { throw ExpensesError.invalidSettlement(reason) }
                        let settlement = Settlement(id: id, from: from, to: to, amount: amount, day: day, legs: [], group: group)
                        let record = SettlementRecord(
                            id: id.rawValue, from: from.rawValue, to: to.rawValue, amount: amount.minorUnits,
                            currency: SaveFormatter.text(amount.currency), day: day.description, createdBy: user.rawValue, createdAt: at,
                            legs: [], group: group?.rawValue
                        )
                        try db.insert(record)
                        try db.insert(ActivityRecord(
                            id: UserID.random(using: random).rawValue, at: at, actor: user.rawValue, kind: SaveFormatter.text(Activity.Kind.settled),
                            subject: record.id, summary: "Payment, \(amount)", people: [record.from, record.to],
                            snapshot: try Self.kept(record)
                        ))
                        try moved.add(settlement.balanceDeltas, group: group)
                    }
                    try db.recordImport(of: user.rawValue, key: entry.key, subject: id.rawValue, at: at)
                    added.insert(entry.key)
                    if let progress, added.count % step == 0 || added.count == total { progress(added.count, total) }
                }
                try moved.apply(in: db)
                return added
            }
        }
    }

    public func importedKeys(among keys: [String], by user: UserID) async throws(ExpensesError) -> Set<String> {
        try await storing { try await store.read { try $0.importedKeys(of: user.rawValue, among: keys) } }
    }
}

/// The balances an import moves, summed by pair, currency and group, to be applied once each.
struct MovedBalances {
    private struct Key: Hashable, Comparable {
        var pair: PairBalances.Key
        var group: GroupID?

        static func < (left: Key, right: Key) -> Bool {
            (left.pair.low.rawValue, left.pair.high.rawValue, left.pair.currency.code, left.group?.rawValue ?? "")
                < (right.pair.low.rawValue, right.pair.high.rawValue, right.pair.currency.code, right.group?.rawValue ?? "")
        }
    }

    private var units: [Key: Int64] = [:]

    mutating func add(_ deltas: [PairBalances.Delta], group: GroupID?) throws(ExpensesError) {
        for delta in deltas {
            let (pair, amount) = delta.keyed
            let key = Key(pair: pair, group: group)
            let (sum, over) = units[key, default: 0].addingReportingOverflow(amount)
            guard !over else { throw .beyondLimit(pair.currency) }
            units[key] = sum
        }
    }

    /// Each sum applied to the pair's balance (and its balance in the group), in a fixed order;
    /// a balance taken beyond the ledger's limit refuses the whole import.
    func apply(in db: any ExpensesWriting) throws {
        for key in units.keys.sorted() {
            guard let amount = units[key], amount != 0 else { continue }
            let delta = PairBalances.Delta(creditor: key.pair.low, debtor: key.pair.high, amount: Money(minorUnits: amount, currency: key.pair.currency))
            try ExpensesLive.apply([delta], group: key.group?.rawValue, in: db)
        }
    }
}
