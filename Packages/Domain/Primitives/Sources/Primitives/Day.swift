import Foundation

/// A calendar day, as `yyyy-MM-dd`. It does not move when the time zone changes: it is not an
/// instant.
public struct Day: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Validates a day of the Gregorian calendar.
    public init(year: Int, month: Int, day: Int) throws(Problem) {
        guard (1...9999).contains(year) else { throw .outOfRange }
        guard (1...12).contains(month) else { throw .noSuchDay }
        guard (1...Self.length(ofMonth: month, in: year)).contains(day) else { throw .noSuchDay }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads `yyyy-MM-dd`, exactly.
    public init(_ text: String) throws(Problem) {
        let trimmed = text.trimmingWhitespace()
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw .shape }
        try self.init(year: year, month: month, day: day)
    }

    /// The day it is at `now` in `timeZone` (the user's, in the app).
    public static func today(at now: Date, in timeZone: TimeZone) -> Day {
        // The zone's offset at that instant, then whole days from 1970-01-01 in integers: a
        // Calendar made for each call costs milliseconds, and lists show a day per line.
        let local = now.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: now))
        let epoch = Day(unchecked: 1970, 1, 1)
        guard local.isFinite, abs(local) < 3e11 else { return epoch }
        return epoch.adding(days: Int((local / 86_400).rounded(.down))) ?? epoch
    }

    /// The minute `date` falls in, in `timeZone`, as lists show times: `2027-01-15 08:00`.
    public static func minute(at date: Date, in timeZone: TimeZone) -> String {
        // The day as every list shows days; the time from the same offset, without a Calendar.
        let day = today(at: date, in: timeZone)
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        guard local.isFinite, abs(local) < 3e11 else { return day.description }
        let minute = ((Int((local / 60).rounded(.down)) % 1_440) + 1_440) % 1_440
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(day) \(two(minute / 60)):\(two(minute % 60))"
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads a day as a person types it on a form: `yyyy-MM-dd`, `today`, `yesterday`, or a
    /// weekday (`monday` or `mon`, any case), which is the latest such day on or before `today`.
    public init(typed text: String, today: Day) throws(Problem) {
        let word = text.trimmingWhitespace().lowercased()
        if word == "today" {
            self = today
            return
        }
        if word == "yesterday" {
            guard let day = today.adding(days: -1) else { throw .outOfRange }
            self = day
            return
        }
        if let weekday = Weekday.allCases.first(where: { $0.rawValue == word || $0.rawValue.prefix(3) == word }) {
            let back = (today.weekday.index - weekday.index + 7) % 7
            guard let day = today.adding(days: -back) else { throw .outOfRange }
            self = day
            return
        }
        do {
            try self.init(text)
        } catch .shape {
            throw .notADay
        }
    }

    /// The day with its weekday, as a form shows what was typed: `Friday 2027-01-15`.
    public var withWeekday: String {
        "\(weekday.rawValue.prefix(1).uppercased())\(weekday.rawValue.dropFirst()) \(self)"
    }

    /// A day of the week, Monday first.
    public enum Weekday: String, Sendable, CaseIterable {
        case monday, tuesday, wednesday, thursday, friday, saturday, sunday

        /// Monday is 0, Sunday 6.
        public var index: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    }

    /// Which day of the week it is.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (index 3).
        let index = ((Self.dayNumber(year, month, day) % 7) + 7 + 3) % 7
        return Weekday.allCases[index]
    }

    /// The day `count` days after this one (before it, for a negative count); nil beyond the
    /// years 1 to 9999.
    public func adding(days count: Int) -> Day? {
        let (number, overflow) = Self.dayNumber(year, month, day).addingReportingOverflow(count)
        guard !overflow, let moved = Self.civil(fromDayNumber: number) else { return nil }
        return moved
    }

    /// How many days from this day to `other`: negative when `other` is earlier.
    public func days(until other: Day) -> Int {
        Self.dayNumber(other.year, other.month, other.day) - Self.dayNumber(year, month, day)
    }

    /// Days since 1970-01-01 of a valid day (the proleptic Gregorian calendar's civil-from-days
    /// arithmetic, in integers).
    private static func dayNumber(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `number` days after 1970-01-01, when it falls in the years 1 to 9999.
    private static func civil(fromDayNumber number: Int) -> Day? {
        // Years 1 to 9999 are days -719,162 to 2,932,896: anything beyond is refused first,
        // so the arithmetic below cannot overflow.
        guard (-719_162...2_932_896).contains(number) else { return nil }
        let shifted = number + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return try? Day(year: year, month: month, day: day)
    }

    /// `yyyy-MM-dd`: the stored form.
    public var description: String {
        "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
    }

    /// `yyyy-MM`: the month it falls in, as reports group by.
    public var monthText: String { "\(Self.padded(year, 4))-\(Self.padded(month, 2))" }

    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Why a text is not a day.
    public enum Problem: ValidationProblem, CaseIterable {
        case shape
        /// What a form accepts was not typed (``Day/init(typed:today:)``).
        case notADay
        case noSuchDay
        case outOfRange

        public var message: String {
            switch self {
            case .shape: "Enter a day as yyyy-MM-dd, like 2026-11-22."
            case .notADay: "Enter a day as yyyy-MM-dd (like 2026-11-22), today, yesterday or a weekday."
            case .noSuchDay: "That day does not exist."
            case .outOfRange: "Enter a year from 0001 to 9999."
            }
        }
    }

    public static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
