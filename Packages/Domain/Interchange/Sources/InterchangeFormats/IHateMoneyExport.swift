import Expenses
import Foundation
import Interchange
import Primitives

/// IHateMoney's exports of a project, as JSON (a list of objects) or CSV (a header naming the
/// same fields):
/// - **bills**: `date, what, bill_type, amount, currency, payer_name, payer_weight, owers`. The
///   payer paid the amount for the owers, who share it in proportion to their weights (a
///   member's weight is the `payer_weight` of the bills they paid, else 1). A `Reimbursement`
///   to one other member is a payment.
/// - **settlements**: `amount, currency, receiver, ower`, the payments that would settle the
///   project. Each is brought over as the balance it stands for: an expense "Balance from
///   IHateMoney" the receiver paid and the ower had a part of, on the day of the import.
///
/// Older exports lack `bill_type` (an expense) and `currency`; a bill with no currency (or
/// `XXX`) is in the one the import is told. Parts are exact, then rounded as Splitwise's nets
/// are (``RunningNets``): each member's imported balance is their exact balance in the file,
/// rounded by the largest remainder. A cell that IHateMoney guarded against spreadsheets
/// (`'=…`) is read without the guard; Cospend's helper rows (`deleteMeIfYouWant`,
/// `categoryname`) are skipped.
public enum IHateMoneyExport {
    public static let format = "ihatemoney"

    /// One object or record of either export, every field as text.
    struct Record {
        var row: Int
        var fields: [String: String]
        var owers: [String]

        subscript(_ name: String) -> String { fields[name] ?? "" }
        func has(_ name: String) -> Bool { fields[name] != nil }
    }

    /// Reads the file at `path`; `currency` is for bills that name none, `today` the day
    /// settlements are brought over on.
    public static func read(contentsOf path: String, currency: Currency?, today: Day) throws(SheetProblems) -> Sheet {
        try read(text: try fileText(path), currency: currency, today: today)
    }

    public static func read(text: String, currency: Currency?, today: Day) throws(SheetProblems) -> Sheet {
        let unmarked = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let records = unmarked.first(where: { !$0.isWhitespace }) == "[" ? try json(unmarked) : try csv(unmarked)
        return try sheet(records, currency: currency, today: today)
    }

    // MARK: Reading the records

