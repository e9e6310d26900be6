import Foundation
import PropertyBased
import Primitives
import Testing

@Suite("Money and currencies")
struct MoneyTests {
    @Test("amounts as people type them", arguments: [
        ("12.50", Currency.eur, 1250), ("12,50", .eur, 1250), ("12", .eur, 1200), ("12.5", .eur, 1250),
        (" 0.01 ", .eur, 1), ("0", .eur, 0), ("1000", .jpy, 1000), ("1.234", .kwd, 1234), ("7,5", .kwd, 7500),
        ("007.10", .usd, 710),
    ] as [(String, Currency, Int64)])
    func parses(text: String, currency: Currency, minorUnits: Int64) throws {
        #expect(try Money(parsing: text, currency: currency) == Money(minorUnits: minorUnits, currency: currency))
    }

    @Test("anything else is refused with the reason", arguments: [
        ("", Currency.eur, Money.Problem.empty), ("  ", .eur, .empty), ("-5", .eur, .negative),
        ("12.505", .eur, .tooManyDecimals(.eur)), ("1.5", .jpy, .noDecimals(.jpy)), ("1.2345", .kwd, .tooManyDecimals(.kwd)),
        ("1,000.50", .eur, .shape), ("12.", .eur, .shape), (".5", .eur, .shape), ("12 50", .eur, .shape),
        ("1e3", .eur, .shape), ("€12", .eur, .shape), ("٣", .eur, .shape), ("99999999999999999999", .eur, .tooLarge),
        ("92233720368547758.08", .eur, .tooLarge), ("3\u{301}", .eur, .shape), ("1.3\u{301}", .eur, .shape),
    ] as [(String, Currency, Money.Problem)])
    func refuses(text: String, currency: Currency, problem: Money.Problem) {
        #expect(throws: problem) { try Money(parsing: text, currency: currency) }
    }

    @Test("formats with the currency's decimals", arguments: [
        (1250, Currency.eur, "12.50 EUR"), (-5, .eur, "-0.05 EUR"), (1000, .jpy, "1000 JPY"), (1234, .kwd, "1.234 KWD"),
        (0, .usd, "0.00 USD"), (Int64.min, .eur, "-92233720368547758.08 EUR"),
    ] as [(Int64, Currency, String)])
    func formats(minorUnits: Int64, currency: Currency, text: String) {
        #expect(Money(minorUnits: minorUnits, currency: currency).description == text)
    }

    @Test("formatting then parsing gives the amount back")
    func roundTrip() async {
        await propertyCheck(count: 1_000, input: Gen.int64(in: 0...Int64.max)) { units in
            for currency in [Currency.eur, .jpy, .kwd] {
                let money = Money(minorUnits: units, currency: currency)
                #expect((try? Money(parsing: money.amountText, currency: currency)) == money)
            }
        }
    }

    @Test("arithmetic is checked: no mixing currencies, no overflow")
    func arithmetic() throws {
        let ten = Money(minorUnits: 1000, currency: .eur)
        #expect(try ten.adding(ten).minorUnits == 2000)
        #expect(try ten.subtracting(Money(minorUnits: 1, currency: .eur)).minorUnits == 999)
        #expect(try ten.multiplied(by: 3).minorUnits == 3000)
        #expect(throws: Money.ArithmeticError.currencyMismatch(.eur, .jpy)) { try ten.adding(.zero(.jpy)) }
        #expect(throws: Money.ArithmeticError.overflow) { try Money(minorUnits: .max, currency: .eur).adding(Money(minorUnits: 1, currency: .eur)) }
        #expect(throws: Money.ArithmeticError.overflow) { try Money(minorUnits: .min, currency: .eur).negated() }
        #expect(throws: Money.ArithmeticError.overflow) { try Money(minorUnits: .max / 2 + 1, currency: .eur).multiplied(by: 2) }
    }

    @Test("ISO 4217 decimals, codes in any case, unknown codes refused")
    func currencies() {
        #expect(Currency(code: "eur") == .eur)
        #expect(Currency(code: "JPY")?.decimals == 0)
        #expect(Currency(code: "KWD")?.decimals == 3)
        #expect(Currency(code: "XYZ") == nil)
        #expect(Currency.all.contains(.usd))
        #expect(Currency.kwd.minorUnitsPerMajor == 1000)
    }
}

@Suite("Days")
struct DayTests {
    @Test("yyyy-MM-dd, leap years included", arguments: ["2026-11-22", "2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31"])
    func valid(text: String) throws {
        #expect(try Day(text).description == text)
    }

    @Test("anything else says why", arguments: [
        ("2026-13-01", Day.Problem.noSuchDay), ("2026-02-29", .noSuchDay), ("1900-02-29", .noSuchDay), ("2026-04-31", .noSuchDay),
        ("2026-11-22T10:00", .shape), ("22/11/2026", .shape), ("2026-1-2", .shape), ("", .shape), ("0000-01-01", .outOfRange),
    ])
    func invalid(text: String, problem: Day.Problem) {
        #expect(throws: problem) { try Day(text) }
    }

    @Test("today depends on the user's time zone, and stays put afterwards")
    func today() throws {
        let instant = Date(timeIntervalSince1970: 1_795_305_600)  // 2026-11-22 00:00 UTC
        #expect(Day.today(at: instant, in: try #require(TimeZone(identifier: "UTC"))).description == "2026-11-22")
        #expect(Day.today(at: instant, in: try #require(TimeZone(identifier: "America/New_York"))).description == "2026-11-21")
        #expect(Day.today(at: instant, in: try #require(TimeZone(identifier: "Asia/Tokyo"))).description == "2026-11-22")
    }

