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
        try await put([.expense(expense, history: history, comments: comments, deleted: deleted)])
    }

    public func put(_ items: [PulledExpenses]) async throws(ExpensesError) {
        guard !items.isEmpty else { return }
        let writes = try items.map { item throws(ExpensesError) -> PulledWrite in
            switch item {
            case .expense(let expense, let history, let comments, let deleted): .expense(Self.kept(expense, history: history, comments: comments, deleted: deleted))
            case .line(let line): .line(try Self.record(of: line))
            }
        }
        try await storing {
            try await store.write { db in
                for write in writes {
                    switch write {
                    case .expense(let kept): try Self.write(kept, in: db)
                    case .line(let record): try Self.write(record, in: db)
                    }
                }
            }
        }
    }

    /// An expense as a pull puts it: its row, whether it is deleted (by whom, when), and its
    /// comments.
    private struct KeptExpense {
        let stored: StoredExpense
        let expense: Expense
        let deletion: (by: String, at: Double)?
        let comments: [CommentRecord]
    }

    /// What one item of a pull writes.
    private enum PulledWrite {
        case expense(KeptExpense)
        case line(ActivityRecord)
    }

    private static func kept(_ expense: Expense, history: [ExpenseChange], comments: [ExpenseComment], deleted: Bool) -> KeptExpense {
        let added = history.first { $0.kind == .added }
        let deletion = history.last { $0.kind == .deleted }
        let createdBy = added?.by ?? expense.payers.first?.user ?? UserID(rawValue: "")
        // Kept as the server keeps it: an edit writes the expense again as of its own time, and
        // the lists show the newest first by it.
        let written = history.last { $0.kind == .added || $0.kind == .edited }
        let createdAt = written?.at.timeIntervalSince1970 ?? 0
        let stored = StoredExpense(expense, rule: expense.rule, createdBy: createdBy, createdAt: createdAt)
        let kept = comments.map {
            CommentRecord(id: $0.id.rawValue, expense: expense.id.rawValue, author: $0.author.rawValue, at: $0.at.timeIntervalSince1970, text: $0.text)
        }
        return KeptExpense(
            stored: stored, expense: expense, deletion: deleted ? ((deletion?.by ?? createdBy).rawValue, deletion?.at.timeIntervalSince1970 ?? createdAt) : nil,
            comments: kept
        )
    }

    private static func write(_ kept: KeptExpense, in db: any ExpensesWriting) throws {
        let stored = kept.stored
        try forget(stored.id, in: db)
        try db.insert(stored)
        if let deletion = kept.deletion {
            try db.moveToDeleted(id: stored.id, by: deletion.by, at: deletion.at)
            // A deleted expense's comments cannot be read on the server: those kept stay.
            return
        }
        try apply(kept.expense.balanceDeltas, group: stored.group, in: db)
        let existing = try db.comments(onExpense: stored.id)
        // Gone, or kept otherwise (one written here offline, as the server took it then).
        for comment in existing where !kept.comments.contains(comment) {
            _ = try db.deleteComment(id: comment.id, onExpense: stored.id)
        }
        for comment in kept.comments where !existing.contains(comment) { try db.insert(comment) }
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
        try await put([.line(line)])
    }

    /// A line of activity as the store keeps it.
    private static func record(of line: ActivityLine) throws(ExpensesError) -> ActivityRecord {
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
        return ActivityRecord(
            id: line.id, at: at, actor: actor.rawValue, kind: SaveFormatter.text(activity.kind), subject: activity.subject.rawValue,
            summary: activity.summary, people: line.people.map(\.rawValue), snapshot: snapshot
        )
    }

    /// Keeps a line, once.
    private static func write(_ record: ActivityRecord, in db: any ExpensesWriting) throws {
        guard try !db.changes(ofExpense: record.subject).contains(where: { $0.id == record.id }) else { return }
        try db.insert(record)
    }

    public func put(_ kept: KeptSeries) async throws(ExpensesError) {
        let template = kept.template
        let record: SeriesRecord
        do {
            record = try Self.record(
                kept.series, template: StoredExpense(template, rule: template.rule, createdBy: kept.series.createdBy, createdAt: kept.madeAt.timeIntervalSince1970),
                at: kept.madeAt.timeIntervalSince1970
            )
        } catch {
            throw .storeUnavailable("the series \(kept.series.id) cannot be kept: \(error)")
        }
        try await storing {
            try await store.write { db in
                if try db.series(id: record.id) != nil { try db.update(record) } else { try db.insert(record) }
                for occurrence in kept.occurrences {
                    _ = try db.claimOccurrence(series: record.id, day: occurrence.day.description, expense: occurrence.expense.rawValue)
                }
            }
        }
    }

    public func removeSeries(_ id: SeriesID, for user: UserID) async throws(ExpensesError) {
        // Kept without the user, as the server keeps it: no read of theirs shows it then.
        try await storing {
            try await store.write { db in
                guard var record = try db.series(id: id.rawValue), record.people.contains(user.rawValue) else { return }
                record.people.removeAll { $0 == user.rawValue }
                try db.update(record)
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

    public func removeLine(_ id: String, of subject: ExpenseID) async throws(ExpensesError) {
        try await storing { try await store.write { db in try db.deleteActivity(id: id, subject: subject.rawValue) } }
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
    public func keptSeries(_ id: SeriesID, for user: UserID) async throws(ExpensesError) -> KeptSeries? {
        let found = try await storing {
            try await store.read { db -> (SeriesRecord, [(day: String, expense: String)])? in
                guard let record = try db.series(id: id.rawValue) else { return nil }
                return (record, try db.occurrences(ofSeries: id.rawValue))
            }
        }
        guard let (record, occurrences) = found, record.people.contains(user.rawValue) else { return nil }
        let series = try Self.series(from: record)
        guard let template = try? JSONDecoder().decode(StoredExpense.self, from: Data(record.template.utf8)).expense() else {
            throw .storeUnavailable("the series \(record.id) keeps a damaged expense")
        }
        return KeptSeries(
            series: series, template: template, madeAt: Date(timeIntervalSince1970: record.createdAt),
            occurrences: occurrences.compactMap { occurrence in
                (try? Day(occurrence.day)).map { KeptSeries.Occurrence(day: $0, expense: ExpenseID(rawValue: occurrence.expense)) }
            }
        )
    }

    public func seriesIDs(of user: UserID) async throws(ExpensesError) -> [SeriesID] {
        let me = user.rawValue
        return try await storing { try await store.read { db in try db.series(of: me).map { SeriesID(rawValue: $0.id) } } }
    }

    public func deletedExpense(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Expense? {
        let found = try await storing { try await store.read { db in try db.deletedExpense(id: id.rawValue)?.expense() } }
        return found.flatMap { $0.people.contains(user) ? $0 : nil }
    }

    public func payment(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> PulledPayment? {
        let (record, changes) = try await storing { try await store.read { db in (try db.settlement(id: id.rawValue), try db.changes(ofExpense: id.rawValue)) } }
        guard let record else { return nil }
        let payment = try Self.settlement(from: record)
        if record.people.contains(user.rawValue) { return PulledPayment(payment: payment, history: try await paymentHistory(of: id, for: user)) }
        // In its group's ledger: who recorded it and when (its order there), not how it was.
        guard let group = payment.group, try await isMember(user, of: group) else { return nil }
        let (settled, unsettled) = (SaveFormatter.text(Activity.Kind.settled), SaveFormatter.text(Activity.Kind.unsettled))
        return PulledPayment(
            payment: payment,
            history: changes.filter { [settled, unsettled].contains($0.kind) }.map { record in
                PaymentChange(
                    kind: record.kind == settled ? .settled : .unsettled, by: UserID(rawValue: record.actor), at: Date(timeIntervalSince1970: record.at),
                    payment: nil
                )
            }
        )
    }

    public func ledgerIDs(of group: GroupID) async throws(ExpensesError) -> (expenses: [ExpenseID], payments: [ExpenseID]) {
        let key = group.rawValue
        let everything = Int(Int32.max)
        return try await storing {
            try await store.read { db in
                (
                    try db.expenseIDs(inGroup: key, offset: 0, limit: everything).map(ExpenseID.init(rawValue:)),
                    try db.settlements(inGroup: key, offset: 0, limit: everything).map { ExpenseID(rawValue: $0.id) }
                )
            }
        }
    }

    public func activityLine(_ id: String, of subject: ExpenseID, for user: UserID) async throws(ExpensesError) -> ActivityLine? {
        let subjectID = subject.rawValue
        let records = try await storing { try await store.read { db in try db.changes(ofExpense: subjectID) } }
        guard let record = records.first(where: { $0.id == id }) else { return nil }
        return try Self.shown(record, to: user)
    }

    /// Line `record` as `user`'s activity shows it; nil when it does not.
    private static func shown(_ record: ActivityRecord, to user: UserID) throws(ExpensesError) -> ActivityLine? {
        guard record.people.contains(user.rawValue) else { return nil }
        let line = try Self.line(from: record)
        // The expense as the change left it goes only to someone in it then: a line also tells
        // those an edit took out, who see its summary, never the expense they are no longer in.
        if let then = line.expense, !then.people.contains(user) { return ActivityLine(id: line.id, activity: line.activity, people: line.people) }
        if let then = line.payment, !([then.from, then.to] + then.through).contains(user) {
            return ActivityLine(id: line.id, activity: line.activity, people: line.people)
        }
        return line
    }

    public func historyLines(of id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [ActivityLine] {
        let (current, records) = try await storing {
            try await store.read { db in
                (try (db.expense(id: id.rawValue) ?? db.deletedExpense(id: id.rawValue))?.expense(), try db.changes(ofExpense: id.rawValue))
            }
        }
        // As its history: only someone in it sees how it came to be.
        guard let current, current.people.contains(user) else { return [] }
        let kinds = [Activity.Kind.added, .edited, .deleted, .restored].map { SaveFormatter.text($0) }
        return try records.filter { kinds.contains($0.kind) }.map { record throws(ExpensesError) in try Self.line(from: record) }
    }

    /// An expense's history as a pull tells it to `user`, from the lines of its activity
    /// (``pullRead(expenses:lines:for:)``); with no user, who changed it when alone.
    private static func told(_ records: [ActivityRecord], to user: UserID?) throws(ExpensesError) -> (history: [ExpenseChange], untold: [ActivityLine]) {
        var (history, untold): ([ExpenseChange], [ActivityLine]) = ([], [])
        for record in records {
            guard let kind = try? SaveFormatter.value(Activity.Kind.self, from: record.kind) else {
                throw .storeUnavailable("the activity \(record.id) has an unknown kind")
            }
            guard [.added, .edited, .deleted, .restored].contains(kind) else { continue }
            history.append(ExpenseChange(kind: kind, by: UserID(rawValue: record.actor), at: Date(timeIntervalSince1970: record.at), expense: nil))
            if let user, !record.people.contains(user.rawValue) { untold.append(try Self.line(from: record)) }
        }
        return (history, untold)
    }

    public func expenseIDs(of user: UserID) async throws(ExpensesError) -> (current: [ExpenseID], deleted: [ExpenseID]) {
        let me = user.rawValue
        return try await storing {
            try await store.read { db in
                func all(_ page: (_ offset: Int, _ limit: Int) throws -> [String]) throws -> [ExpenseID] {
                    var ids: [ExpenseID] = []
                    let size = 10_000
                    while true {
                        let found = try page(ids.count, size)
                        ids += found.map(ExpenseID.init(rawValue:))
                        if found.count < size { return ids }
                    }
                }
                return (
                    try all { try db.expenseIDs(of: me, offset: $0, limit: $1) },
                    try all { try db.deletedExpenseIDs(of: me, offset: $0, limit: $1) }
                )
            }
        }
    }

    public func pullRead(expenses ids: [ExpenseID], lines: [(subject: ExpenseID, id: String)], for user: UserID) async throws(ExpensesError) -> ExpensesPullRead {
        guard !ids.isEmpty || !lines.isEmpty else { return ExpensesPullRead() }
        let keys = lines.map { (subject: $0.subject.rawValue, id: $0.id) }
        // As kept: each expense (or deleted one) with its lines and comments, and each line; a
        // subject's lines read once for both.
        let (kept, found) = try await storing {
            try await store.read { db in
                var read: [String: [ActivityRecord]] = [:]
                func changes(of subject: String) throws -> [ActivityRecord] {
                    if let kept = read[subject] { return kept }
                    let records = try db.changes(ofExpense: subject)
                    read[subject] = records
                    return records
                }
                var kept: [(expense: Expense, deleted: Bool, changes: [ActivityRecord], comments: [CommentRecord])] = []
                for id in ids {
                    if let stored = try db.expense(id: id.rawValue) {
                        kept.append((try stored.expense(), false, try changes(of: id.rawValue), try db.comments(onExpense: id.rawValue)))
                    } else if let stored = try db.deletedExpense(id: id.rawValue) {
                        kept.append((try stored.expense(), true, try changes(of: id.rawValue), []))
                    }
                }
                let found = try keys.compactMap { key in try changes(of: key.subject).first { $0.id == key.id } }
                return (kept, found)
            }
        }
        var read = ExpensesPullRead()
        var member: [GroupID: Bool] = [:]
        for (expense, deleted, changes, comments) in kept {
            if expense.people.contains(user) {
                let (history, untold) = try Self.told(changes, to: user)
                read.expenses[expense.id] = PulledExpense(
                    expense: expense, history: history, comments: comments.map(Self.comment(from:)), deleted: deleted, untold: untold
                )
                continue
            }
            // In its group's ledger, to its members: the expense, and who changed it when (its
            // order there); not its comments or lines, which only those in it read.
            guard !deleted, let group = expense.group else { continue }
            if member[group] == nil { member[group] = try await isMember(user, of: group) }
            guard member[group] == true else { continue }
            let history = try Self.told(changes, to: nil).history
            read.expenses[expense.id] = PulledExpense(expense: expense, history: history, comments: [], deleted: false, untold: [])
        }
        for record in found {
            if let line = try Self.shown(record, to: user) { read.lines.append(line) }
        }
        return read
    }

    public func lineIDs(of subject: ExpenseID, for user: UserID) async throws(ExpensesError) -> [String] {
        let records = try await storing { try await store.read { db in try db.changes(ofExpense: subject.rawValue) } }
        return records.filter { $0.people.contains(user.rawValue) }.map(\.id)
    }

    /// A line as the store keeps it, whole.
    private static func line(from record: ActivityRecord) throws(ExpensesError) -> ActivityLine {
        let subject = ExpenseID(rawValue: record.subject)
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
        let me = user.rawValue
        return try await storing { try await store.read { db in try db.activityKeys(of: me).map { (ExpenseID(rawValue: $0.subject), $0.id) } } }
    }
}
