import Accounts
import Expenses
import FlowsServices
import Foundation
import Interchange
import InterchangeFormats
import InterchangeLive
import Primitives
import Testing

/// Exporting what a user is in, and reading it back into an empty store.
@Suite("Export")
struct ExportTests {
    /// A store with Ada Lovelace, into which the flat's Splitwise export was imported, her
    /// flatmates made contacts and filed under the group Flat.
    private func flat() async throws -> (services: LocalServices, ada: UserID) {
        let services = LocalServices.inMemory()
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse").id
        let interchange = LiveInterchangeService(expenses: services.expenses, friends: services.friends, groups: services.groups)
        let options = ImportOptions(matches: ["Bob Stone": .contact, "王芳": .contact, "Cy Young": .contact], group: "Flat")
        _ = try await interchange.run(try SplitwiseCSV.read(contentsOf: SplitwiseCSVTests.flat), options: options, by: ada)
        return (services, ada)
    }

    private func interchange(_ services: LocalServices) -> LiveInterchangeService {
        LiveInterchangeService(expenses: services.expenses, friends: services.friends, groups: services.groups)
    }

    /// A user's balances by the names they know the others by.
    private func balances(_ services: LocalServices, of user: UserID) async throws -> Set<String> {
        let balances = try await services.expenses.balances(of: user)
        let names = try await services.friends.names(of: Set(balances.map(\.other)), for: user)
        return Set(balances.map { "\(names[$0.other]?.value ?? "?") \($0.amount)" })
    }

    private func empty(into services: LocalServices) async throws -> UserID {
        try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse").id
    }

    @Test("Flows' JSON: exported, imported into an empty store and exported again, it is the same file, with the same balances")
    func jsonRoundTrip() async throws {
        let (services, ada) = try await flat()
        let sheet = try await interchange(services).export(ExportFilter(), by: ada)
        #expect(sheet.people == ["Ada Lovelace", "Cy Young", "Bob Stone", "王芳"])
        #expect(sheet.entries.count == 8)
        let text = FlowsJSON.write(sheet)

        let other = LocalServices.inMemory()
        let again = try await empty(into: other)
        let read = try FlowsJSON.read(text: text)
        let options = ImportOptions(matches: ["Bob Stone": .contact, "王芳": .contact, "Cy Young": .contact])
        let plan = try await interchange(other).run(read, options: options, by: again)
        #expect(plan.adding.count == 8)
        #expect(plan.groups == [PlannedGroup(name: "Flat", isNew: true)])
        #expect(FlowsJSON.write(try await interchange(other).export(ExportFilter(), by: again)) == text)
        #expect(try await balances(other, of: again) == balances(services, of: ada))
        // Read again into either store, it adds nothing: it was imported here, and it came from there.
        #expect(try await interchange(other).run(read, options: options, by: again).adding.isEmpty)
        #expect(try await interchange(services).run(read, options: options, by: ada).adding.isEmpty)
    }

    @Test("--group and --since narrow it; a group the user does not have is refused")
    func filters() async throws {
        let (services, ada) = try await flat()
        let since = try await interchange(services).export(ExportFilter(since: try Day("2026-10-05")), by: ada)
        #expect(since.entries.map(\.description) == ["Groceries", "Payment"])
        #expect(try await interchange(services).export(ExportFilter(group: "flat"), by: ada).entries.count == 8)
        await #expect(throws: InterchangeError.noSuchGroup("Trip")) { try await interchange(services).export(ExportFilter(group: "Trip"), by: ada) }
    }

    @Test("Splitwise's layout: exported and imported into an empty store, the balances are the same")
    func splitwiseRoundTrip() async throws {
        let (services, ada) = try await flat()
        let text = SplitwiseCSV.write(try await interchange(services).export(ExportFilter(), by: ada))
        #expect(text.hasPrefix("Date,Description,Category,Cost,Currency,Ada Lovelace,Cy Young,Bob Stone,王芳\n"))
        #expect(text.contains("\n2026-10-06,Total balance, , ,EUR,326.68,0.00,36.66,-363.34\n"))
        let other = LocalServices.inMemory()
        let again = try await empty(into: other)
        let plan = try await interchange(other).run(
            try SplitwiseCSV.read(text: text), options: ImportOptions(matches: ["Bob Stone": .contact, "王芳": .contact, "Cy Young": .contact]), by: again
        )
        #expect(plan.adding.count == 8)
        #expect(try await balances(other, of: again) == balances(services, of: ada))
    }

