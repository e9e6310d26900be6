import Expenses
import Foundation
import Interchange
import InterchangeFormats
import Primitives
import Testing

/// Reading Splitwise's "Export as spreadsheet", on fixtures written for these tests.
@Suite("SplitwiseCSV")
struct SplitwiseCSVTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/import")
    static let flat = fixtures.appendingPathComponent("splitwise-flat.csv").path

    private func eur(_ units: Int64) -> Money { Money(minorUnits: units, currency: .eur) }

    @Test("each row becomes an expense or a payment whose nets are the row's, sub-cent nets rounded so every total matches")
    func flat() throws {
        let sheet = try SplitwiseCSV.read(contentsOf: Self.flat)
        #expect(sheet.people == ["Ada Lovelace", "Bob Stone", "王芳", "Cy Young"])
        #expect(sheet.entries.map(\.row) == [3, 4, 6, 7, 8, 9, 10, 11, 12])
        let (ada, bob, fang, cy) = (0, 1, 2, 3)
        let movements = sheet.entries.map(\.movement)
        #expect(movements == [
            .expense(paid: [ada: 2000], parts: [ada: 1000, cy: 1000]),
            .payment(from: cy, to: ada),
            .expense(paid: [ada: 90000], parts: [ada: 30000, bob: 30000, fang: 30000]),
            // 10.00 among three, Bob paying: the running totals round to 3.33, 3.33 and 3.34.
            .expense(paid: [bob: 1000], parts: [ada: 333, bob: 333, fang: 334]),
            // 0.01 among three, Ada paying: the cent the rounding moves is Bob's.
            .expense(paid: [ada: 1], parts: [bob: 1]),
            .expense(paid: [ada: 3000], parts: [ada: 1000, bob: 1000, fang: 1000]),
            // Two payers: each paid their net, and the rest of the cost (none) is their part.
            .expense(paid: [ada: 3000, bob: 3000], parts: [fang: 6000]),
            .payment(from: bob, to: ada),
            .expense(paid: [bob: 2400], parts: [bob: 1200, fang: 1200]),
        ])
        #expect(sheet.entries[1].amount == eur(1000))
        #expect(sheet.entries[7].amount == eur(30000))
        #expect(sheet.entries[4].description == "Stamps for the letters")
        #expect(sheet.entries[3].description == "Pizza, large")
        #expect(sheet.entries.map(\.category) == [.entertainment, .general, .housing, .food, .general, .transport, .groceries, .general, .entertainment])
        #expect(sheet.entries[5].amount == Money(minorUnits: 3000, currency: .jpy))
        // Each member's nets add up to the file's totals, to the cent.
        var totals: [Int: Int64] = [:]
        for entry in sheet.entries where entry.amount.currency == .eur {
            for (person, net) in entry.nets { totals[person, default: 0] += net }
        }
        #expect(totals.filter { $0.value != 0 } == [ada: 32668, bob: 4866, fang: -37534])
        #expect(sheet.passed.isEmpty)
        #expect(Set(sheet.entries.map(\.key)).count == sheet.entries.count)
    }

    @Test("CRLF line ends and a byte order mark read the same; keys stay the same in a later export with a member more")
    func sameFileOtherwise() throws {
        let text = try String(contentsOfFile: Self.flat, encoding: .utf8)
        let plain = try SplitwiseCSV.read(text: text)
        let windows = try SplitwiseCSV.read(text: "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(windows == plain)

        // The group gained Dee, and a row: the old rows keep their keys.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines = lines.map { line in
            if line.hasPrefix("Date,") { return line + ",Dee Dee" }
            // The first line of a record that goes on to the next keeps its end.
            if line.hasPrefix("2026-10-03") || line.isEmpty { return line }
            return line + ",0.00"
        }
        lines.insert("2026-11-01,Wine,Liquor,12.00,EUR,-6.00,0.00,0.00,0.00,6.00", at: 13)
        let later = try SplitwiseCSV.read(text: lines.joined(separator: "\n").replacingOccurrences(of: "326.68,48.66,-375.34,0.00,0.00", with: "320.68,48.66,-375.34,0.00,6.00"))
        #expect(Set(plain.entries.map(\.key)).isSubset(of: Set(later.entries.map(\.key))))
        #expect(later.entries.count == plain.entries.count + 1)
    }

    @Test("a file that disagrees is refused with every row that does, and totals the rows do not reach")
    func disagreements() throws {
        let text = """
            Date,Description,Category,Cost,Currency,Ada,Bob
            2026-10-01,Lunch,General,20.00,EUR,10.00,-9.00
            2026-10-02,Cheap,General,5.00,EUR,6.00,-6.00
            2026-10-03,Two ways,Payment,5.00,EUR,0.00,0.00
            2026-13-01,Bad day,General,5.00,EUR,2.50,-2.50
            2026-10-04,Bad money,General,5.00,XXX,2.50,-2.50
            2026-10-05,Bad cell,General,5.00,EUR,2.5O,-2.50
            2026-10-06,Fine,General,5.00,EUR,2.50,-2.50
            2026-10-07,Total balance,,,EUR,3.00,-2.50
            """
        #expect(throws: SheetProblems([
            SheetNote(row: 2, "Its members' amounts add up to 1.00 EUR, not 0."),
            SheetNote(row: 3, "Its cost, 5.00 EUR, is less than the 6.00 EUR the others owe for it."),
            SheetNote(row: 5, "Its date, \"2026-13-01\", is not a day like 2026-11-28."),
            SheetNote(row: 6, "Its currency, \"XXX\", is not one Flows knows."),
            SheetNote(row: 7, "Ada's cell, \"2.5O\", is not an amount."),
            SheetNote(row: 9, "The total balance in EUR does not add up to 0."),
        ])) {
            try SplitwiseCSV.read(text: text)
        }
        #expect(throws: SheetProblems([SheetNote(row: 4, "Ada's rows add up to 2.50 EUR; the file's total balance says 3.00 EUR."), SheetNote(row: 4, "Bob's rows add up to -2.50 EUR; the file's total balance says -3.00 EUR.")])) {
            try SplitwiseCSV.read(text: "Date,Description,Category,Cost,Currency,Ada,Bob\n\n2026-10-06,Fine,General,5.00,EUR,2.50,-2.50\n2026-10-07,Total balance,,,EUR,3.00,-3.00\n")
        }
    }

    @Test("a file that is not an export says so; a row that moves nothing is left out, saying so")
    func notAnExport() throws {
        #expect(throws: SheetProblems([SheetNote(row: 1, "This is not a Splitwise export: its first line should begin Date,Description,Category,Cost,Currency.")])) {
            try SplitwiseCSV.read(text: "name,amount\nAda,3\n")
        }
        #expect(throws: SheetProblems([SheetNote(row: nil, "The file is empty.")])) { try SplitwiseCSV.read(text: "\n\n") }
        #expect(throws: SheetProblems([SheetNote(row: 1, "Two members are named ada: rename one in the file.")])) {
            try SplitwiseCSV.read(text: "Date,Description,Category,Cost,Currency,Ada,ada\n")
        }
        let sheet = try SplitwiseCSV.read(text: "Date,Description,Category,Cost,Currency,Ada,Bob\n2026-10-01,Own lunch,General,8.00,EUR,0.00,0.00\n")
        #expect(sheet.entries.isEmpty)
        #expect(sheet.passed == [SheetNote(row: 2, "Own lunch moves no balance (no member's amount is above zero), so it is left out.")])
    }
}
