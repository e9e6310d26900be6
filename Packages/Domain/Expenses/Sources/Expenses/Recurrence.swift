import Primitives

/// When an expense repeats: its first day, how often after it, and until when.
///
/// Occurrence 0 is `start` itself; each later one is worked out from `start` (never from the
/// one before), so a month of 28 days never pulls the rest of the series back.
public struct Recurrence: Equatable, Hashable, Sendable {
    public enum Frequency: Equatable, Hashable, Sendable {
        /// Every `n` days (1 to 366).
        case days(Int)
        /// Every `n` weeks (1 to 52), on the start's weekday.
        case weeks(Int)
        /// Every month on day `day` (1 to 31); in a shorter month, on its last day.
        case monthly(day: Int)
        /// Every year on the start's month and day; a 29 February start falls on the 28th in
        /// other years.
        case yearly
    }

    /// Where the series ends: after a last day, or after so many occurrences in all.
    public enum End: Equatable, Hashable, Sendable {
        /// The last day an occurrence may fall on (included).
        case on(Day)
        /// How many occurrences in all, the first included (1 to 1,000).
        case after(count: Int)

        /// The last day, when it ends by one.
        public var lastDay: Day? { if case .on(let day) = self { day } else { nil } }
        /// The count, when it ends after one.
        public var count: Int? { if case .after(let count) = self { count } else { nil } }
    }

    public let start: Day
    public let frequency: Frequency
    public let end: End?

    /// An end kept or sent as its two fields: the last day wins over a count; neither, no end.
    public static func end(lastDay: Day?, count: Int?) -> End? {
        if let lastDay { return .on(lastDay) }
        return count.map { .after(count: $0) }
    }

    /// Refuses a frequency or an end out of range: an interval or a count of zero, a day of the
    /// month that is none, or a last day before the start.
    public init(start: Day, frequency: Frequency, end: End? = nil) throws(RecurrenceProblem) {
        switch frequency {
        case .days(let n) where !(1...366).contains(n): throw .interval
        case .weeks(let n) where !(1...52).contains(n): throw .interval
        case .monthly(let day) where !(1...31).contains(day): throw .dayOfMonth
        default: break
        }
        switch end {
        case .on(let last) where last < start: throw .endBeforeStart
        case .after(let count) where !(1...Self.maximumCount).contains(count): throw .count
        default: break
        }
        self.start = start
        self.frequency = frequency
        self.end = end
    }

    /// The most occurrences a series may be given in all.
    public static let maximumCount = 1_000

    /// Occurrence `index` (0 for the start), whether or not the series has ended by then; nil
    /// past the calendar's last year.
    public func day(_ index: Int) -> Day? {
        guard index >= 0 else { return nil }
        switch frequency {
        case .days(let n):
            let (offset, overflow) = index.multipliedReportingOverflow(by: n)
            return overflow ? nil : start.adding(days: offset)
        case .weeks(let n):
            let (offset, overflow) = index.multipliedReportingOverflow(by: n * 7)
            return overflow ? nil : start.adding(days: offset)
        case .monthly(let day):
            // The start's month counts as month 0 only when its day D is on or after the start;
            // otherwise the first is in the next month.
            let first = Self.onDay(day, year: start.year, month: start.month)
            let skip = (first.map { $0 < start } ?? true) ? 1 : 0
            let months = start.year * 12 + (start.month - 1) + index + skip
            return Self.onDay(day, year: months / 12, month: months % 12 + 1)
        case .yearly:
            return Self.onDay(start.day, year: start.year + index, month: start.month)
        }
    }

    /// Whether occurrence `index`, falling on `day`, is within the series' end.
    private func isWithinEnd(_ index: Int, _ day: Day) -> Bool {
        switch end {
        case nil: true
        case .on(let last): day <= last
        case .after(let count): index < count
        }
    }

    /// The occurrences from `first` through `last` (both included), with their index, in order.
    public func occurrences(from first: Day, through last: Day) -> [(index: Int, day: Day)] {
        var result: [(index: Int, day: Day)] = []
        var index = firstIndex(onOrAfter: first)
        while let day = self.day(index), day <= last, isWithinEnd(index, day) {
            result.append((index, day))
            index += 1
        }
        return result
    }

    /// The next occurrence after `day` (not on it), if the series has one.
    public func next(after day: Day) -> (index: Int, day: Day)? {
        guard let following = day.adding(days: 1) else { return nil }
        let index = firstIndex(onOrAfter: following)
        guard let next = self.day(index), isWithinEnd(index, next) else { return nil }
        return (index, next)
    }

    /// The first index whose occurrence is on or after `day`: estimated from the distance, then
    /// stepped, so a series decades long is not walked from its start.
    private func firstIndex(onOrAfter day: Day) -> Int {
        guard day > start else { return 0 }
        let months = (day.year - start.year) * 12 + (day.month - start.month)
        var index = switch frequency {
        case .days(let n): max(0, start.days(until: day) / n - 1)
        case .weeks(let n): max(0, start.days(until: day) / (7 * n) - 1)
        case .monthly: max(0, months - 2)
        case .yearly: max(0, day.year - start.year - 1)
        }
        while let candidate = self.day(index), candidate < day { index += 1 }
        return index
    }

