import Foundation
import Primitives
import Rates
import RatesECB
import Testing

/// The ECB's reference rates: the table the app ships, quotes on any day, exact conversion,
/// and updating from a newer file.
@Suite("Reference rates")
struct RatesTests {
    static let shipped = try! ECBRatesService.shipped()
    static func day(_ text: String) -> Day { try! Day(text) }
    static func currency(_ code: String) -> Currency { Currency(code: code)! }

    @Test("the shipped table runs from 1999-01-04 to 2026-10-30; a rate from the euro is the one published")
    func shippedTable() throws {
        #expect(Self.shipped.first == Self.day("1999-01-04"))
        #expect(Self.shipped.last == Self.day("2026-10-30"))
        #expect(Self.shipped.days.count == 7126)
        let quote = try #require(Self.shipped.quote(from: .eur, to: .jpy, on: Self.day("2026-10-30")))
        #expect(quote.description == "1 EUR = 175.68 JPY (ECB 2026-10-30)")
        #expect(quote.numerator == 17568 && quote.denominator == 100)
        #expect(Self.shipped.currencies.first == .eur)
        #expect(Self.shipped.currencies.contains(.usd))
    }

    @Test("a day without rates takes the latest before it and says which; before the first there is none")
    func daysWithoutRates() throws {
        // A Sunday, and a day after the table's last.
        #expect(Self.shipped.quote(from: .eur, to: .usd, on: Self.day("2026-11-01"))?.day == Self.day("2026-10-30"))
        let late = try #require(Self.shipped.quote(from: .usd, to: .eur, on: Self.day("2027-03-01")))
        #expect(late.day == Self.day("2026-10-30") && late.asked == Self.day("2027-03-01"))
        // The lev's last rate was on 2025-12-31 (Bulgaria took the euro).
        let lev = try #require(Self.shipped.quote(from: .eur, to: Self.currency("BGN"), on: Self.day("2026-10-30")))
        #expect(lev.day == Self.day("2025-12-31"))
        #expect(lev.rateText == "1.9558")
        #expect(Self.shipped.quote(from: .eur, to: .usd, on: Self.day("1998-12-31")) == nil)
        #expect(Self.shipped.quote(from: .eur, to: .eur, on: Self.day("2026-10-30"))?.rateText == "1")
    }

    @Test("between two other currencies the rate goes through the euro, exactly; shown to six significant digits")
    func crossRates() throws {
        let usdJpy = try #require(Self.shipped.quote(from: .usd, to: .jpy, on: Self.day("2026-10-30")))
        // 175.68 / 1.1172 = 157.25026853...
        #expect(usdJpy.numerator == 17568 * 10_000 && usdJpy.denominator == 11172 * 100)
        #expect(usdJpy.description == "1 USD = 157.25 JPY (ECB 2026-10-30)")
        let jpyUsd = try #require(Self.shipped.quote(from: .jpy, to: .usd, on: Self.day("2026-10-30")))
        #expect(jpyUsd.rateText == "0.00635929")
        let idr = try #require(Self.shipped.quote(from: .eur, to: Self.currency("IDR"), on: Self.day("2026-10-30")))
        #expect(idr.rateText == "20275.17")
    }

    @Test("a conversion multiplies exactly and rounds once, half away from zero")
    func conversion() throws {
        let usdJpy = try #require(Self.shipped.quote(from: .usd, to: .jpy, on: Self.day("2026-10-30")))
        #expect(usdJpy.convert(Money(minorUnits: 10_000, currency: .usd)) == Money(minorUnits: 15_725, currency: .jpy))
        let jpyEur = try #require(Self.shipped.quote(from: .jpy, to: .eur, on: Self.day("2026-10-30")))
        // 10,000 / 175.68 = 56.9216...
        #expect(jpyEur.convert(Money(minorUnits: 10_000, currency: .jpy)) == Money(minorUnits: 5_692, currency: .eur))
        #expect(jpyEur.convert(Money(minorUnits: 10_000, currency: .usd)) == nil)
        // 0.01 EUR at 1.5 is 0.015 USD: half a cent, away from zero either way.
        let half = RateQuote(from: .eur, to: .usd, asked: Self.day("2026-10-30"), day: Self.day("2026-10-30"), source: "test", numerator: 15, denominator: 10)
        #expect(half.convert(Money(minorUnits: 1, currency: .eur)) == Money(minorUnits: 2, currency: .usd))
        #expect(half.convert(Money(minorUnits: -1, currency: .eur)) == Money(minorUnits: -2, currency: .usd))
        #expect(half.convert(Money(minorUnits: Int64.max, currency: .eur)) == nil)
    }

