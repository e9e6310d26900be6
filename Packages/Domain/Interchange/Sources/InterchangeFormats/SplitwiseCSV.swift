import Expenses
import Interchange
import Primitives

/// Splitwise's "Export as spreadsheet": a header `Date,Description,Category,Cost,Currency`
/// then one column per member; each row an expense or a payment (Category `Payment`), each
/// member's cell their net in it (paid less their part, possibly below a cent); blank lines
/// between blocks; and a `Total balance` row per currency with each member's total.
///
/// A row says only each member's net, so it is read by one rule (docs/business-rules.md):
/// - nets in whole minor units are taken as they are; a row with a net below a minor unit takes
///   what rounding each member's running total in that currency (by the largest remainder, to
///   a sum of zero) moves, so that each member's rounded nets add up to their exact total
///   rounded the same way;
/// - the members with a net above zero paid; those below had a part of their net's size; the
///   rest of the cost is the payers' own part, shared evenly among them (earlier columns take
///   the units left over);
/// - a `Payment` row is one member paying another: the one above zero paid the one below.
///
/// Every row must add up (nets to zero, a cost at least what is owed) and the rounded nets to
/// each member's `Total balance`, or the file is refused with every row that disagrees.
public enum SplitwiseCSV {
    public static let format = "splitwise"
    static let fixedColumns = ["Date", "Description", "Category", "Cost", "Currency"]

    /// Reads the file at `path`.
    public static func read(contentsOf path: String) throws(SheetProblems) -> Sheet {
        var reading = Reading()
        try CSVRecords.read(contentsOf: path) { number, record throws(SheetProblems) in try reading.take(number, record) }
        return try reading.finished()
    }

    /// Reads a whole export given as text.
    public static func read(text: String) throws(SheetProblems) -> Sheet {
        var reading = Reading()
        try CSVRecords.read(text: text) { number, record throws(SheetProblems) in try reading.take(number, record) }
        return try reading.finished()
    }

    /// The categories Splitwise files expenses under, as Flows' own.
    static func category(_ name: String) -> Category {
        switch name.lowercased() {
        case "dining out", "food and drink", "liquor": .food
        case "groceries": .groceries
        case "rent", "mortgage", "household supplies", "maintenance", "furniture", "home", "services", "pets": .housing
        case "electricity", "heat/gas", "water", "tv/phone/internet", "trash", "cleaning", "utilities": .utilities
        case "bus/train", "car", "gas/fuel", "parking", "taxi", "bicycle", "transportation": .transport
        case "hotel", "plane": .travel
        case "games", "movies", "music", "sports", "entertainment": .entertainment
        case "medical expenses", "insurance": .health
        case "clothing", "electronics": .shopping
        case "gifts": .gifts
        case "general", "uncategorized", "payment", "": .general
        default: .other
        }
    }

    /// One pass over the records.
    struct Reading {
        var header: Int?
        var people: [String] = []
        var entries: [SheetEntry] = []
        var passed: [SheetNote] = []
        var problems: [SheetNote] = []
        /// Each member's nets so far, exact and rounded.
        var running = RunningNets(count: 0)
        /// Per currency, the file's own totals, and the row stating them.
        var totals: [String: (row: Int, amounts: [ExactAmount])] = [:]
        var keys = RowKeys(format: SplitwiseCSV.format)

        mutating func take(_ number: Int, _ record: [String]) throws(SheetProblems) {
            guard record.contains(where: { !$0.isEmpty }) else { return }
            guard header != nil else { return try readHeader(number, record) }
            guard problems.count < 100 else { return }
            if record.count > 1, record[1].lowercased() == "total balance" {
                readTotals(number, record)
            } else {
                readRow(number, record)
            }
        }

        private mutating func readHeader(_ number: Int, _ record: [String]) throws(SheetProblems) {
            let first = record.first.map { $0.hasPrefix("\u{FEFF}") ? String($0.dropFirst()) : $0 }
            let fixed = ([first ?? ""] + record.dropFirst()).prefix(SplitwiseCSV.fixedColumns.count).map { $0.lowercased() }
            guard fixed == SplitwiseCSV.fixedColumns.map({ $0.lowercased() }) else {
                throw SheetProblems([SheetNote(row: number, "This is not a Splitwise export: its first line should begin Date,Description,Category,Cost,Currency.")])
            }
            people = Array(record.dropFirst(SplitwiseCSV.fixedColumns.count))
            while people.last == "" { people.removeLast() }
            var named: Set<String> = []
            var refusals: [SheetNote] = []
            for person in people {
                if person.isEmpty { refusals.append(SheetNote(row: number, "A member's column has no name.")) }
                if !named.insert(person.lowercased()).inserted { refusals.append(SheetNote(row: number, "Two members are named \(person): rename one in the file.")) }
            }
            guard !people.isEmpty else { throw SheetProblems([SheetNote(row: number, "The export names no members after Currency.")]) }
            guard refusals.isEmpty else { throw SheetProblems(refusals) }
            header = number
            running = RunningNets(count: people.count)
        }

        private mutating func readTotals(_ number: Int, _ record: [String]) {
            guard let currency = Currency(code: record.count > 4 ? record[4] : "") else {
                return problems.append(SheetNote(row: number, "The total balance names no currency Flows knows."))
            }
            guard let amounts = nets(number, record) else { return }
            totals[currency.code] = (number, amounts)
        }

