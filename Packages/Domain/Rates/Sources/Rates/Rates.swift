import Primitives

/// One day's euro reference rates: how much of each currency one euro buys.
public struct RateDay: Equatable, Sendable {
    public let day: Day
    public let rates: [Currency: PublishedRate]

    public init(day: Day, rates: [Currency: PublishedRate]) {
        self.day = day
        self.rates = rates
    }

    /// One euro in `currency` that day: 1 for the euro itself.
    func perEuro(_ currency: Currency) -> (units: Int128, scale: Int128, published: PublishedRate?)? {
        if currency == .eur { return (1, 1, nil) }
        guard let rate = rates[currency] else { return nil }
        return (Int128(rate.units), rate.scale, rate)
    }
}

/// Euro reference rates, day by day, oldest first: what conversions and converted views are
/// priced at. A rate between two other currencies goes through the euro, as the ECB defines it.
public struct RateTable: Equatable, Sendable {
    /// Whose rates they are, for the quotes' wording: `ECB`.
    public let source: String
    public let days: [RateDay]

    /// The days given, oldest first; of two for the same day, the later one given.
    public init(source: String, days: [RateDay]) {
        self.source = source
        var byDay: [Day: RateDay] = [:]
        for day in days { byDay[day.day] = day }
        self.days = byDay.values.sorted { $0.day < $1.day }
    }

    public var first: Day? { days.first?.day }
    public var last: Day? { days.last?.day }

    /// The euro and every currency with a rate on the table's last day.
    public var currencies: [Currency] {
        [.eur] + (days.last?.rates.keys.sorted { $0.code < $1.code } ?? [])
    }

    /// The rate from `from` to `to` on `day`: that of the latest day on or before it with a rate
    /// for both (a weekend, a holiday or a day after the table's last takes the one before).
    /// Nil when there is none.
    public func quote(from: Currency, to: Currency, on day: Day) -> RateQuote? {
        // The last day on or before `day`, by bisection.
        var low = 0
        var high = days.count
        while low < high {
            let middle = (low + high) / 2
            if days[middle].day <= day { low = middle + 1 } else { high = middle }
        }
        for index in stride(from: low - 1, through: 0, by: -1) {
            let rates = days[index]
            guard let source = rates.perEuro(from), let target = rates.perEuro(to) else { continue }
            // `to` per `from`: (target / targetScale) / (source / sourceScale).
            let published = from == .eur ? target.published : nil
            return RateQuote(
                from: from, to: to, asked: day, day: rates.day, source: self.source,
                numerator: target.units * source.scale, denominator: source.units * target.scale, published: published
            )
        }
        return nil
    }

    /// This table with `newer`'s days added: where both have a day, `newer`'s rates win.
    public func merging(_ newer: RateTable) -> RateTable {
        RateTable(source: newer.source, days: days + newer.days)
    }
}

/// The rate between two currencies on a day, exact, with where it comes from.
public struct RateQuote: Equatable, Sendable, CustomStringConvertible {
    public let from: Currency
    public let to: Currency
    /// The day asked about.
    public let asked: Day
    /// The day whose rates were used: the one asked about, or the latest before it.
    public let day: Day
    public let source: String
    /// Units of `to` per one unit of `from`, exactly: `numerator / denominator`.
    public let numerator: Int128
    public let denominator: Int128
    /// The rate as published, when it is one (from the euro).
    public let published: PublishedRate?

    public init(from: Currency, to: Currency, asked: Day, day: Day, source: String, numerator: Int128, denominator: Int128, published: PublishedRate? = nil) {
        self.from = from
        self.to = to
        self.asked = asked
        self.day = day
        self.source = source
        self.numerator = numerator
        self.denominator = denominator
        self.published = published
    }

    /// The rate as a person reads it: as published, or to six significant digits.
    public var rateText: String {
        published?.description ?? Self.significant(numerator, denominator, digits: 6)
    }

    /// `1 EUR = 175.68 JPY (ECB 2026-10-30)`.
    public var description: String {
        "1 \(from.code) = \(rateText) \(to.code) (\(source) \(day))"
    }

    /// `money` in `to`, at this rate: multiplied exactly and rounded once to `to`'s minor units,
    /// half away from zero (docs/business-rules.md). Nil when `money` is not in `from`, or the
    /// result is beyond what an amount can hold.
    public func convert(_ money: Money) -> Money? {
        guard money.currency == from else { return nil }
        return money.converted(times: numerator, over: denominator, into: to)
    }

