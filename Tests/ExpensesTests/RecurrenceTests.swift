import Expenses
import Foundation
import PropertyBased
import Primitives
import Testing

/// An independent model of a series: every day of ten years walked with Foundation's Gregorian
/// calendar, each kept when the rule, read literally, says it is an occurrence.
private struct Model {
    let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        return calendar
    }()

    func date(_ day: Day) -> Date {
        calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) ?? .distantPast
    }

    func day(_ date: Date) -> Day? {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return try? Day(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
    }

    func occurrences(_ series: Recurrence, years: Int) -> [Day] {
        let start = date(series.start)
        guard let stop = calendar.date(byAdding: .year, value: years, to: start) else { return [] }
        var found: [Day] = []
        var current = start
        var offset = 0
        while current <= stop {
            let parts = calendar.dateComponents([.year, .month, .day], from: current)
            let monthLength = calendar.range(of: .day, in: .month, for: current)?.count ?? 0
            let keep = switch series.frequency {
            case .days(let n): offset % n == 0
            case .weeks(let n): offset % (7 * n) == 0
            case .monthly(let wanted): parts.day == min(wanted, monthLength)
            case .yearly: parts.month == series.start.month && parts.day == min(series.start.day, monthLength)
            }
            if keep, let day = day(current) {
                switch series.end {
                case .on(let last) where day > last: return found
                case .after(let count) where found.count == count: return found
                default: found.append(day)
                }
            }
            offset += 1
            guard let next = calendar.date(byAdding: .day, value: 1, to: current) else { break }
            current = next
        }
        return found
    }
}

@Suite("Recurring expenses: when a series falls")
struct RecurrenceTests {
    private let model = Model()

    private func day(_ text: String) throws -> Day { try Day(text) }