        /// Each member's cell as an exact amount; nil (with a problem) when one is not a number
        /// or the row has cells beyond the members.
        private mutating func nets(_ number: Int, _ record: [String]) -> [ExactAmount]? {
            let cells = Array(record.dropFirst(SplitwiseCSV.fixedColumns.count))
            if cells.count > people.count, cells[people.count...].contains(where: { !$0.isEmpty }) {
                problems.append(SheetNote(row: number, "It has \(cells.count) members' cells; the header names \(people.count) members."))
                return nil
            }
            var amounts: [ExactAmount] = []
            for (index, person) in people.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                guard let amount = cell.isEmpty ? .zero : ExactAmount(cell) else {
                    problems.append(SheetNote(row: number, "\(person)'s cell, \(cell.debugDescription), is not an amount."))
                    return nil
                }
                amounts.append(amount)
            }
            return amounts
        }

        private mutating func readRow(_ number: Int, _ record: [String]) {
            let cell = { (index: Int) in index < record.count ? record[index] : "" }
            guard let day = try? Day(cell(0)) else {
                return problems.append(SheetNote(row: number, "Its date, \(cell(0).debugDescription), is not a day like 2026-11-28."))
            }
            guard let currency = Currency(code: cell(4)) else {
                return problems.append(SheetNote(row: number, "Its currency, \(cell(4).debugDescription), is not one Flows knows."))
            }
            guard let cost = ExactAmount(cell(3)), cost >= .zero else {
                return problems.append(SheetNote(row: number, "Its cost, \(cell(3).debugDescription), is not an amount of zero or more."))
            }
            guard let exact = nets(number, record) else { return }
            let unit = ExactAmount.unit(currency)
            let total = exact.reduce(Int64(0)) { $0 &+ $1.nanos }
            guard total.magnitude < unit.magnitude else {
                let sum = ExactAmount(nanos: total).text(in: currency)
                return problems.append(SheetNote(row: number, "Its members' amounts add up to \(sum) \(currency.code), not 0."))
            }
            // Whole minor units as they are; below them, what rounding the running totals moves.
            let nets: [Int64]
            switch running.take(exact, in: currency) {
            case .success(let moved):
                nets = moved
            case .failure(.beyondExact(let person)):
                return problems.append(SheetNote(row: number, "Its amounts take \(people[person])'s total beyond what can be read exactly."))
            case .failure(.unroundable):
                return problems.append(SheetNote(row: number, "Its members' amounts cannot be rounded to whole \(currency.code) units adding up to 0."))
            }

            // A description is one line: line breaks and runs of spaces become one space.
            let description = cell(1).oneLine
            guard nets.contains(where: { $0 != 0 }) else {
                return passed.append(SheetNote(row: number, "\(description.isEmpty ? "It" : description) moves no balance (no member's amount is above zero), so it is left out."))
            }
            let isPayment = cell(2).lowercased() == "payment"
            let amount = cost.rounded(to: currency)
            let movement: SheetEntry.Movement
            if isPayment {
                let payers = nets.indices.filter { nets[$0] > 0 }
                let payees = nets.indices.filter { nets[$0] < 0 }
                guard payers.count == 1, payees.count == 1 else {
                    return problems.append(SheetNote(row: number, "A payment is from one member to another; this one names \(payers.count + payees.count)."))
                }
                movement = .payment(from: payers[0], to: payees[0])
            } else {
                let owed = nets.filter { $0 > 0 }.reduce(0, +)
                guard amount >= owed else {
                    let cost = ExactAmount(minorUnits: amount, of: currency).text(in: currency)
                    let owedText = ExactAmount(minorUnits: owed, of: currency).text(in: currency)
                    return problems.append(SheetNote(row: number, "Its cost, \(cost) \(currency.code), is less than the \(owedText) \(currency.code) the others owe for it."))
                }
                movement = RunningNets.expense(nets: nets, cost: amount)
            }
            let key = keys.key(
                [day.description, description, cell(2), "\(cost.nanos)", currency.code]
                    + people.indices.filter { exact[$0] != .zero }.map { "\(people[$0])=\(exact[$0].nanos)" }.sorted()
            )
            entries.append(SheetEntry(
                row: number, day: day, description: description, category: SplitwiseCSV.category(cell(2)),
                amount: Money(minorUnits: isPayment ? nets.filter { $0 > 0 }.reduce(0, +) : amount, currency: currency),
                movement: movement, key: key
            ))
        }

        /// The sheet, or every problem found: rows that disagree, and totals the rows do not add
        /// up to.
        mutating func finished() throws(SheetProblems) -> Sheet {
            guard header != nil else { throw SheetProblems([SheetNote(row: nil, "The file is empty.")]) }
            for (code, stated) in totals.sorted(by: { $0.key < $1.key }) {
                guard let currency = Currency(code: code) else { continue }
                let sum = running.totals(in: currency)
                guard let rounded = LargestRemainder.share(0, by: stated.amounts, in: currency) else {
                    problems.append(SheetNote(row: stated.row, "The total balance in \(code) does not add up to 0."))
                    continue
                }
                for (index, person) in people.enumerated() {
                    let expected = rounded[index]
                    guard sum[index] != expected else { continue }
                    let rows = ExactAmount(minorUnits: sum[index], of: currency).text(in: currency)
                    let file = ExactAmount(minorUnits: expected, of: currency).text(in: currency)
                    problems.append(SheetNote(row: stated.row, "\(person)'s rows add up to \(rows) \(code); the file's total balance says \(file) \(code)."))
                }
            }
            guard problems.isEmpty else { throw SheetProblems(problems) }
            return Sheet(format: SplitwiseCSV.format, people: people, entries: entries, passed: passed)
        }
    }
}
