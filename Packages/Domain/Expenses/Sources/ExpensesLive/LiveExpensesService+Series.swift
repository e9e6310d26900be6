import Expenses
import ExpensesData
import Foundation
import Primitives

extension LiveExpensesService: RecurringExpenses, DueOccurrencesRound {
    /// The most occurrences one round creates for one series: a series left alone for years
    /// catches up over a few rounds rather than in one long write.
    static let catchUpLimit = 400

    public func repeatExpense(
        _ id: ExpenseID, every frequency: Recurrence.Frequency, until end: Recurrence.End?, as given: SeriesID?, by user: UserID
    ) async throws(ExpensesError) -> ExpenseSeries {
        let seriesID = given ?? SeriesID(rawValue: UserID.random(using: random).rawValue)
        let at = now().timeIntervalSince1970
        return try await storing {
            try await store.write { db in
                guard let stored = try db.expense(id: id.rawValue) else { throw ExpensesError.notFound(id) }
                let expense = try stored.expense()
                guard expense.people.contains(user) else { throw ExpensesError.notFound(id) }
                let recurrence: Recurrence
                do throws(RecurrenceProblem) {
                    recurrence = try Recurrence(start: expense.day, frequency: frequency, end: end)
                } catch {
                    throw ExpensesError.invalidRepeat(error)
                }
                if given != nil, let kept = try db.series(id: seriesID.rawValue) {
                    // The same write again (its answer was lost): the series as it is.
                    guard kept.createdBy == user.rawValue, try db.occurrence(ofExpense: id.rawValue)?.series == kept.id else {
                        throw ExpensesError.idTaken(ExpenseID(rawValue: seriesID.rawValue))
                    }
                    return try Self.series(from: kept)
                }
                guard try db.occurrence(ofExpense: id.rawValue) == nil else {
                    throw ExpensesError.invalidSettlement("This expense repeats already: change or stop its series instead.")
                }
                // The first occurrence is the expense itself, on its own day.
                let series = ExpenseSeries(id: seriesID, template: expense.draft, recurrence: recurrence, createdBy: user, version: 1)
                try db.insert(try Self.record(series, template: stored, at: at))
                _ = try db.claimOccurrence(series: seriesID.rawValue, day: expense.day.description, expense: id.rawValue)
                return series
            }
        }
    }

    public func series(of user: UserID, after day: Day) async throws(ExpensesError) -> [UpcomingOccurrence] {
        let records = try await storing { try await store.read { try $0.series(of: user.rawValue) } }
        return try records.map { record throws(ExpensesError) in
            let series = try Self.series(from: record)
            return UpcomingOccurrence(series: series, next: series.recurrence.next(after: day)?.day)
        }
    }

    public func series(containing id: ExpenseID, for user: UserID) async throws(ExpensesError) -> ExpenseSeries? {
        let record = try await storing {
            try await store.read { db -> SeriesRecord? in try db.occurrence(ofExpense: id.rawValue).flatMap { try db.series(id: $0.series) } }
        }
        guard let record, record.people.contains(user.rawValue) else { return nil }
        return try Self.series(from: record)
    }