    @Test("over many amounts and every day's rates of a month, a conversion is within half a minor unit of the exact product")
    func conversionIsExactToHalfAUnit() throws {
        var generator = SystemRandomNumberGenerator()
        for day in 1...28 {
            for (from, to) in [(Currency.usd, Currency.jpy), (.jpy, Self.currency("GBP")), (.eur, .kwd), (.kwd, .eur)] {
                guard let quote = Self.shipped.quote(from: from, to: to, on: Self.day("2026-02-\(day < 10 ? "0" : "")\(day)")) else { continue }
                for _ in 0..<50 {
                    let units = Int64.random(in: -1_000_000_000...1_000_000_000, using: &generator)
                    let converted = try #require(quote.convert(Money(minorUnits: units, currency: from))).minorUnits
                    // |converted - exact| <= 1/2, with exact = units * n * 10^to / (d * 10^from).
                    let top = Int128(units) * quote.numerator * Self.power(to.decimals)
                    let bottom = quote.denominator * Self.power(from.decimals)
                    let error = (Int128(converted) * bottom - top).magnitude
                    #expect(error * 2 <= bottom.magnitude, Comment(rawValue: "\(units) \(from.code) to \(to.code): \(converted)"))
                }
            }
        }
    }

    static func power(_ exponent: Int) -> Int128 { (0..<exponent).reduce(1) { result, _ in result * 10 } }

    @Test("the day's file, with its spaces and its spelled-out date, reads as the history does")
    func dailyFile() throws {
        let table = try ECBRates.read("Date, USD, JPY, XXX, \n30 October 2026, 1.1172, 175.68, 1.0, \n")
        #expect(table.days.count == 1)
        #expect(table.days[0].day == Self.day("2026-10-30"))
        #expect(table.days[0].rates == [.usd: PublishedRate("1.1172")!, .jpy: PublishedRate("175.68")!])
    }

    @Test("a malformed file is refused with every line that cannot be read")
    func malformed() {
        #expect(throws: RatesError.malformed(["Line 1: an ECB rates file begins with Date and the currencies (Date,USD,JPY,...)."])) {
            try ECBRates.read("Day,USD\n2026-10-30,1.1\n")
        }
        #expect(throws: RatesError.malformed([
            "Line 2: \"2026-13-01\" is not a day (2026-10-30 or 30 October 2026).",
            "Line 3: USD's rate, \"-1.1\", is not a number above zero.",
            "Line 4: it has more cells than the header has currencies.",
        ])) {
            try ECBRates.read("Date,USD,\n2026-13-01,1.1,\n2026-10-30,-1.1,\n2026-10-29,1.1,2.2,3.3\n")
        }
        #expect(throws: RatesError.malformed(["It holds no day's rates."])) { try ECBRates.read("Date,USD,\n") }
    }

    @Test("an update adds the newer days (its rates win), is kept on disk, and a malformed one changes nothing")
    func update() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flows-rates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = ECBRatesService(directory: directory)
        #expect(try await service.table().last == Self.day("2026-10-30"))
        let updated = try await service.update(fromECB: "Date,USD,JPY,\n2026-11-02,1.12,176.01,\n2026-10-30,1.2,N/A,\n")
        #expect(updated.last == Self.day("2026-11-02"))
        #expect(try await service.quote(from: .eur, to: .usd, on: Self.day("2026-11-03")).description == "1 EUR = 1.12 USD (ECB 2026-11-02)")
        #expect(try await service.quote(from: .eur, to: .usd, on: Self.day("2026-10-30")).rateText == "1.2")
        // The new day's file replaces that day whole: no yen on 2026-10-30 now, so the 29th's.
        #expect(try await service.quote(from: .eur, to: .jpy, on: Self.day("2026-10-30")).day == Self.day("2026-10-29"))

        let reopened = ECBRatesService(directory: directory)
        #expect(try await reopened.table() == updated)
        await #expect(throws: RatesError.self) { try await reopened.update(fromECB: "Date,USD\nsoon,1\n") }
        #expect(try await reopened.table() == updated)
        #expect(try await ECBRatesService(directory: directory).table() == updated)
        await #expect(throws: RatesError.noRate(from: .eur, to: .usd, on: Self.day("1990-01-01"))) {
            try await reopened.quote(from: .eur, to: .usd, on: Self.day("1990-01-01"))
        }
    }
}

@Suite("Converted totals")
struct ConvertedTotalTests {
    @Test("each currency converted and rounded once, then added; each rate stated the way round that is 1 or more")
    func total() throws {
        let table = RatesTests.shipped
        let day = RatesTests.day("2026-11-29")
        let amounts = [Money(minorUnits: -249, currency: .eur), Money(minorUnits: -1000, currency: .jpy), Money(minorUnits: 500, currency: .jpy)]
        let inEuros = try #require(table.total(amounts, in: .eur, on: day))
        // -500 JPY / 175.68 = -2.846 EUR, so -2.85; -2.49 - 2.85.
        #expect(inEuros.total == Money(minorUnits: -534, currency: .eur))
        #expect(inEuros.rates.map(\.description) == ["1 EUR = 175.68 JPY (ECB 2026-10-30)"])
        let inYen = try #require(table.total(amounts, in: .jpy, on: day))
        // -2.49 EUR * 175.68 = -437.4 JPY, so -437; -437 - 500.
        #expect(inYen.total == Money(minorUnits: -937, currency: .jpy))
        #expect(inYen.rates.map(\.description) == ["1 EUR = 175.68 JPY (ECB 2026-10-30)"])
        #expect(table.total([Money(minorUnits: 100, currency: .usd)], in: .jpy, on: RatesTests.day("1990-01-01")) == nil)
        #expect(table.total([], in: .eur, on: day)?.total == Money(minorUnits: 0, currency: .eur))
    }
}