    @Test("CSV: a row per expense with each person's part; a cell a spreadsheet would run is written as text")
    func csv() throws {
        let day = try Day("2026-10-01")
        let sheet = Sheet(format: "flows", people: ["Ada", "=Bob"], entries: [
            SheetEntry(
                row: 1, day: day, description: "=HYPERLINK(\"http://example.com\")", category: .food, amount: Money(minorUnits: 1000, currency: .eur),
                movement: .expense(paid: [0: 1000], parts: [0: 500, 1: 500]), key: "a"
            ),
            SheetEntry(row: 2, day: day, description: "Payment", category: .general, amount: Money(minorUnits: 500, currency: .eur), movement: .payment(from: 1, to: 0), key: "b"),
        ])
        #expect(SheetCSV.write(sheet) == """
            Date,Description,Category,Cost,Currency,Paid by,Ada,'=Bob
            2026-10-01,"'=HYPERLINK(""http://example.com"")",food,10.00,EUR,Ada 10.00,5.00,5.00
            2026-10-01,Payment to Ada,payment,5.00,EUR,'=Bob 5.00,5.00,

            """)
    }
}

/// Spliit's JSON, written for Spliit's import.
@Suite("Export to Spliit")
struct SpliitExportTests {
    @Test("a Spliit group, exported and imported into an empty store, gives the same balances and the same group")
    func roundTrip() async throws {
        let services = LocalServices.inMemory()
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse").id
        let interchange = LiveInterchangeService(expenses: services.expenses, friends: services.friends, groups: services.groups)
        let matches: [String: PersonMatch] = ["Bob Stone": .contact, "李雷": .contact]
        _ = try await interchange.run(try SpliitJSON.read(contentsOf: SpliitJSONTests.trip), options: ImportOptions(matches: matches), by: ada)
        let text = try SpliitJSON.write(try await interchange.export(ExportFilter(group: "Lisbon trip"), by: ada), name: "Lisbon trip")
        #expect(text.contains("\"splitMode\" : \"BY_AMOUNT\""))
        #expect(text.contains("\"isReimbursement\" : true"))

        let other = LocalServices.inMemory()
        let again = try await other.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse").id
        let otherInterchange = LiveInterchangeService(expenses: other.expenses, friends: other.friends, groups: other.groups)
        let read = try SpliitJSON.read(text: text)
        #expect(read.entries.count == 5)
        _ = try await otherInterchange.run(read, options: ImportOptions(matches: matches), by: again)
        let names = { (services: LocalServices, user: UserID) async throws -> Set<String> in
            let balances = try await services.expenses.balances(of: user)
            let names = try await services.friends.names(of: Set(balances.map(\.other)), for: user)
            return Set(balances.map { "\(names[$0.other]?.value ?? "?") \($0.amount)" })
        }
        #expect(try await names(other, again) == names(services, ada))
        #expect(try await other.groups.groups(of: again, archived: false).map(\.name) == ["Lisbon trip"])
    }

    @Test("an expense with two payers is one per payer, covering the parts in order; every net stays the same")
    func twoPayers() throws {
        let day = try Day("2026-10-01")
        let sheet = Sheet(format: "flows", people: ["Ada", "Bob", "Cy"], entries: [
            SheetEntry(
                row: 1, day: day, description: "Dinner", category: .food, amount: Money(minorUnits: 9000, currency: .eur),
                movement: .expense(paid: [0: 6000, 1: 3000], parts: [0: 3000, 1: 3000, 2: 3000]), key: "a"
            ),
        ])
        let read = try SpliitJSON.read(text: try SpliitJSON.write(sheet, name: "G"))
        #expect(read.entries.map(\.movement) == [
            .expense(paid: [0: 6000], parts: [0: 3000, 1: 3000]),
            .expense(paid: [1: 3000], parts: [2: 3000]),
        ])
        #expect(read.entries.allSatisfy { $0.description == "Dinner" && $0.group == "G" })
    }

    @Test("expenses in two currencies are refused: a Spliit group has one")
    func twoCurrencies() throws {
        let day = try Day("2026-10-01")
        let entry = { (currency: Currency) in
            SheetEntry(
                row: 1, day: day, description: "Taxi", category: .transport, amount: Money(minorUnits: 100, currency: currency),
                movement: .payment(from: 0, to: 1), key: currency.code
            )
        }
        let sheet = Sheet(format: "flows", people: ["Ada", "Bob"], entries: [entry(.eur), entry(.jpy)])
        #expect(throws: SpliitJSON.WriteProblem(message: "A Spliit group has one currency; these expenses are in EUR, JPY. Export one group (--group) or a period (--since) in one currency.")) {
            try SpliitJSON.write(sheet, name: "G")
        }
    }
}
