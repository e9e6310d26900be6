import Expenses
import Foundation
import Interchange
import Primitives

/// Flows' own export: everything a sheet holds, as JSON (docs/import-export.md). Exporting and
/// importing it into an empty store gives the same expenses, parts, payments and balances.
public enum FlowsJSON {
    public static let format = "flows"
    public static let version = 1

    struct File: Codable {
        struct Person: Codable {
            var name: String
            var email: String?
            /// The person whose ledger it is.
            var exporter: Bool?
        }
        struct Share: Codable {
            var person: Int
            var amount: Int64
        }
        struct Entry: Codable {
            /// `expense` or `payment`.
            var kind: String
            var id: String
            var day: String
            var currency: String
            /// Minor units.
            var amount: Int64
            var description: String?
            var category: String?
            var note: String?
            var group: String?
            var paid: [Share]?
            var parts: [Share]?
            var from: Int?
            var to: Int?
        }
        var format: String
        var version: Int
        var people: [Person]
        var entries: [Entry]
    }

    /// The sheet as JSON, keys sorted, one entry to a line.
    public static func write(_ sheet: Sheet) -> String {
        let file = File(
            format: format, version: version,
            people: sheet.people.enumerated().map { index, name in
                File.Person(name: name, email: sheet.emails[index], exporter: sheet.exporter == index ? true : nil)
            },
            entries: sheet.entries.map { entry in
                var line = File.Entry(
                    kind: "expense", id: entry.id ?? entry.key, day: entry.day.description, currency: entry.amount.currency.code, amount: entry.amount.minorUnits,
                    note: entry.note, group: entry.group
                )
                switch entry.movement {
                case .expense(let paid, let parts):
                    line.description = entry.description
                    line.category = entry.category.rawValue
                    line.paid = paid.list.map { File.Share(person: $0.person, amount: $0.amount) }
                    line.parts = parts.list.map { File.Share(person: $0.person, amount: $0.amount) }
                case .payment(let from, let to):
                    line.kind = "payment"
                    line.from = from
                    line.to = to
                }
                return line
            }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(file)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? ""
    }

    /// Reads an export, checking every entry: the people it names exist, its amounts add up.
    public static func read(text: String) throws(SheetProblems) -> Sheet {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(text.utf8))
        } catch {
            throw SheetProblems([SheetNote(row: nil, "This is not a Flows export (\(Self.why(error))).")])
        }
        guard file.format == format else { throw SheetProblems([SheetNote(row: nil, "This is not a Flows export: its format is \(file.format).")]) }
        guard file.version <= version else {
            throw SheetProblems([SheetNote(row: nil, "This export is of version \(file.version); this Flows reads up to version \(version).")])
        }
        var problems: [SheetNote] = []
        var entries: [SheetEntry] = []
        var ids: Set<String> = []
        for (index, line) in file.entries.enumerated() {
            let row = index + 1
            let fail = { (message: String) in problems.append(SheetNote(row: row, message)) }
            guard let day = try? Day(line.day) else { fail("Its day, \(line.day.debugDescription), is not a day like 2026-11-28."); continue }
            guard let currency = Currency(code: line.currency) else { fail("Its currency, \(line.currency.debugDescription), is not one Flows knows."); continue }
            guard line.amount > 0 else { fail("Its amount is not above zero."); continue }
            guard ids.insert(line.id).inserted else { fail("Its id, \(line.id), is another entry's too."); continue }
            let known = { (person: Int) in file.people.indices.contains(person) }
            let amount = Money(minorUnits: line.amount, currency: currency)
            switch line.kind {
            case "expense":
                let paid = line.paid ?? []
                let parts = line.parts ?? []
                guard (paid + parts).allSatisfy({ known($0.person) }) else { fail("It names a person the export does not list."); continue }
                guard paid.allSatisfy({ $0.amount > 0 }), parts.allSatisfy({ $0.amount >= 0 }),
                    paid.reduce(Int64(0), { $0 &+ $1.amount }) == line.amount, parts.reduce(Int64(0), { $0 &+ $1.amount }) == line.amount
                else { fail("What was paid and the parts must each add up to its amount, \(amount)."); continue }
                let category = line.category.flatMap(Category.init(rawValue:)) ?? .other
                entries.append(SheetEntry(
                    row: row, day: day, description: line.description ?? "", category: category, amount: amount,
                    movement: .expense(
                        paid: Shares(paid.map { Shares.Share(person: $0.person, amount: $0.amount) }),
                        parts: Shares(parts.map { Shares.Share(person: $0.person, amount: $0.amount) })
                    ),
                    key: line.id, note: line.note, group: line.group, id: line.id
                ))
            case "payment":
                guard let from = line.from, let to = line.to, known(from), known(to), from != to else {
                    fail("A payment names two of the export's people, one paying the other."); continue
                }
                entries.append(SheetEntry(
                    row: row, day: day, description: "Payment", category: .general, amount: amount, movement: .payment(from: from, to: to),
                    key: line.id, group: line.group, id: line.id
                ))
            default:
                fail("Its kind, \(line.kind.debugDescription), is neither expense nor payment.")
            }
        }
        guard problems.isEmpty else { throw SheetProblems(problems) }
        return Sheet(
            format: format, people: file.people.map(\.name),
            emails: Dictionary(uniqueKeysWithValues: file.people.enumerated().compactMap { index, person in person.email.map { (index, $0) } }),
            exporter: file.people.firstIndex { $0.exporter == true }, entries: entries
        )
    }

    public static func read(contentsOf path: String) throws(SheetProblems) -> Sheet {
        try read(text: try fileText(path))
    }

    private static func why(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: "\(key.stringValue) is missing"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not what it should be"
        case .dataCorrupted?: "it is not JSON"
        default: "\(error)"
        }
    }
}
