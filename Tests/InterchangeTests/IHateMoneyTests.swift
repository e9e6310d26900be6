import Expenses
import FlowsServices
import Foundation
import Interchange
import InterchangeFormats
import InterchangeLive
import Primitives
import Testing

/// Reading IHateMoney's exports, on fixtures written for these tests: the same six bills as
/// JSON and as CSV, and the settlements of the same project.
@Suite("IHateMoneyExport")
struct IHateMoneyTests {
    static let bills = SplitwiseCSVTests.fixtures.appendingPathComponent("ihatemoney-bills.json").path
    static let billsCSV = SplitwiseCSVTests.fixtures.appendingPathComponent("ihatemoney-bills.csv").path
    static let settlements = SplitwiseCSVTests.fixtures.appendingPathComponent("ihatemoney-settlements.json").path
    static let today = try! Day("2026-11-28")

    static func read(_ path: String, currency: Currency? = nil) throws -> Sheet {
        try IHateMoneyExport.read(contentsOf: path, currency: currency, today: today)
    }

    /// Each person's total in each currency, from the sheet's entries.
    static func totals(_ sheet: Sheet) -> [String: [Int: Int64]] {
        var totals: [String: [Int: Int64]] = [:]
        for entry in sheet.entries {
            for (person, net) in entry.nets { totals[entry.amount.currency.code, default: [:]][person, default: 0] += net }
        }
        return totals
    }

