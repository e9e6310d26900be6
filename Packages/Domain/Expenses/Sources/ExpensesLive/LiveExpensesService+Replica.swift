import Expenses
import ExpensesData
import Foundation
import Primitives

/// A replica's expenses and payments, as pulled: written into the same store the same way the
/// service's own writes leave them (the expense, its balances, its comments; the lines of
/// activity as the server keeps them), so that every read of the service answers on the replica
/// as it does on the server.
extension LiveExpensesService: ExpensesReplica {
    public func put(_ expense: Expense, history: [ExpenseChange], comments: [ExpenseComment], deleted: Bool) async throws(ExpensesError) {
        let added = history.first { $0.kind == .added }
        let deletion = history.last { $0.kind == .deleted }
        let createdBy = added?.by ?? expense.payers.first?.user ?? UserID(rawValue: "")
        let createdAt = added?.at.timeIntervalSince1970 ?? 0
        let stored = StoredExpense(expense, rule: expense.rule, createdBy: createdBy, createdAt: createdAt)
        let kept = comments.map {
            CommentRecord(id: $0.id.rawValue, expense: expense.id.rawValue, author: $0.author.rawValue, at: $0.at.timeIntervalSince1970, text: $0.text)
        }
        try await storing {
            try await store.write { db in
                try Self.forget(stored.id, in: db)
                try db.insert(stored)
                if deleted {
                    try db.moveToDeleted(id: stored.id, by: (deletion?.by ?? createdBy).rawValue, at: deletion?.at.timeIntervalSince1970 ?? createdAt)
                } else {
                    try apply(expense.balanceDeltas, group: stored.group, in: db)
                }
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
        let record = Self.record(of: payment, by: settled?.by ?? payment.from, at: settled?.at.timeIntervalSince1970 ?? 0)
        try await storing {
            try await store.write { db in
                if let old = try db.settlement(id: record.id) {
                    try apply(try Self.settlement(from: old).balanceDeltas.map(\.reversed), group: old.group, in: db)
                    try db.deleteSettlement(id: record.id)
                }
                try db.insert(record)
                try apply(payment.balanceDeltas, group: record.group, in: db)
            }
        }
    }

    public func put(_ line: ActivityLine) async throws(ExpensesError) {
        let activity = line.activity
        let (at, actor) = (activity.at.timeIntervalSince1970, activity.actor)
        let snapshot: String?
        if let expense = line.expense {
            snapshot = Self.snapshot(StoredExpense(expense, rule: expense.rule, createdBy: actor, createdAt: at))
        } else if let payment = line.payment {
            snapshot = try? Self.kept(Self.record(of: payment, by: actor, at: at))
        } else {
            snapshot = nil
        }
        let record = ActivityRecord(
            id: line.id, at: at, actor: actor.rawValue, kind: SaveFormatter.text(activity.kind), subject: activity.subject.rawValue,
            summary: activity.summary, people: line.people.map(\.rawValue), snapshot: snapshot
        )
        try await storing {
            try await store.write { db in
                guard try !db.changes(ofExpense: record.subject).contains(where: { $0.id == record.id }) else { return }
                try db.insert(record)
            }
        }
    }

    /// A payment as the store keeps it, recorded by `by` at `at`.
    private static func record(of payment: Settlement, by: UserID, at: Double) -> SettlementRecord {
        SettlementRecord(
            id: payment.id.rawValue, from: payment.from.rawValue, to: payment.to.rawValue, amount: payment.amount.minorUnits,
            currency: SaveFormatter.text(payment.amount.currency), day: payment.day.description, createdBy: by.rawValue, createdAt: at,
            legs: payment.legs.map { SettlementRecord.Leg(creditor: $0.creditor.rawValue, debtor: $0.debtor.rawValue, amount: $0.amount.minorUnits) },
            group: payment.group?.rawValue,
            conversion: payment.conversion.map {
                SettlementRecord.Conversion(
                    amount: $0.amount.minorUnits, currency: SaveFormatter.text($0.amount.currency), rateBase: SaveFormatter.text($0.rate.base),
                    rate: $0.rate.rate.description, source: $0.source
                )
            }
        )
    }

    public func removeExpense(_ id: ExpenseID) async throws(ExpensesError) {
        try await storing { try await store.write { db in try Self.forget(id.rawValue, in: db) } }
    }

    /// Forgets what is kept of expense `id`: its row and balances, or its row among the deleted.
    private static func forget(_ id: String, in db: any ExpensesWriting) throws(ExpensesError) {
        do {
            if let old = try db.expense(id: id) {
                try apply(try old.balanceDeltas().map(\.reversed), group: old.group, in: db)
                try db.deleteExpense(id: id)
            }
            if try db.deletedExpense(id: id) != nil {
                try db.restoreDeleted(id: id)
                try db.deleteExpense(id: id)
            }
        } catch let error as ExpensesError {
            throw error
        } catch {
            throw .storeUnavailable("\(error)")
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
}

/// The lines of activity a server tells a replica of: read from the store as kept, each for a
/// user whose activity shows it.
extension LiveExpensesService: ExpensesSyncSource {
    public func deletedExpense(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Expense? {
        let found = try await storing { try await store.read { db in try db.deletedExpense(id: id.rawValue)?.expense() } }
        return found.flatMap { $0.people.contains(user) ? $0 : nil }
    }

    public func activityLine(_ id: String, of subject: ExpenseID, for user: UserID) async throws(ExpensesError) -> ActivityLine? {
        let subjectID = subject.rawValue
        let records = try await storing { try await store.read { db in try db.changes(ofExpense: subjectID) } }
        guard let record = records.first(where: { $0.id == id }), record.people.contains(user.rawValue) else { return nil }
        guard let kind = try? SaveFormatter.value(Activity.Kind.self, from: record.kind) else {
            throw .storeUnavailable("the activity \(record.id) has an unknown kind")
        }
        var (expense, payment): (Expense?, Settlement?) = (nil, nil)
        if let snapshot = record.snapshot {
            let decoder = JSONDecoder()
            if [.settled, .unsettled].contains(kind) {
                guard let kept = try? decoder.decode(SettlementRecord.self, from: Data(snapshot.utf8)) else {
                    throw .storeUnavailable("the change \(record.id) keeps a damaged payment")
                }
                payment = try Self.settlement(from: kept)
            } else if kind != .commented {
                do { expense = try decoder.decode(StoredExpense.self, from: Data(snapshot.utf8)).expense() } catch {
                    throw .storeUnavailable("the change \(record.id) keeps a damaged expense")
                }
            }
        }
        let activity = Activity(kind: kind, actor: UserID(rawValue: record.actor), subject: subject, summary: record.summary, at: Date(timeIntervalSince1970: record.at))
        return ActivityLine(id: record.id, activity: activity, people: record.people.map(UserID.init(rawValue:)), expense: expense, payment: payment)
    }

    public func activityLines(of user: UserID) async throws(ExpensesError) -> [(subject: ExpenseID, id: String)] {
        var lines: [(subject: ExpenseID, id: String)] = []
        let (me, size) = (user.rawValue, 1_000)
        var offset = 0
        while true {
            let page = try await storing { [offset] in try await store.read { db in try db.activity(of: me, offset: offset, limit: size) } }
            lines.append(contentsOf: page.map { (ExpenseID(rawValue: $0.subject), $0.id) })
            guard page.count == size else { break }
            offset += size
        }
        // Read newest first; told oldest first, so that a replica keeps them in their order.
        return lines.reversed()
    }
}
