import Foundation
import Primitives
import Rates
import Synchronization

/// The ECB's euro reference rates in its CSV layouts: the history (`eurofxref-hist.csv`: a
/// header `Date,USD,JPY,...,` then a day a line, `2026-10-30,1.1172,175.68,...,`, `N/A` where a
/// currency had no rate) and the day's file (`eurofxref.csv`: `Date, USD, ...` then
/// `30 October 2026, 1.1172, ...`). Columns for currencies Flows does not know are passed over.
public enum ECBRates {
    public static let source = "ECB"

    /// Reads a whole file, or says every line that cannot be read (at most 20).
    public static func read(_ text: String) throws(RatesError) -> RateTable {
        // Byte by byte: the shipped history is 1.5 MB, read at the first quote.
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let cellsOf = { (line: ArraySlice<UInt8>) in line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(Self.trimmed) }
        let header = lines.first.map(cellsOf)?.map { String(decoding: $0, as: UTF8.self) } ?? []
        guard header.first == "Date", header.count > 1 else {
            throw .malformed(["Line 1: an ECB rates file begins with Date and the currencies (Date,USD,JPY,...)."])
        }
        let currencies = header.dropFirst().map { Currency(code: $0) }
        var problems: [String] = []
        var days: [RateDay] = []
        for (index, line) in lines.enumerated().dropFirst() {
            guard problems.count < 20 else { break }
            let cells = cellsOf(line)
            guard cells.contains(where: { !$0.isEmpty }) else { continue }
            let first = String(decoding: cells[0], as: UTF8.self)
            guard let day = Self.day(first) else {
                problems.append("Line \(index + 1): \(first.debugDescription) is not a day (2026-10-30 or 30 October 2026).")
                continue
            }
            guard cells.count <= header.count || cells[header.count...].allSatisfy(\.isEmpty) else {
                problems.append("Line \(index + 1): it has more cells than the header has currencies.")
                continue
            }
            var rates: [Currency: PublishedRate] = [:]
            for (column, cell) in cells.dropFirst().enumerated() where column < currencies.count && !cell.isEmpty && !cell.elementsEqual("N/A".utf8) {
                guard let rate = PublishedRate(bytes: cell) else {
                    problems.append("Line \(index + 1): \(header[column + 1])'s rate, \(String(decoding: cell, as: UTF8.self).debugDescription), is not a number above zero.")
                    break
                }
                if let currency = currencies[column], currency != .eur { rates[currency] = rate }
            }
            days.append(RateDay(day: day, rates: rates))
        }
        guard problems.isEmpty else { throw .malformed(problems) }
        guard !days.isEmpty else { throw .malformed(["It holds no day's rates."]) }
        return RateTable(source: source, days: days)
    }

    /// A cell without the spaces (and a line's carriage return) around it.
    private static func trimmed(_ cell: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        guard let start = cell.firstIndex(where: { !blank($0) }), let end = cell.lastIndex(where: { !blank($0) }) else { return [] }
        return cell[start...end]
    }

    /// The table as an ECB history file: newest day first, every currency any day has.
    public static func write(_ table: RateTable) -> String {
        var codes = Set<Currency>()
        for day in table.days { codes.formUnion(day.rates.keys) }
        let columns = codes.sorted { $0.code < $1.code }
        var lines = ["Date," + columns.map(\.code).joined(separator: ",") + ","]
        for day in table.days.reversed() {
            lines.append(day.day.description + "," + columns.map { day.rates[$0]?.description ?? "N/A" }.joined(separator: ",") + ",")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// `2026-10-30`, or the day's file's `30 October 2026`.
    static func day(_ text: String) -> Day? {
        if let day = try? Day(text) { return day }
        let parts = text.split(separator: " ")
        guard parts.count == 3, let date = Int(parts[0]), let month = months.firstIndex(of: String(parts[1])), let year = Int(parts[2]) else { return nil }
        let twoDigits = { (number: Int) in number < 10 ? "0\(number)" : "\(number)" }
        return try? Day("\(year)-\(twoDigits(month + 1))-\(twoDigits(date))")
    }
}

/// The rates this machine has: those the app ships, or the table kept in the store's folder
/// once a newer ECB file was imported (`rates/eurofxref-hist.csv`). Read once, when first asked.
public final class ECBRatesService: RatesService {
    /// Where a newer table is kept; nil keeps it in memory only.
    private let file: URL?
    private let loaded = Mutex<RateTable?>(nil)

    /// Rates kept under `directory` (the store's folder).
    public init(directory: URL) {
        file = directory.appendingPathComponent("rates").appendingPathComponent("eurofxref-hist.csv")
    }

    /// The shipped rates, with updates kept in memory only (a store in memory, tests).
    public init() {
        file = nil
    }

    /// The rates the app ships with, whatever is kept: read once a process, when first asked.
    public static func shipped() throws(RatesError) -> RateTable {
        try shippedTable.get()
    }

    private static let shippedTable = Result { () throws(RatesError) in try ECBRates.read(ShippedRates.text) }

    public func table() async throws(RatesError) -> RateTable {
        if let table = loaded.withLock({ $0 }) { return table }
        let table: RateTable
        if let file, let data = FileManager.default.contents(atPath: file.path) {
            guard let text = String(data: data, encoding: .utf8) else { throw .storeUnavailable("\(file.path) is not UTF-8 text") }
            do throws(RatesError) {
                table = try ECBRates.read(text)
            } catch {
                throw .storeUnavailable("\(file.path) cannot be read: \(error.message)")
            }
        } else {
            table = try Self.shipped()
        }
        loaded.withLock { $0 = table }
        return table
    }

    public func update(fromECB text: String) async throws(RatesError) -> RateTable {
        let newer = try ECBRates.read(text)
        let merged = try await table().merging(newer)
        if let file {
            try Self.keep(merged, in: file)
        }
        loaded.withLock { $0 = merged }
        return merged
    }

    private static func keep(_ table: RateTable, in file: URL) throws(RatesError) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try ECBRates.write(table).write(to: file, atomically: true, encoding: .utf8)
        } catch {
            throw .storeUnavailable("\(file.path) cannot be written: \(error.localizedDescription)")
        }
    }
}