    @Test("monthly on the 31st falls on the last day of shorter months, and comes back to the 31st")
    func monthEnds() throws {
        let rent = try Recurrence(start: try day("2027-01-31"), frequency: .monthly(day: 31))
        #expect(rent.occurrences(from: rent.start, through: try day("2027-05-31")).map(\.day.description) == [
            "2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31",
        ])
        // In a leap year, February has its 29th.
        let leap = try Recurrence(start: try day("2028-01-30"), frequency: .monthly(day: 30))
        #expect(leap.occurrences(from: leap.start, through: try day("2028-03-31")).map(\.day.description) == ["2028-01-30", "2028-02-29", "2028-03-30"])
        // A day of the month before the start's falls first in the next month.
        let late = try Recurrence(start: try day("2027-01-20"), frequency: .monthly(day: 5))
        #expect(late.day(0)?.description == "2027-02-05")
    }

    @Test("yearly from 29 February falls on the 28th in other years; ends by a day or a count")
    func yearlyAndEnds() throws {
        let birthday = try Recurrence(start: try day("2028-02-29"), frequency: .yearly, end: .after(count: 5))
        #expect(birthday.occurrences(from: birthday.start, through: try day("2040-12-31")).map(\.day.description) == [
            "2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29",
        ])
        let weekly = try Recurrence(start: try day("2027-01-01"), frequency: .weeks(2), end: .on(try day("2027-02-11")))
        #expect(weekly.occurrences(from: weekly.start, through: try day("2027-12-31")).map(\.day.description) == [
            "2027-01-01", "2027-01-15", "2027-01-29",
        ])
        #expect(weekly.next(after: try day("2027-01-29")) == nil)
        #expect(weekly.next(after: try day("2027-01-15"))?.day.description == "2027-01-29")
    }

    @Test("out-of-range rules are refused with why")
    func refusals() throws {
        let start = try day("2027-01-01")
        #expect(throws: RecurrenceProblem.interval) { try Recurrence(start: start, frequency: .days(0)) }
        #expect(throws: RecurrenceProblem.interval) { try Recurrence(start: start, frequency: .weeks(53)) }
        #expect(throws: RecurrenceProblem.dayOfMonth) { try Recurrence(start: start, frequency: .monthly(day: 32)) }
        #expect(throws: RecurrenceProblem.endBeforeStart) { try Recurrence(start: start, frequency: .yearly, end: .on(try day("2026-12-31"))) }
        #expect(throws: RecurrenceProblem.count) { try Recurrence(start: start, frequency: .yearly, end: .after(count: 0)) }
    }

    @Test("every start at a month's end, every day of the month and every length of month: ten years as the model has them")
    func monthlyAgainstModel() throws {
        let starts = ["2027-01-28", "2027-01-29", "2027-01-30", "2027-01-31", "2028-02-28", "2028-02-29", "2027-02-28", "2027-03-31", "2027-04-30", "2027-12-31"]
        for text in starts {
            for wanted in [1, 15, 28, 29, 30, 31] {
                let series = try Recurrence(start: try day(text), frequency: .monthly(day: wanted))
                let expected = model.occurrences(series, years: 10)
                let last = try #require(expected.last)
                #expect(Self.firstDifference(series.occurrences(from: series.start, through: last).map(\.day), expected) == "same", "monthly on \(wanted) from \(text)")
            }
        }
    }

    @Test("any rule, start and end: ten years as the model has them, any window of them, and the next after any day")
    func againstModel() async throws {
        let input = zip(Gen.int(in: 0...3_000), Gen.int(in: 0...3), Gen.int(in: 1...40), Gen.int(in: 0...2), Gen.int(in: 1...60), Gen.int(in: 0...4_000))
        await propertyCheck(count: 120, input: input) { startOffset, kind, n, endKind, count, probe in
            let frequency: Recurrence.Frequency = switch kind {
            case 0: .days(n)
            case 1: .weeks((n - 1) % 8 + 1)
            case 2: .monthly(day: (n - 1) % 31 + 1)
            default: .yearly
            }
            guard let base = try? Day("2024-01-01"), let start = base.adding(days: startOffset) else { return }
            let end: Recurrence.End? = switch endKind {
            case 0: nil
            case 1: .after(count: count)
            default: start.adding(days: count * 40).map(Recurrence.End.on)
            }
            let series: Recurrence
            do throws(RecurrenceProblem) {
                series = try Recurrence(start: start, frequency: frequency, end: end)
            } catch {
                Issue.record("a valid rule was refused: \(frequency), \(error.message)")
                return
            }
            let expected = model.occurrences(series, years: 10)
            guard let stop = model.day(model.calendar.date(byAdding: .year, value: 10, to: model.date(start)) ?? .distantPast) else { return }
            let generated = series.occurrences(from: start, through: stop)
            #expect(Self.firstDifference(generated.map(\.day), expected) == "same", "\(frequency) from \(start), end \(String(describing: end))")
            #expect(generated.enumerated().allSatisfy { $0.offset == $0.element.index })
            // A window starting anywhere holds the model's days from there, numbered as from the start.
            if let from = start.adding(days: probe % 3_650), let through = from.adding(days: 400), through <= stop {
                let window = series.occurrences(from: from, through: through)
                let inModel = expected.filter { $0 >= from && $0 <= through }
                #expect(Self.firstDifference(window.map(\.day), inModel) == "same", "window from \(from)")
                #expect(window.allSatisfy { expected.firstIndex(of: $0.day) == $0.index })
                #expect(series.next(after: from)?.day == expected.first { $0 > from } || expected.last.map { $0 <= from } == true)
            }
        }
    }

    /// Where two lists of days first differ, in a few words (never the lists whole).
    static func firstDifference(_ generated: [Day], _ expected: [Day]) -> String {
        guard let index = generated.indices.first(where: { $0 < expected.count && generated[$0] != expected[$0] }) else {
            return generated.count == expected.count ? "same" : "\(generated.count) generated, \(expected.count) in the model"
        }
        return "#\(index): generated \(generated[index]), model \(expected[index])"
    }
}