    /// `numerator / denominator` to `digits` significant digits, rounded half up, without
    /// trailing zeros: `157.250`, `0.00635929`.
    static func significant(_ numerator: Int128, _ denominator: Int128, digits: Int) -> String {
        guard numerator > 0, denominator > 0 else { return "0" }
        // How many digits the whole part has, or how many zeros follow the point.
        let whole = numerator / denominator
        var decimals: Int
        if whole > 0 {
            decimals = max(0, digits - String(whole).count)
        } else {
            var zeros = 0
            var scaled = numerator * 10
            while scaled < denominator, zeros < 20 {
                zeros += 1
                scaled *= 10
            }
            decimals = zeros + digits
        }
        decimals = min(decimals, 20)
        // Long division, a digit at a time (no product can overflow), then rounded on the next.
        var value = whole
        var remainder = numerator % denominator
        for _ in 0..<decimals {
            remainder *= 10
            value = value * 10 + remainder / denominator
            remainder %= denominator
        }
        if remainder * 2 >= denominator { value += 1 }
        var text = String(value)
        guard decimals > 0 else { return text }
        if text.count <= decimals { text = String(repeating: "0", count: decimals - text.count + 1) + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

public enum RatesError: Error, Equatable, Sendable {
    /// A rates file that cannot be read: each line that cannot, at most 20. Nothing changed.
    case malformed([String])
    /// No rate between the two on or before the day.
    case noRate(from: Currency, to: Currency, on: Day)
    case storeUnavailable(String)

    public var message: String {
        switch self {
        case .malformed(let problems): "The rates file cannot be read; the table is unchanged:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
        case .noRate(let from, let to, let day): "There is no rate from \(from.code) to \(to.code) on or before \(day)."
        case .storeUnavailable(let reason): "The rate table cannot be read or kept: \(reason)"
        }
    }
}

/// The reference rates this machine has. Rates are public data, the same for every user, so
/// no call takes a user.
public protocol RatesService: Sendable {
    /// The table as it stands.
    func table() async throws(RatesError) -> RateTable
    /// Adds the days of a newer file in the ECB's layout (`eurofxref-hist.csv`, or the daily
    /// `eurofxref.csv`); where both have a day, the file's rates win. A file that cannot be read
    /// whole changes nothing. Returns the table as it now stands.
    func update(fromECB text: String) async throws(RatesError) -> RateTable
}

extension RatesService {
    /// Balances in more than one currency as one total in `target`, at the rates of `day`: what
    /// the screens add below balances in several currencies. Nil for one currency (or none),
    /// when the table cannot be read, or when a currency has no rate.
    public func total(ofSeveral amounts: [Money], in target: Currency, on day: Day) async -> ConvertedTotal? {
        guard Set(amounts.map(\.currency)).count > 1, let table = try? await table() else { return nil }
        return table.total(amounts, in: target, on: day)
    }

    /// The rate from `from` to `to` on `day` (``RateTable/quote(from:to:on:)``).
    public func quote(from: Currency, to: Currency, on day: Day) async throws(RatesError) -> RateQuote {
        guard let quote = try await table().quote(from: from, to: to, on: day) else { throw .noRate(from: from, to: to, on: day) }
        return quote
    }
}

/// Amounts in several currencies as one total in another: a view, never stored.
public struct ConvertedTotal: Equatable, Sendable {
    /// The total in the target currency: each currency's amount converted and rounded once,
    /// then added.
    public let total: Money
    /// For each other currency, the rate between it and the target as a person states it: the
    /// way round that is 1 or more (`1 EUR = 175.68 JPY`, whichever is the target).
    public let rates: [RateQuote]
}

extension RateTable {
    /// `amounts` (any currencies, several of one allowed) in `target` at the rates of `day`; nil
    /// when a currency has no rate on or before it, or the total is beyond what a Money holds.
    public func total(_ amounts: [Money], in target: Currency, on day: Day) -> ConvertedTotal? {
        var sums: [Currency: Int64] = [:]
        for amount in amounts {
            let (sum, over) = sums[amount.currency, default: 0].addingReportingOverflow(amount.minorUnits)
            guard !over else { return nil }
            sums[amount.currency] = sum
        }
        var total: Int64 = 0
        var rates: [RateQuote] = []
        for currency in sums.keys.sorted(by: { $0.code < $1.code }) {
            let amount = Money(minorUnits: sums[currency] ?? 0, currency: currency)
            var converted = amount.minorUnits
            if currency != target {
                guard let quote = quote(from: currency, to: target, on: day), let into = quote.convert(amount),
                      let back = self.quote(from: target, to: currency, on: day)
                else { return nil }
                converted = into.minorUnits
                rates.append(quote.numerator >= quote.denominator ? quote : back)
            }
            let (sum, over) = total.addingReportingOverflow(converted)
            guard !over else { return nil }
            total = sum
        }
        return ConvertedTotal(total: Money(minorUnits: total, currency: target), rates: rates)
    }
}

extension ConvertedTotal {
    /// `In all, in EUR: you are owed 338.06 EUR (at 1 EUR = 175.68 JPY, ECB 2026-10-30).`, for a
    /// user's balances (above zero: owed to them); with someone's `name`, the balances with them
    /// (`Bob Stone owes you 18.63 EUR`).
    public func sentence(with name: String? = nil) -> String {
        // (A total is never Int64.min: each part is at most a ledger's limit.)
        let amount = Money(minorUnits: Int64(clamping: total.minorUnits.magnitude), currency: total.currency)
        let standing: String
        if let name {
            standing = total.minorUnits == 0 ? "you and \(name) are settled up" : total.minorUnits > 0 ? "\(name) owes you \(amount)" : "you owe \(name) \(amount)"
        } else {
            standing = total.minorUnits == 0 ? "you are settled up" : total.minorUnits > 0 ? "you are owed \(amount)" : "you owe \(amount)"
        }
        return "In all, in \(total.currency.code): \(standing)" + (rates.isEmpty ? "." : " (at \(statedRates)).")
    }

    /// The rates as a sentence states them, their source and day said once for those that
    /// share them: `1 EUR = 175.68 JPY and 1 EUR = 1.1172 USD, ECB 2026-10-30`.
    public var statedRates: String {
        var groups: [(source: String, day: Day, rates: [String])] = []
        for quote in rates {
            let rate = "1 \(quote.from.code) = \(quote.rateText) \(quote.to.code)"
            if let index = groups.firstIndex(where: { $0.source == quote.source && $0.day == quote.day }) {
                groups[index].rates.append(rate)
            } else {
                groups.append((quote.source, quote.day, [rate]))
            }
        }
        return groups.map { "\($0.rates.joined(separator: " and ")), \($0.source) \($0.day)" }.joined(separator: "; ")
    }
}
