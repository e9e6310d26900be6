import Expenses
import ExpensesData
import Foundation
import Primitives

/// A replica's expenses and payments, as pulled: written into the same store the same way the
/// service's own writes leave them (the expense, its balances, its lines of history), so that
/// every read of the service answers on the replica as it does on the server.
extension LiveExpensesService: ExpensesReplica {
    public func put(_ expense: Expense, history: [ExpenseChange], comments: [ExpenseComment]) async throws(ExpensesError) {
        let added = history.first { $0.kind == .added }
        let createdBy = added?.by ?? expense.payers.first?.user ?? UserID(rawValue: "")
        let createdAt = added?.at.timeIntervalSince1970 ?? 0
        let stored = StoredExpense(expense, rule: expense.rule, createdBy: createdBy, createdAt: createdAt)
        let lines = history.enumerated().map { index, change in
            ActivityRecord(
                id: Self.lineID(expense.id, index), at: change.at.timeIntervalSince1970, actor: change.by.rawValue, kind: SaveFormatter.text(change.kind),
                subject: expense.id.rawValue, summary: (change.expense ?? expense).summary,
                people: (change.expense ?? expense).people.map(\.rawValue).sorted(),
                snapshot: change.expense.flatMap { Self.snapshot(StoredExpense($0, rule: $0.rule, createdBy: createdBy, createdAt: createdAt)) }
            )
        }
        let kept = comments.map {
            CommentRecord(id: $0.id.rawValue, expense: expense.id.rawValue, author: $0.author.rawValue, at: $0.at.timeIntervalSince1970, text: $0.text)
        }
        try await storing {
            try await store.write { db in
                if let old = try db.expense(id: stored.id) {
                    try apply(try old.balanceDeltas().map(\.reversed), group: old.group, in: db)
                    try db.deleteExpense(id: stored.id)
                }
                try db.insert(stored)
                try apply(expense.balanceDeltas, group: stored.group, in: db)
                try Self.keep(lines, of: stored.id, in: db)
                let existing = try db.comments(onExpense: stored.id)
                for comment in existing where !kept.contains(where: { $0.id == comment.id }) {
                    _ = try db.deleteComment(id: comment.id, onExpense: stored.id)
                }
                for comment in kept where !existing.contains(where: { $0.id == comment.id }) { try db.insert(comment) }
            }
        }
    }

    public func put(_ payment: Settlement, history: [PaymentChange]) async throws(ExpensesError) {
        let settled = history.first { $0.kind == .settled }
        let record = SettlementRecord(
            id: payment.id.rawValue, from: payment.from.rawValue, to: payment.to.rawValue, amount: payment.amount.minorUnits,
            currency: SaveFormatter.text(payment.amount.currency), day: payment.day.description, createdBy: (settled?.by ?? payment.from).rawValue,
            createdAt: settled?.at.timeIntervalSince1970 ?? 0,
            legs: payment.legs.map { SettlementRecord.Leg(creditor: $0.creditor.rawValue, debtor: $0.debtor.rawValue, amount: $0.amount.minorUnits) },
            group: payment.group?.rawValue,
            conversion: payment.conversion.map {
                SettlementRecord.Conversion(
                    amount: $0.amount.minorUnits, currency: SaveFormatter.text($0.amount.currency), rateBase: SaveFormatter.text($0.rate.base),
                    rate: $0.rate.rate.description, source: $0.source
                )
            }
        )
        try await storing {
            try await store.write { db in
                let snapshot = try Self.kept(record)
                let lines = history.enumerated().map { index, change in
                    ActivityRecord(
                        id: Self.lineID(payment.id, index), at: change.at.timeIntervalSince1970, actor: change.by.rawValue, kind: SaveFormatter.text(change.kind),
                        subject: payment.id.rawValue, summary: (change.payment ?? payment).summary(takenBack: change.kind == .unsettled),
                        people: ([payment.from, payment.to] + payment.through).map(\.rawValue), snapshot: snapshot
                    )
                }
                if let old = try db.settlement(id: record.id) {
                    try apply(try Self.settlement(from: old).balanceDeltas.map(\.reversed), group: old.group, in: db)
                    try db.deleteSettlement(id: record.id)
                }
                try db.insert(record)
                try apply(payment.balanceDeltas, group: record.group, in: db)
                try Self.keep(lines, of: record.id, in: db)
            }
        }
    }

    public func removeExpense(_ id: ExpenseID) async throws(ExpensesError) {
        try await storing {
            try await store.write { db in
                guard let old = try db.expense(id: id.rawValue) else { return }
                try apply(try old.balanceDeltas().map(\.reversed), group: old.group, in: db)
                try db.deleteExpense(id: id.rawValue)
            }
        }
    }

    public func removePayment(_ id: ExpenseID) async throws(ExpensesError) {
        try await storing {
            try await store.write { db in
                guard let old = try db.settlement(id: id.rawValue) else { return }
                try apply(try Self.settlement(from: old).balanceDeltas.map(\.reversed), group: old.group, in: db)
                try db.deleteSettlement(id: id.rawValue)
            }
        }
    }

    /// The id of line `index` of the history of `id` on a replica: the same each time it is
    /// pulled, so a line is written once.
    private static func lineID(_ id: ExpenseID, _ index: Int) -> String { "\(id.rawValue).\(index)" }

    /// Writes the lines of history not kept yet.
    private static func keep(_ lines: [ActivityRecord], of id: String, in db: any ExpensesWriting) throws {
        let known = Set(try db.changes(ofExpense: id).map(\.id))
        for line in lines where !known.contains(line.id) { try db.insert(line) }
    }
}