    public func editSeries(_ id: SeriesID, to template: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> ExpenseSeries {
        let draft = template
        let at = now().timeIntervalSince1970
        // Checked as an added expense is; it is dated at the series' start once read inside the write.
        let checkedTemplate = try checked(ExpenseID(rawValue: id.rawValue), draft)
        guard checkedTemplate.people.contains(user) else { throw .notInExpense }
        try await checkMayName(checkedTemplate.people, in: checkedTemplate.group, by: user)
        let stored = StoredExpense(checkedTemplate, rule: draft.rule, createdBy: user, createdAt: at)
        return try await storing {
            try await store.write { db in
                guard let record = try db.series(id: id.rawValue), record.people.contains(user.rawValue) else { throw ExpensesError.seriesNotFound(id) }
                let old = try Self.series(from: record)
                var dated = draft
                dated.day = old.recurrence.start
                var kept = stored
                kept.day = old.recurrence.start.description
                let series = ExpenseSeries(id: id, template: dated, recurrence: old.recurrence, createdBy: old.createdBy, version: old.version + 1)
                var updated = try Self.record(series, template: kept, at: record.createdAt)
                updated.createdBy = record.createdBy
                try db.update(updated)
                return series
            }
        }
    }

    public func stopSeries(_ id: SeriesID, after day: Day, by user: UserID) async throws(ExpensesError) -> ExpenseSeries {
        try await storing {
            try await store.write { db in
                guard var record = try db.series(id: id.rawValue), record.people.contains(user.rawValue) else { throw ExpensesError.seriesNotFound(id) }
                let old = try Self.series(from: record)
                // The day before the start, for a series stopped before it began: it never falls.
                let last = max(day, old.recurrence.start)
                let ended: Recurrence
                do throws(RecurrenceProblem) {
                    ended = try Recurrence(start: old.recurrence.start, frequency: old.recurrence.frequency, end: .on(last))
                } catch {
                    throw ExpensesError.invalidRepeat(error)
                }
                record.endDay = last.description
                record.endCount = nil
                record.version += 1
                try db.update(record)
                return ExpenseSeries(id: id, template: old.template, recurrence: ended, createdBy: old.createdBy, version: record.version)
            }
        }
    }

    public func createDueOccurrences(through day: Day, for user: UserID) async throws(ExpensesError) -> [Expense] {
        let records = try await storing { try await store.read { try $0.series(of: user.rawValue) } }
        var created: [Expense] = []
        for record in records {
            created += try await createDue(of: record, through: day)
        }
        return created.sorted { ($0.day, $0.id.rawValue) < ($1.day, $1.id.rawValue) }
    }

    public func createAllDueOccurrences(through day: Day) async throws(ExpensesError) -> Int {
        let records = try await storing { try await store.read { try $0.seriesRunning(on: day.description) } }
        var made = 0
        for record in records where (try? Day(record.start)).map({ $0 <= day }) ?? false {
            made += try await createDue(of: record, through: day).count
        }
        return made
    }

    /// The occurrences of one series due through `day` and not made yet, each in its own write
    /// that first claims its day: one another process claimed is passed over.
    private func createDue(of kept: SeriesRecord, through day: Day) async throws(ExpensesError) -> [Expense] {
        let series = try Self.series(from: kept)
        let last = try await storing { try await store.read { try $0.lastOccurrence(ofSeries: kept.id) } }
        let from = last.flatMap { try? Day($0) }.flatMap { $0.adding(days: 1) } ?? series.recurrence.start
        guard from <= day else { return [] }
        var created: [Expense] = []
        for occurrence in series.recurrence.occurrences(from: from, through: day).prefix(Self.catchUpLimit) {
            var draft = series.template
            draft.day = occurrence.day
            let expense = try checked(ExpenseID(rawValue: UserID.random(using: random).rawValue), draft)
            let stored = StoredExpense(expense, rule: draft.rule, createdBy: series.createdBy, createdAt: now().timeIntervalSince1970)
            let activity = record(.added, expense, by: series.createdBy, kept: stored)
            let made: Bool = try await storing {
                try await store.write { db in
                    guard try db.claimOccurrence(series: kept.id, day: occurrence.day.description, expense: expense.id.rawValue) else { return false }
                    try db.insert(stored)
                    try apply(expense.balanceDeltas, group: stored.group, in: db)
                    try db.insert(activity)
                    return true
                }
            }
            if made { created.append(expense) }
        }
        return created
    }

    // MARK: - Stored forms

    static func record(_ series: ExpenseSeries, template: StoredExpense, at: Double) throws -> SeriesRecord {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let end = series.recurrence.end
        return SeriesRecord(
            id: series.id.rawValue, createdBy: series.createdBy.rawValue, createdAt: at,
            template: String(decoding: try encoder.encode(template), as: UTF8.self), frequency: text(series.recurrence.frequency),
            start: series.recurrence.start.description, endDay: end?.lastDay?.description, endCount: end?.count,
            people: Set(template.payers.map(\.user) + template.parts.map(\.user)).sorted(),
            version: series.version
        )
    }

    static func series(from record: SeriesRecord) throws(ExpensesError) -> ExpenseSeries {
        guard let start = try? Day(record.start), let frequency = frequency(record.frequency),
              let stored = try? JSONDecoder().decode(StoredExpense.self, from: Data(record.template.utf8))
        else { throw .storeUnavailable("the series \(record.id) is damaged") }
        let end = Recurrence.end(lastDay: record.endDay.flatMap { try? Day($0) }, count: record.endCount)
        let recurrence: Recurrence
        do throws(RecurrenceProblem) {
            recurrence = try Recurrence(start: start, frequency: frequency, end: end)
        } catch {
            throw .storeUnavailable("the series \(record.id) has a rule out of range")
        }
        guard let template = try? stored.expense().draft else { throw .storeUnavailable("the series \(record.id) keeps a damaged expense") }
        return ExpenseSeries(
            id: SeriesID(rawValue: record.id), template: template, recurrence: recurrence, createdBy: UserID(rawValue: record.createdBy),
            version: record.version
        )
    }

    /// `days:3`, `weeks:2`, `monthly:31`, `yearly`.
    static func text(_ frequency: Recurrence.Frequency) -> String {
        switch frequency {
        case .days(let n): "days:\(n)"
        case .weeks(let n): "weeks:\(n)"
        case .monthly(let day): "monthly:\(day)"
        case .yearly: "yearly"
        }
    }

    static func frequency(_ text: String) -> Recurrence.Frequency? {
        if text == "yearly" { return .yearly }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let n = Int(parts[1]) else { return nil }
        switch parts[0] {
        case "days": return .days(n)
        case "weeks": return .weeks(n)
        case "monthly": return .monthly(day: n)
        default: return nil
        }
    }
}
