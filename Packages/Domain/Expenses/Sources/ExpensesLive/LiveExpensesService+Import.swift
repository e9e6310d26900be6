import Expenses
import ExpensesData
import Foundation
import Primitives

extension LiveExpensesService {
    public func importEntries(_ entries: [ImportedEntry], by user: UserID) async throws(ExpensesError) -> Set<String> {
        var keys: Set<String> = []
        for entry in entries where !keys.insert(entry.key).inserted {
            throw .invalidSettlement("The file names one entry twice (\(entry.key)); nothing was imported.")
        }
        // Every entry as add and settle check theirs, before anything is written.
        var written: [(key: String, write: Write)] = []
        var named: [GroupID?: Set<UserID>] = [:]
        // An id asked for is kept unless the ledger has it already.
        let asked = entries.compactMap(\.id?.rawValue)
        let taken = asked.isEmpty ? [] : try await storing {
            try await store.read { db in try Set(asked.filter { try db.expense(id: $0) != nil || db.deletedExpense(id: $0) != nil || db.settlement(id: $0) != nil }) }
        }
        var given: Set<String> = []
        let newID = { (entry: ImportedEntry) -> ExpenseID in
            if let id = entry.id, !taken.contains(id.rawValue), given.insert(id.rawValue).inserted { return id }
            return ExpenseID(rawValue: UserID.random(using: self.random).rawValue)
        }
        for entry in entries {
            guard entry.people.contains(user) else { throw .notInExpense }
            named[entry.group, default: []].formUnion(entry.people)
            switch entry.kind {
            case .expense(let draft):
                let expense = try checked(newID(entry), draft)
                let stored = StoredExpense(expense, rule: draft.rule, createdBy: user, createdAt: now().timeIntervalSince1970)
                let addition = ExpenseAddition(
                    expense: stored, balanceChanges: expense.balanceDeltas.map(BalanceChange.init),
                    activity: record(.added, expense, by: user, kept: stored), balanceLimit: LedgerLimits.maximumAmount
                )
                written.append((entry.key, .expense(addition, expense.amount.currency)))
            case .payment(let from, let to, let amount, let day, let group):
                if let reason = Settlement.problem(from: from, to: to, amount: amount, by: user) { throw .invalidSettlement(reason) }
                let id = newID(entry)
                written.append((entry.key, .payment(Settlement(id: id, from: from, to: to, amount: amount, day: day, legs: [], group: group))))
            }
        }
        for (group, people) in named { try await checkMayName(people, in: group, by: user) }
        try await checkNoBlock(among: named.values.reduce(into: Set<UserID>()) { $0.formUnion($1) }, for: user)

        let at = now().timeIntervalSince1970
        let activityIDs = written.map { _ in UserID.random(using: random).rawValue }
        let allKeys = Array(keys)
        let writes = zip(written, activityIDs).map { ($0.0.key, $0.0.write, $0.1) }
        return try await storing {
            try await store.write { db in
                let done = try Self.alreadyThere(allKeys, for: user, in: db)
                var added: Set<String> = []
                for (key, write, activityID) in writes where !done.contains(key) {
                    switch write {
                    case .expense(let addition, let currency):
                        do {
                            try db.add(addition)
                        } catch ExpensesDataError.outOfRange {
                            throw ExpensesError.beyondLimit(currency)
                        }
                        try db.recordImport(of: user.rawValue, key: key, subject: addition.expense.id, at: at)
                    case .payment(let settlement):
                        let record = SettlementRecord(
                            id: settlement.id.rawValue, from: settlement.from.rawValue, to: settlement.to.rawValue, amount: settlement.amount.minorUnits,
                            currency: SaveFormatter.text(settlement.amount.currency), day: settlement.day.description, createdBy: user.rawValue, createdAt: at,
                            legs: [], group: settlement.group?.rawValue
                        )
                        try db.insert(record)
                        try apply(settlement.balanceDeltas, group: record.group, in: db)
                        try db.insert(ActivityRecord(
                            id: activityID, at: at, actor: user.rawValue, kind: SaveFormatter.text(Activity.Kind.settled),
                            subject: record.id, summary: "Payment, \(settlement.amount)", people: [record.from, record.to],
                            snapshot: try Self.kept(record)
                        ))
                        try db.recordImport(of: user.rawValue, key: key, subject: record.id, at: at)
                    }
                    added.insert(key)
                }
                return added
            }
        }
    }

    public func importedKeys(among keys: [String], by user: UserID) async throws(ExpensesError) -> Set<String> {
        try await storing { try await store.read { try Self.alreadyThere(keys, for: user, in: $0) } }
    }

    /// The keys the user imported before, and those that are the id of an expense or a payment
    /// of theirs (a Flows export read back into the ledger it came from).
    static func alreadyThere(_ keys: [String], for user: UserID, in db: any ExpensesReading) throws -> Set<String> {
        var found = try db.importedKeys(of: user.rawValue, among: keys)
        for key in keys where !found.contains(key) {
            if let expense = try db.expense(id: key), expense.payers.contains(where: { $0.user == user.rawValue }) || expense.parts.contains(where: { $0.user == user.rawValue }) {
                found.insert(key)
            } else if let payment = try db.settlement(id: key), payment.from == user.rawValue || payment.to == user.rawValue {
                found.insert(key)
            }
        }
        return found
    }

    /// An entry, checked, ready to write.
    enum Write: Sendable {
        case expense(ExpenseAddition, Currency)
        case payment(Settlement)
    }
}
