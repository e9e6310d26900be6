import Expenses
import Foundation
import Interchange
import Primitives

/// Spliit's JSON export of a group: `{name, currencyCode, participants: [{id, name}], expenses:
/// [{expenseDate, title, amount, paidById, paidFor: [{participantId, shares}], splitMode,
/// isReimbursement, notes, ...}]}`. Amounts are minor units of the group's currency; shares are
/// ×100 in every mode but `BY_AMOUNT`, where they are minor units.
///
/// Each expense's parts: `EVENLY` shares the amount equally, `BY_SHARES` and `BY_PERCENTAGE`
/// in proportion to the shares, `BY_AMOUNT` as given; units left over go by the largest
/// remainder, ties to the earlier participant of the expense. A reimbursement is a payment from
/// its payer to its one participant. A conversion from another currency is Spliit's own: the
/// amount, in the group's currency, is what is imported.
public enum SpliitJSON {
    public static let format = "spliit"

    /// An export, as Spliit writes it and as `write` does.
    struct File: Codable {
        struct Participant: Codable {
            var id: String
            var name: String
        }
        struct Share: Codable {
            var participantId: String
            var shares: Int64
        }
        struct Expense: Codable {
            var expenseDate: String
            var title: String
            var category: Int?
            var amount: Int64
            var paidById: String
            var paidFor: [Share]
            var splitMode: String?
            var isReimbursement: Bool?
            var notes: String?
        }
        var name: String?
        var currencyCode: String?
        var participants: [Participant]
        var expenses: [Expense]
    }

    public static func read(contentsOf path: String) throws(SheetProblems) -> Sheet {
        try read(text: try fileText(path))
    }

    public static func read(text: String) throws(SheetProblems) -> Sheet {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(text.utf8))
        } catch {
            throw SheetProblems([SheetNote(row: nil, "This is not a Spliit export: it lacks participants, expenses or one of their fields.")])
        }
        guard let currency = Currency(code: file.currencyCode ?? "") else {
            throw SheetProblems([SheetNote(row: nil, "Its currency, \((file.currencyCode ?? "none").debugDescription), is not one Flows knows.")])
        }
        let place = Dictionary(file.participants.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [SheetNote] = []
        var entries: [SheetEntry] = []
        var keys = RowKeys(format: format)
        for (index, expense) in file.expenses.enumerated() {
            let row = index + 1
            let fail = { (message: String) in problems.append(SheetNote(row: row, "\(expense.title.isEmpty ? "It" : expense.title): \(message)")) }
            guard let day = try? Day(String(expense.expenseDate.prefix(10))) else { fail("its date, \(expense.expenseDate.debugDescription), has no day."); continue }
            guard expense.amount > 0 else { fail("its amount is not above zero."); continue }
            guard let payer = place[expense.paidById] else { fail("its payer is not a participant."); continue }
            let people = expense.paidFor.compactMap { place[$0.participantId] }
            guard people.count == expense.paidFor.count, !people.isEmpty, Set(people).count == people.count else {
                fail("it is paid for participants the export does not list, or none, or one twice."); continue
            }
            let movement: SheetEntry.Movement
            if expense.isReimbursement == true {
                guard people.count == 1, people[0] != payer else { fail("a reimbursement is paid to one other participant."); continue }
                movement = .payment(from: payer, to: people[0])
            } else {
                guard let parts = Self.parts(expense, people: people, in: currency) else { fail("its shares do not split its amount (\(expense.splitMode ?? "EVENLY"))."); continue }
                movement = .expense(paid: [payer: expense.amount], parts: Shares(parts.filter { $0.amount > 0 }))
            }
            let content = [day.description, expense.title, "\(expense.amount)", expense.paidById]
                + expense.paidFor.map { "\($0.participantId)=\($0.shares)" } + [expense.splitMode ?? "", "\(expense.isReimbursement ?? false)"]
            entries.append(SheetEntry(
                row: row, day: day, description: expense.title.oneLine,
                category: .general, amount: Money(minorUnits: expense.amount, currency: currency), movement: movement,
                key: keys.key(content), note: expense.notes.flatMap { $0.isEmpty ? nil : $0 },
                group: file.name
            ))
        }
        guard problems.isEmpty else { throw SheetProblems(problems) }
        return Sheet(format: format, people: file.participants.map(\.name), entries: entries)
    }

    /// The participants' parts, in the expense's order, adding up to its amount; nil when its
    /// shares cannot.
    static func parts(_ expense: File.Expense, people: [Int], in currency: Currency) -> [Shares.Share]? {
        let shares = expense.paidFor.map(\.shares)
        guard shares.allSatisfy({ $0 >= 0 }) else { return nil }
        let amounts: [Int64]
        switch expense.splitMode ?? "EVENLY" {
        case "BY_AMOUNT":
            guard shares.reduce(0, &+) == expense.amount else { return nil }
            amounts = shares
        case "EVENLY", "BY_SHARES", "BY_PERCENTAGE":
            let weights = expense.splitMode == "BY_SHARES" || expense.splitMode == "BY_PERCENTAGE" ? shares : shares.map { _ in 1 }
            let total = weights.reduce(0, &+)
            guard total > 0, expense.splitMode != "BY_PERCENTAGE" || total == 10_000 else { return nil }
            // Each part rounded down, then the units left over to the largest remainders.
            var floors: [Int64] = []
            var remainders: [Int128] = []
            for weight in weights {
                let (part, remainder) = (Int128(expense.amount) * Int128(weight)).quotientAndRemainder(dividingBy: Int128(total))
                floors.append(Int64(part))
                remainders.append(remainder)
            }
            let left = Int(expense.amount - floors.reduce(0, +))
            let order = remainders.indices.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
            for index in order.prefix(left) { floors[index] += 1 }
            amounts = floors
        default:
            return nil
        }
        return zip(people, amounts).map { Shares.Share(person: $0, amount: $1) }
    }
}

