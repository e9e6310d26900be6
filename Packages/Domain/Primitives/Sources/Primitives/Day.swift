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
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw .shape }
        try self.init(year: year, month: month, day: day)
    }

    /// The day it is at `now` in `timeZone` (the user's, in the app).
    public static func today(at now: Date, in timeZone: TimeZone) -> Day {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        // A Gregorian calendar always yields the three components of a valid day.
        return (try? Day(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1))
            ?? Day(unchecked: 1970, 1, 1)
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
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
        case noSuchDay
        case outOfRange

        public var message: String {
            switch self {
            case .shape: "Enter a day as yyyy-MM-dd, like 2026-11-22."
            case .noSuchDay: "That day does not exist."
            case .outOfRange: "Enter a year from 0001 to 9999."
            }
        }
    }

    static func length(ofMonth month: Int, in year: Int) -> Int {
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