    private static func json(_ text: String) throws(SheetProblems) -> [Record] {
        guard let list = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
            throw SheetProblems([SheetNote(row: nil, "This is not an IHateMoney export: its JSON is not a list of bills or settlements.")])
        }
        var records: [Record] = []
        for (index, item) in list.enumerated() {
            guard let object = item as? [String: Any] else {
                throw SheetProblems([SheetNote(row: index + 1, "It is not an object with a bill's or a settlement's fields.")])
            }
            var fields: [String: String] = [:]
            var owers: [String] = []
            for (name, value) in object {
                switch value {
                case let text as String: fields[name] = text
                case let number as NSNumber: fields[name] = number.stringValue
                case let list as [Any]: owers = list.compactMap { $0 as? String }
                default: break
                }
            }
            records.append(Record(row: index + 1, fields: fields, owers: owers))
        }
        return records
    }

    private static func csv(_ text: String) throws(SheetProblems) -> [Record] {
        var header: [String]?
        var records: [Record] = []
        var ended = false
        try CSVRecords.read(text: text) { number, cells throws(SheetProblems) in
            guard !ended, cells.contains(where: { !$0.isEmpty }) else { return }
            guard let names = header else {
                guard cells.contains("amount") else {
                    throw SheetProblems([SheetNote(row: number, "This is not an IHateMoney export: its first line names no amount column.")])
                }
                header = cells
                return
            }
            var fields: [String: String] = [:]
            for (index, name) in names.enumerated() where !name.isEmpty { fields[name] = index < cells.count ? cells[index] : "" }
            // Cospend's own rows in an export meant for IHateMoney.
            if fields["what"] == "deleteMeIfYouWant" { return }
            if fields["what"] == "categoryname" { ended = true; return }
            let owers = (fields["owers"] ?? "").split(separator: ",").map { unguarded($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
            records.append(Record(row: number, fields: fields, owers: owers))
        }
        return records
    }

    /// A cell without the `'` IHateMoney puts before one beginning `=`, `+`, `-`, `@`, a tab or
    /// a line break.
    static func unguarded(_ text: String) -> String {
        guard text.count > 1, text.first == "'", let second = text.dropFirst().first, "=+-@\t\n".contains(second) else { return text }
        return String(text.dropFirst())
    }

    // MARK: From records to a sheet

    private static func sheet(_ records: [Record], currency fallback: Currency?, today: Day) throws(SheetProblems) -> Sheet {
        guard let first = records.first else { throw SheetProblems([SheetNote(row: nil, "The file holds no bills and no settlements.")]) }
        let settlements = first.has("receiver") && first.has("ower")
        guard settlements || (first.has("payer_name") && first.has("what")) else {
            throw SheetProblems([SheetNote(row: first.row, "This is not an IHateMoney export: it has neither a bill's fields (what, payer_name, owers) nor a settlement's (receiver, ower).")])
        }
        // Everyone, in the order they first appear; weights from the bills they paid.
        var people: [String] = []
        var place: [String: Int] = [:]
        var weights: [String: ExactAmount] = [:]
        let named = { (name: String) in
            if place[name] == nil {
                place[name] = people.count
                people.append(name)
            }
        }
        for record in records {
            if settlements {
                named(unguarded(record["receiver"]))
                named(unguarded(record["ower"]))
            } else {
                let payer = unguarded(record["payer_name"])
                named(payer)
                if weights[payer] == nil, let weight = ExactAmount(record["payer_weight"]) { weights[payer] = weight }
                record.owers.forEach(named)
            }
        }
        var reading = Reading(people: people, place: place, weights: weights, fallback: fallback, today: today)
        for record in records {
            if settlements { reading.settlement(record) } else { reading.bill(record) }
        }
        guard reading.problems.isEmpty else { throw SheetProblems(reading.problems) }
        return Sheet(format: format, people: people, entries: reading.entries, passed: reading.passed)
    }

    private struct Reading {
        let people: [String]
        let place: [String: Int]
        let weights: [String: ExactAmount]
        let fallback: Currency?
        let today: Day
        var running: RunningNets
        var keys = RowKeys(format: IHateMoneyExport.format)
        var entries: [SheetEntry] = []
        var passed: [SheetNote] = []
        var problems: [SheetNote] = []

        init(people: [String], place: [String: Int], weights: [String: ExactAmount], fallback: Currency?, today: Day) {
            self.people = people
            self.place = place
            self.weights = weights
            self.fallback = fallback
            self.today = today
            running = RunningNets(count: people.count)
        }

        private mutating func fail(_ record: Record, _ message: String) {
            guard problems.count < 100 else { return }
            problems.append(SheetNote(row: record.row, message))
        }

        /// The record's currency, or the one the import was told for records without one.
        private mutating func currency(_ record: Record) -> Currency? {
            let code = record["currency"]
            if code.isEmpty || code == "XXX" {
                guard let fallback else {
                    fail(record, "It names no currency: say which with --currency.")
                    return nil
                }
                return fallback
            }
            guard let currency = Currency(code: code) else {
                fail(record, "Its currency, \(code.debugDescription), is not one Flows knows.")
                return nil
            }
            return currency
        }

        mutating func bill(_ record: Record) {
            let what = unguarded(record["what"]).oneLine
            guard let day = try? Day(String(record["date"].prefix(10))) else {
                return fail(record, "Its date, \(record["date"].debugDescription), is not a day like 2026-11-28.")
            }
            guard let currency = currency(record) else { return }
            guard let amount = ExactAmount(record["amount"]) else {
                return fail(record, "Its amount, \(record["amount"].debugDescription), is not a number.")
            }
            let payerName = unguarded(record["payer_name"])
            guard let payer = place[payerName], !record.owers.isEmpty, Set(record.owers).count == record.owers.count else {
                return fail(record, "It names no one it was paid for, or someone twice.")
            }
            let owers = record.owers.compactMap { place[$0] }
            guard let parts = Self.parts(of: amount, among: owers.map { weights[people[$0]] ?? ExactAmount(nanos: ExactAmount.scale) }) else {
                return fail(record, "Its owers' weights add up to nothing, so it cannot be shared.")
            }
            var nets = Array(repeating: ExactAmount.zero, count: people.count)
            nets[payer].nanos += amount.nanos
            for (ower, part) in zip(owers, parts) { nets[ower].nanos -= part }
            let rounded: [Int64]
            switch running.take(nets, in: currency) {
            case .success(let moved): rounded = moved
            case .failure: return fail(record, "Its amount takes a member's balance beyond what can be read exactly.")
            }
            guard rounded.contains(where: { $0 != 0 }) else {
                return passed.append(SheetNote(row: record.row, "\(what.isEmpty ? "It" : what) moves no balance, so it is left out."))
            }
            // A negative bill (money the payer received for the owers) is the owers paying the
            // payer back their parts.
            let cost = amount > .zero ? amount.rounded(to: currency) : rounded.filter { $0 > 0 }.reduce(0, +)
            let movement: SheetEntry.Movement
            if record["bill_type"].lowercased() == "reimbursement", owers.count == 1, owers[0] != payer, amount > .zero {
                movement = .payment(from: payer, to: owers[0])
            } else {
                movement = RunningNets.expense(nets: rounded, cost: cost)
            }
            let weightsUsed = owers.map { "\(people[$0])=\(weights[people[$0]]?.nanos ?? ExactAmount.scale)" }
            let key = keys.key([day.description, what, record["bill_type"], "\(amount.nanos)", currency.code, payerName] + weightsUsed)
            entries.append(SheetEntry(
                row: record.row, day: day, description: what, category: .general,
                amount: Money(minorUnits: cost, currency: currency), movement: movement, key: key
            ))
        }

        mutating func settlement(_ record: Record) {
            guard let currency = currency(record) else { return }
            guard let amount = ExactAmount(record["amount"]), amount > .zero else {
                return fail(record, "Its amount, \(record["amount"].debugDescription), is not a number above zero.")
            }
            guard let receiver = place[unguarded(record["receiver"])], let ower = place[unguarded(record["ower"])], receiver != ower else {
                return fail(record, "A settlement is between two members.")
            }
            var nets = Array(repeating: ExactAmount.zero, count: people.count)
            nets[receiver].nanos += amount.nanos
            nets[ower].nanos -= amount.nanos
            let rounded: [Int64]
            switch running.take(nets, in: currency) {
            case .success(let moved): rounded = moved
            case .failure: return fail(record, "Its amount takes a member's balance beyond what can be read exactly.")
            }
            guard rounded[receiver] > 0 else {
                return passed.append(SheetNote(row: record.row, "It is below a minor unit of \(currency.code), so it is left out."))
            }
            let key = keys.key(["settlement", "\(amount.nanos)", currency.code, people[receiver], people[ower]])
            entries.append(SheetEntry(
                row: record.row, day: today, description: "Balance from IHateMoney", category: .general,
                amount: Money(minorUnits: rounded[receiver], currency: currency),
                movement: RunningNets.expense(nets: rounded, cost: rounded[receiver]), key: key
            ))
        }

        /// `amount` shared by `weights`, exactly to the billionth: each part rounded down, the
        /// billionths left over to the largest remainders (ties to the earlier ower); nil when the
        /// weights add up to nothing.
        static func parts(of amount: ExactAmount, among weights: [ExactAmount]) -> [Int64]? {
            let total = weights.reduce(Int128(0)) { $0 + Int128($1.nanos) }
            guard total > 0, weights.allSatisfy({ $0 >= .zero }) else { return nil }
            var floors: [Int64] = []
            var remainders: [Int128] = []
            for weight in weights {
                var (part, remainder) = (Int128(amount.nanos) * Int128(weight.nanos)).quotientAndRemainder(dividingBy: total)
                if remainder < 0 {
                    part -= 1
                    remainder += total
                }
                floors.append(Int64(part))
                remainders.append(remainder)
            }
            let left = Int(amount.nanos - floors.reduce(0, +))
            let order = remainders.indices.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
            for index in order.prefix(max(left, 0)) { floors[index] += 1 }
            return floors
        }
    }
}