extension SpliitJSON {
    /// Why a sheet cannot be written as a Spliit group.
    public struct WriteProblem: Error, Equatable, Sendable {
        public var message: String

        public init(message: String) {
            self.message = message
        }
    }

    /// The sheet as one Spliit group named `name`, for Spliit's import: every expense split
    /// `BY_AMOUNT` with each part in minor units, and a payment as a reimbursement. Spliit's group
    /// has one payer per expense, so an expense with several is written as one per payer, each
    /// covering the parts in order (every balance stays the same); and one currency, so a
    /// sheet in several is refused (export a group, or a period, in one). A sheet with nothing in
    /// it is a group in euros.
    public static func write(_ sheet: Sheet, name: String) throws(WriteProblem) -> String {
        let currencies = Set(sheet.entries.map(\.amount.currency.code))
        guard currencies.count <= 1 else {
            throw WriteProblem(message: "A Spliit group has one currency; these expenses are in \(currencies.sorted().joined(separator: ", ")). Export one group (--group) or a period (--since) in one currency.")
        }
        let id = { (person: Int) in "p\(person + 1)" }
        var expenses: [File.Expense] = []
        for entry in sheet.entries {
            let date = entry.day.description + "T00:00:00.000Z"
            switch entry.movement {
            case .payment(let from, let to):
                expenses.append(File.Expense(
                    expenseDate: date, title: entry.description.isEmpty ? "Payment" : entry.description, category: 0, amount: entry.amount.minorUnits,
                    paidById: id(from), paidFor: [File.Share(participantId: id(to), shares: entry.amount.minorUnits)],
                    splitMode: "BY_AMOUNT", isReimbursement: true, notes: entry.note
                ))
            case .expense(let paid, let parts):
                for (payer, covered) in coverage(paid: paid, parts: parts) {
                    // A part the same person has twice (their own, in two stretches) is one.
                    var shares: [File.Share] = []
                    for share in covered where share.amount > 0 {
                        if let index = shares.firstIndex(where: { $0.participantId == id(share.person) }) {
                            shares[index].shares += share.amount
                        } else {
                            shares.append(File.Share(participantId: id(share.person), shares: share.amount))
                        }
                    }
                    expenses.append(File.Expense(
                        expenseDate: date, title: entry.description, category: 0, amount: shares.reduce(0) { $0 + $1.shares },
                        paidById: id(payer), paidFor: shares, splitMode: "BY_AMOUNT", isReimbursement: false, notes: entry.note
                    ))
                }
            }
        }
        let file = File(
            name: name, currencyCode: currencies.first ?? "EUR",
            participants: sheet.people.enumerated().map { File.Participant(id: id($0), name: $1) }, expenses: expenses
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(file)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? ""
    }

    /// Each payer with the parts their payment covers: the parts, in order, filled from the
    /// first payer on.
    static func coverage(paid: Shares, parts: Shares) -> [(payer: Int, parts: [Shares.Share])] {
        var left = parts.list
        var covered: [(payer: Int, parts: [Shares.Share])] = []
        for payer in paid.list where payer.amount > 0 {
            var need = payer.amount
            var mine: [Shares.Share] = []
            while need > 0, let first = left.first {
                let take = min(need, first.amount)
                if take > 0 { mine.append(Shares.Share(person: first.person, amount: take)) }
                need -= take
                if take == first.amount { left.removeFirst() } else { left[0].amount -= take }
            }
            covered.append((payer.person, mine))
        }
        return covered.filter { !$0.parts.isEmpty }
    }
}