    @Test("bills: parts in proportion to the members' weights, a cent among three, a reimbursement as a payment, the guard taken off")
    func bills() throws {
        let sheet = try Self.read(Self.bills)
        #expect(sheet.format == "ihatemoney")
        #expect(sheet.people == ["Ada", "Bob", "Zoë", "山田 花子"])
        let (ada, bob, zoe, hanako) = (0, 1, 2, 3)
        #expect(sheet.entries.map(\.movement) == [
            // Bob weighs 2 in every bill, as he does in the bills he paid.
            .expense(paid: [ada: 3000], parts: [ada: 750, bob: 1500, zoe: 750]),
            .expense(paid: [bob: 10000], parts: [ada: 2500, bob: 5000, zoe: 2500]),
            // 0.01 among weights 1, 2 and 1: rounding the running totals moves one cent.
            .expense(paid: [ada: 1], parts: [bob: 1]),
            .expense(paid: [zoe: 3000], parts: [ada: 1000, zoe: 1000, hanako: 1000]),
            .payment(from: bob, to: ada),
            .expense(paid: [ada: 1000], parts: [bob: 666, zoe: 334]),
        ])
        #expect(sheet.entries.map(\.amount) == [
            Money(minorUnits: 3000, currency: .eur), Money(minorUnits: 10000, currency: .eur), Money(minorUnits: 1, currency: .eur),
            Money(minorUnits: 3000, currency: .jpy), Money(minorUnits: 1000, currency: .eur), Money(minorUnits: 1000, currency: .eur),
        ])
        #expect(sheet.entries.map(\.description) == ["Groceries", "Cabin, two nights", "Gum", "Ramen", "Paying Ada back", "=1+1 snacks"])
        #expect(sheet.entries.map(\.day.description) == ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04", "2026-10-05", "2026-10-06"])
        #expect(Set(sheet.entries.map(\.key)).count == 6)
        // Each total is the exact one rounded by the largest remainder: Ada -2.4925, Bob
        // 38.328333…, Zoë -35.835833… EUR.
        #expect(Self.totals(sheet) == ["EUR": [ada: -249, bob: 3833, zoe: -3584], "JPY": [ada: -1000, zoe: 2000, hanako: -1000]])
    }

    @Test("the CSV export (a byte order mark, CRLF, quoted commas) reads as the JSON one does, with the same keys")
    func csv() throws {
        let json = try Self.read(Self.bills)
        let csv = try Self.read(Self.billsCSV)
        #expect(csv.people == json.people)
        #expect(csv.entries.map(\.row) == [2, 3, 4, 5, 6, 7])
        var rowless = csv.entries
        for index in rowless.indices { rowless[index].row = json.entries[index].row }
        #expect(rowless == json.entries)
    }

    @Test("settlements bring over the balances they settle, on the day of the import, and agree with the bills")
    func settlements() throws {
        let sheet = try Self.read(Self.settlements)
        #expect(sheet.people == ["Bob", "Zoë", "Ada", "山田 花子"])
        let (bob, zoe, ada, hanako) = (0, 1, 2, 3)
        #expect(sheet.entries.map(\.movement) == [
            .expense(paid: [bob: 3584], parts: [zoe: 3584]),
            .expense(paid: [bob: 249], parts: [ada: 249]),
            .expense(paid: [zoe: 1000], parts: [ada: 1000]),
            .expense(paid: [zoe: 1000], parts: [hanako: 1000]),
        ])
        #expect(sheet.entries.allSatisfy { $0.day == Self.today && $0.description == "Balance from IHateMoney" })
        // By name, the same totals as the bills'.
        let bills = try Self.read(Self.bills)
        let byName = { (sheet: Sheet) in Self.totals(sheet).mapValues { Dictionary(uniqueKeysWithValues: $0.map { (sheet.people[$0.key], $0.value) }) } }
        #expect(byName(sheet) == byName(bills))
    }

    @Test("a bill without a currency takes the one given, and is refused without one")
    func noCurrency() throws {
        let text = """
            [{"date": "2026-10-01", "what": "Taxi", "amount": 12.5, "currency": "XXX", "payer_name": "Ada", "payer_weight": 1, "owers": ["Ada", "Bob"]},
             {"date": "2026-10-02", "what": "Bread", "amount": 3, "payer_name": "Bob", "payer_weight": 1, "owers": ["Ada", "Bob"]}]
            """
        #expect(throws: SheetProblems([
            SheetNote(row: 1, "It names no currency: say which with --currency."), SheetNote(row: 2, "It names no currency: say which with --currency."),
        ])) { try IHateMoneyExport.read(text: text, currency: nil, today: Self.today) }
        let chf = try #require(Currency(code: "CHF"))
        let sheet = try IHateMoneyExport.read(text: text, currency: chf, today: Self.today)
        #expect(sheet.entries.map(\.amount) == [Money(minorUnits: 1250, currency: chf), Money(minorUnits: 300, currency: chf)])
        // An older export without bill_type: expenses.
        let movements: [SheetEntry.Movement] = [.expense(paid: [0: 1250], parts: [0: 625, 1: 625]), .expense(paid: [1: 300], parts: [0: 150, 1: 150])]
        #expect(sheet.entries.map(\.movement) == movements)
    }

    @Test("a negative bill is the owers paying the payer back; a bill only for its payer moves nothing; Cospend's helper rows are skipped")
    func negativeAndOwn() throws {
        let text = """
            what,amount,currency,date,payer_name,payer_weight,owers
            Refund,-20,EUR,2026-10-01,Ada,1,"Ada, Bob"
            Own lunch,9,EUR,2026-10-02,Bob,1,Bob
            deleteMeIfYouWant,1,EUR,2026-10-02,Cy,1,Cy
            """
        let sheet = try IHateMoneyExport.read(text: text, currency: nil, today: Self.today)
        #expect(sheet.people == ["Ada", "Bob"])
        #expect(sheet.entries.map(\.movement) == [.expense(paid: [1: 1000], parts: [0: 1000])])
        #expect(sheet.passed == [SheetNote(row: 3, "Own lunch moves no balance, so it is left out.")])
    }

    @Test("what is not an IHateMoney export is refused, and so is a bill for no one")
    func refusals() {
        #expect(throws: SheetProblems([SheetNote(row: 1, "This is not an IHateMoney export: its first line names no amount column.")])) {
            try IHateMoneyExport.read(text: "Date,Description,Category,Cost,Currency,Ada\n", currency: nil, today: Self.today)
        }
        #expect(throws: SheetProblems([SheetNote(row: nil, "This is not an IHateMoney export: its JSON is not a list of bills or settlements.")])) {
            try IHateMoneyExport.read(text: "[1, 2", currency: nil, today: Self.today)
        }
        let text = """
            [{"date": "2026-10-01", "what": "Air", "amount": 5, "currency": "EUR", "payer_name": "Ada", "payer_weight": 1, "owers": []},
             {"date": "someday", "what": "Tea", "amount": 5, "currency": "EUR", "payer_name": "Ada", "payer_weight": 1, "owers": ["Ada"]},
             {"date": "2026-10-01", "what": "Tea", "amount": "five", "currency": "EUR", "payer_name": "Ada", "payer_weight": 1, "owers": ["Ada"]}]
            """
        #expect(throws: SheetProblems([
            SheetNote(row: 1, "It names no one it was paid for, or someone twice."),
            SheetNote(row: 2, "Its date, \"someday\", is not a day like 2026-11-28."),
            SheetNote(row: 3, "Its amount, \"five\", is not a number."),
        ])) { try IHateMoneyExport.read(text: text, currency: nil, today: Self.today) }
    }

    @Test("imported as Ada: each person's balance with her is the file's, and a second import adds nothing")
    func imports() async throws {
        let services = LocalServices.inMemory()
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse").id
        let interchange = LiveInterchangeService(expenses: services.expenses, friends: services.friends, groups: services.groups)
        let options = ImportOptions(matches: ["Bob": .contact, "Zoë": .contact, "山田 花子": .contact])
        let ran = try await interchange.run(try Self.read(Self.bills), options: options, by: ada)
        #expect(ran.adding.count == 6)
        let balances = try await services.expenses.balances(of: ada)
        // Ada's own totals: -2.49 EUR and -1000 JPY.
        #expect(balances.filter { $0.amount.currency == .eur }.reduce(0) { $0 + $1.amount.minorUnits } == -249)
        #expect(balances.filter { $0.amount.currency == .jpy }.reduce(0) { $0 + $1.amount.minorUnits } == -1000)
        #expect(try await services.verifier.verify().isSound)
        let again = try await interchange.run(try Self.read(Self.billsCSV), options: options, by: ada)
        #expect(again.adding.isEmpty)
        #expect(again.alreadyImported == 6)
    }
}