    @Test("days after and before: across months, leap days and years; nothing beyond years 1 to 9999")
    func addingDays() throws {
        #expect(try Day("2026-11-22").adding(days: -1)?.description == "2026-11-21")
        #expect(try Day("2026-03-01").adding(days: -1)?.description == "2026-02-28")
        #expect(try Day("2024-03-01").adding(days: -1)?.description == "2024-02-29")
        #expect(try Day("2026-12-31").adding(days: 1)?.description == "2027-01-01")
        #expect(try Day("2000-02-28").adding(days: 366)?.description == "2001-02-28")
        #expect(try Day("1970-01-01").adding(days: 0)?.description == "1970-01-01")
        #expect(try Day("0001-01-01").adding(days: -1) == nil)
        #expect(try Day("9999-12-31").adding(days: 1) == nil)
        #expect(try Day("2026-11-22").adding(days: .max) == nil)
        #expect(try Day("2026-11-22").adding(days: .min) == nil)
    }

    /// From 1590 on: Foundation's Gregorian calendar turns Julian before October 1582.
    @Test("a day as typed on a form: yyyy-MM-dd, today, yesterday, a weekday (the latest on or before today)", arguments: [
        ("today", "2026-11-23"), (" Yesterday ", "2026-11-22"), ("monday", "2026-11-23"), ("MON", "2026-11-23"),
        ("sunday", "2026-11-22"), ("tue", "2026-11-17"), ("Saturday", "2026-11-21"), ("2026-02-28", "2026-02-28"),
    ])
    func typed(text: String, expected: String) throws {
        // 2026-11-23 is a Monday.
        let today = try Day("2026-11-23")
        #expect(today.weekday == .monday)
        #expect(try Day(typed: text, today: today).description == expected)
    }

    @Test("what a form refuses says what it accepts; a day that does not exist says so")
    func typedRefused() throws {
        let today = try Day("2026-11-23")
        for text in ["", "tomorrow", "mo", "23/11/2026", "2026-11-2"] {
            #expect(throws: Day.Problem.notADay) { try Day(typed: text, today: today) }
        }
        #expect(throws: Day.Problem.noSuchDay) { try Day(typed: "2026-02-30", today: today) }
        #expect(throws: Day.Problem.outOfRange) { try Day(typed: "yesterday", today: try Day("0001-01-01")) }
        #expect(try Day("1970-01-01").weekday == .thursday)
        #expect(try Day("0001-01-01").weekday == .monday)
    }

    @Test("adding days agrees with the calendar, and going there and back returns the day")
    func addingDaysAgrees() async throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let start = try Day("2026-11-22")
        let origin = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 22)))
        await propertyCheck(count: 500, input: Gen.int(in: -150_000...700_000)) { count in
            let moved = try #require(start.adding(days: count))
            let date = try #require(calendar.date(byAdding: .day, value: count, to: origin))
            #expect(Day.today(at: date, in: calendar.timeZone) == moved)
            #expect(moved.adding(days: -count) == start)
        }
    }

    @Test("the day of an instant in a time zone agrees with the calendar's, at any instant and offset")
    func dayOfInstantAgrees() async throws {
        let zones = try ["UTC", "America/New_York", "Asia/Tokyo", "Asia/Kathmandu", "Pacific/Chatham", "Pacific/Apia", "America/St_Johns"]
            .map { try #require(TimeZone(identifier: $0)) }
        await propertyCheck(count: 1_000, input: Gen.int(in: -2_000_000_000...4_000_000_000)) { seconds in
            let instant = Date(timeIntervalSince1970: Double(seconds))
            for zone in zones {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let parts = calendar.dateComponents([.year, .month, .day], from: instant)
                let expected = try Day(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
                #expect(Day.today(at: instant, in: zone) == expected, "\(seconds) in \(zone.identifier)")
            }
        }
    }

    @Test("order, months, and JSON as text")
    func orderAndCodable() throws {
        #expect(try Day("2026-01-31") < Day("2026-02-01"))
        #expect(try Day("2026-02-01").monthText == "2026-02")
        let data = try JSONEncoder().encode(try Day("2026-11-22"))
        #expect(String(decoding: data, as: UTF8.self) == #""2026-11-22""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Day.self, from: Data(#""2026-02-30""#.utf8)) }
    }
}

@Suite("SaveFormatter")
struct SaveFormatterTests {
    @Test("stored texts and values, both ways; an unknown text is an error that names it")
    func conversions() throws {
        #expect(SaveFormatter.text(Theme.highContrast) == "high-contrast")
        #expect(try SaveFormatter.value(Theme.self, from: "no-colour") == .noColour)
        #expect(SaveFormatter.text(Currency.jpy) == "JPY")
        #expect(try SaveFormatter.value(Currency.self, from: "KWD") == .kwd)
        #expect(throws: SaveFormatError(type: "Theme", text: "sepia")) { try SaveFormatter.value(Theme.self, from: "sepia") }
        #expect(throws: SaveFormatError.self) { try SaveFormatter.value(Currency.self, from: "eur") }
        for theme in Theme.allCases {
            #expect(try SaveFormatter.value(Theme.self, from: SaveFormatter.text(theme)) == theme)
        }
    }
}
