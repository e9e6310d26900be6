import Expenses
import FlowKit
import FormFields
import Primitives

/// What the reports show: the range as typed and read, and the report in lines of text.
struct ReportsViewState: Equatable, Sendable {
    var from = ""
    var fromRead: String?
    var fromError: String?
    var through = "today"
    var throughRead: String?
    var throughError: String?
    var lines: [String] = []
    var phase = Phase.idle
}

/// Reads the range and turns a spending report into bars.
struct ReportsViewModel: ViewModel {
    /// The longest bar, in characters.
    static let barWidth = 24

    static var examples: [ReportsViewState] {
        guard let today = try? Day("2026-11-22") else { return [] }
        var empty = ReportsViewModel(today: today)
        empty.shown(SpendingReport(byCategory: [], byMonth: []))
        var full = ReportsViewModel(today: today)
        let line = SpendingReport.Line(label: "food", amount: Money(minorUnits: 1000, currency: .eur))
        full.shown(SpendingReport(byCategory: [line], byMonth: [SpendingReport.Line(label: "2026-11", amount: line.amount)]))
        var broken = ReportsViewModel(today: today)
        broken.typed(ReportsView.from, "someday", isFinal: true)
        broken.typed(ReportsView.through, "2026-01-01", isFinal: true)
        _ = broken.range()
        var failing = ReportsViewModel(today: today)
        failing.failed(.storeUnavailable(FlowInventory.anyDetail))
        return [empty.state, full.state, broken.state, failing.state]
    }

    private(set) var state = ReportsViewState()
    private let today: Day

    /// From the first day of this year through today.
    init(today: Day) {
        self.today = today
        state.from = (try? Day(year: today.year, month: 1, day: 1))?.description ?? today.description
        read()
    }

    mutating func typed(_ id: ElementID, _ text: String, isFinal: Bool) {
        switch id {
        case ReportsView.from: state.from = text
        case ReportsView.through: state.through = text
        default: return
        }
        read()
        if isFinal {
            state.fromError = problem(state.from)
            state.throughError = problem(state.through)
        } else {
            if problem(state.from) == nil { state.fromError = nil }
            if problem(state.through) == nil { state.throughError = nil }
        }
        state.phase = .idle
    }

    private mutating func read() {
        state.fromRead = DayEntry(state.from, today: today).read
        state.throughRead = DayEntry(state.through, today: today).read
    }

    private func problem(_ text: String) -> String? {
        DayEntry(text, today: today).problem
    }

    /// The range to add up, or nil with the messages shown.
    mutating func range() -> (from: Day, through: Day)? {
        state.fromError = problem(state.from)
        state.throughError = problem(state.through)
        guard let from = DayEntry(state.from, today: today).day, let through = DayEntry(state.through, today: today).day else { return nil }
        guard from <= through else {
            state.throughError = "The last day comes on or after the first (\(from))."
            return nil
        }
        return (from, through)
    }

    mutating func busy() {
        state.phase = .loading
    }

    /// The report, a section per currency: by category (largest first), then by month.
    mutating func shown(_ report: SpendingReport) {
        state.phase = .idle
        guard !report.byCategory.isEmpty else {
            state.lines = ["You spent nothing in these days: no part of an expense is yours."]
            return
        }
        var lines = ["Your own spending: your parts of expenses, each currency apart."]
        let currencies = Set(report.byCategory.map(\.amount.currency)).sorted { $0.code < $1.code }
        for currency in currencies {
            let categories = report.byCategory.filter { $0.amount.currency == currency }
            let months = report.byMonth.filter { $0.amount.currency == currency }
            let total = categories.reduce(Int128(0)) { $0 + Int128($1.amount.minorUnits) }
            let totalText = Int64(exactly: total).map { Money(minorUnits: $0, currency: currency).description } ?? "more than \(LedgerLimits.largest(currency))"
            lines.append("In \(currency.code), \(totalText) in all. By category:")
            lines += Self.bars(categories.map { ($0.label.prefix(1).uppercased() + $0.label.dropFirst(), $0.amount) })
            lines.append("By month:")
            lines += Self.bars(months.map { ($0.label, $0.amount) })
        }
        state.lines = lines
    }

    /// `Food     ████████████ 120.00 EUR`: each bar as long as its amount against the largest.
    static func bars(_ items: [(label: String, amount: Money)]) -> [String] {
        let largest = items.map(\.amount.minorUnits).max() ?? 0
        let width = items.map(\.label.count).max() ?? 0
        return items.map { item in
            let share = largest > 0 ? Double(item.amount.minorUnits) / Double(largest) : 0
            let length = item.amount.minorUnits > 0 ? max(1, Int((share * Double(barWidth)).rounded())) : 0
            let padding = String(repeating: " ", count: width - item.label.count)
            return "  \(item.label)\(padding) \(String(repeating: "█", count: length)) \(item.amount)"
        }
    }

    mutating func failed(_ error: ExpensesError) {
        state.phase = .failed(error.message)
    }
}