    /// Day `day` of a month, or its last day when it is shorter; nil outside the years 1 to 9999.
    static func onDay(_ day: Int, year: Int, month: Int) -> Day? {
        guard (1...9999).contains(year) else { return nil }
        return try? Day(year: year, month: month, day: min(day, Day.length(ofMonth: month, in: year)))
    }
}

/// Why a repeat is refused.
public enum RecurrenceProblem: String, ValidationProblem, CaseIterable {
    case interval
    case dayOfMonth = "day-of-month"
    case endBeforeStart = "end-before-start"
    case count

    public var message: String {
        switch self {
        case .interval: "Repeat every 1 to 366 days, or every 1 to 52 weeks."
        case .dayOfMonth: "A day of the month is 1 to 31 (31: the last day of every month)."
        case .endBeforeStart: "The last day of a series is on or after its first."
        case .count: "A series has 1 to \(Recurrence.maximumCount) occurrences in all."
        }
    }
}

/// A series' identifier: a lower-case UUID.
public struct SeriesID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// An expense that repeats: what each occurrence is (its template, dated at the first) and
/// when they fall. Each occurrence is an ordinary expense, edited or deleted alone.
public struct ExpenseSeries: Equatable, Sendable {
    public let id: SeriesID
    /// What every occurrence from now on copies, dated at the first.
    public let template: ExpenseDraft
    public let recurrence: Recurrence
    public let createdBy: UserID
    /// 1 when made, one more with each change.
    public let version: Int

    public init(id: SeriesID, template: ExpenseDraft, recurrence: Recurrence, createdBy: UserID, version: Int) {
        self.id = id
        self.template = template
        self.recurrence = recurrence
        self.createdBy = createdBy
        self.version = version
    }

    /// `every month on its last day`, `every 2 weeks`, `every day`, `every year`; then its end
    /// (`, until 2026-04-30`, `, 6 times in all`).
    public var rhythm: String { every + ending }

    /// How often: `every month on day 5`, `every 2 weeks`.
    public var every: String {
        switch recurrence.frequency {
        case .days(1): "every day"
        case .days(let n): "every \(n) days"
        case .weeks(1): "every week"
        case .weeks(let n): "every \(n) weeks"
        case .monthly(let day): day == 31 ? "every month on its last day" : "every month on day \(day)"
        case .yearly: "every year"
        }
    }

    /// Where it ends, after a comma: `, until 2026-04-30`, `, 6 times in all`; empty for never.
    public var ending: String {
        switch recurrence.end {
        case nil: ""
        case .on(let last): ", until \(last)"
        case .after(let count): ", \(count) times in all"
        }
    }
}

/// A series with the next day it falls on after a given day; nil once it has ended.
public struct UpcomingOccurrence: Equatable, Sendable {
    public let series: ExpenseSeries
    public let next: Day?

    public init(series: ExpenseSeries, next: Day?) {
        self.series = series
        self.next = next
    }
}

/// Expenses that repeat: each occurrence created when due, once (keyed by series and day),
/// however many processes or servers look at once.
public protocol RecurringExpenses: Sendable {
    /// Makes expense `id` (one `user` is in) the first of a series falling `frequency` from its
    /// day, until `end`; its later occurrences copy it as it is now. `series` is the series' id,
    /// made by a client that names it before the server has seen it (a replica, docs/sync.md):
    /// one another series holds is ``ExpensesError/idTaken(_:)``, while the user's own series
    /// of this expense under it is the same write again, answered as it is. Nil makes a new one.
    func repeatExpense(_ id: ExpenseID, every frequency: Recurrence.Frequency, until end: Recurrence.End?, as series: SeriesID?, by user: UserID)
        async throws(ExpensesError) -> ExpenseSeries
    /// The series `user` is in, each with the next day it falls on after `day`, by when they
    /// were made.
    func series(of user: UserID, after day: Day) async throws(ExpensesError) -> [UpcomingOccurrence]
    /// The series expense `id` is an occurrence of, for someone in the series; nil for none.
    func series(containing id: ExpenseID, for user: UserID) async throws(ExpensesError) -> ExpenseSeries?
    /// Changes what the occurrences after `day` copy; those made already stay as they are.
    func editSeries(_ id: SeriesID, to template: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> ExpenseSeries
    /// Ends the series: no occurrence falls after `day`.
    func stopSeries(_ id: SeriesID, after day: Day, by user: UserID) async throws(ExpensesError) -> ExpenseSeries
    /// Creates every occurrence due through `day` of the series `user` is in (oldest first),
    /// each once; returns the expenses it created.
    func createDueOccurrences(through day: Day, for user: UserID) async throws(ExpensesError) -> [Expense]
}

extension RecurringExpenses {
    /// Makes a series under a new id (``repeatExpense(_:every:until:as:by:)``).
    public func repeatExpense(_ id: ExpenseID, every frequency: Recurrence.Frequency, until end: Recurrence.End?, by user: UserID)
        async throws(ExpensesError) -> ExpenseSeries
    {
        try await repeatExpense(id, every: frequency, until: end, as: nil, by: user)
    }
}

/// A round over every series, not one user's: what a server runs on its own, so occurrences are
/// made when due even when nobody in them opens the app.
public protocol DueOccurrencesRound: Sendable {
    /// Makes every occurrence due through `day` of every series still running, each once;
    /// returns how many it made.
    func createAllDueOccurrences(through day: Day) async throws(ExpensesError) -> Int
}
