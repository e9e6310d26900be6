import Accounts
import Expenses
import FlowsServices
import Foundation
import Friends
import Groups
import Interchange
import InterchangeFormats
import InterchangeLive
import Primitives
import Testing

/// Importing a Splitwise export into Ada's ledger, on the app's services over an in-memory store:
/// Ada Lovelace and Bob Stone are friends; 王芳 and Cy Young are nobody's yet.
@Suite("InterchangeService")
struct InterchangeServiceTests {
    let services = LocalServices.inMemory()
    var interchange: LiveInterchangeService { LiveInterchangeService(expenses: services.expenses, friends: services.friends, groups: services.groups) }

    private func adaAndBob() async throws -> (ada: UserID, bob: UserID) {
        let bob = try await services.accounts.signUp(email: "bob@example.com", displayName: "Bob Stone", password: "correct horse")
        try await services.accounts.signOut()
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        _ = try await services.friends.befriend(.email("bob@example.com"), by: ada.id)
        return (ada.id, bob.id)
    }

    private func flat() throws -> Sheet { try SplitwiseCSV.read(contentsOf: SplitwiseCSVTests.flat) }
    private let newcomers: [String: PersonMatch] = ["王芳": .contact, "cy young": .contact]

    @Test("people the user shares entries with must be friends or contacts: the others are named, with the --map to pass")
    func unmatched() async throws {
        let (ada, _) = try await adaAndBob()
        await #expect(throws: InterchangeError.unmatched(["王芳", "Cy Young"])) { try await interchange.plan(try flat(), options: ImportOptions(), by: ada) }
        await #expect(throws: InterchangeError.whoAreYou("Ada L.", among: ["Ada Lovelace", "Bob Stone", "王芳", "Cy Young"])) {
            try await interchange.plan(try flat(), options: ImportOptions(me: "Ada L."), by: ada)
        }
        await #expect(throws: InterchangeError.badMatch("--map names Dee, who is not in the file (Ada Lovelace, Bob Stone, 王芳, Cy Young).")) {
            try await interchange.plan(try flat(), options: ImportOptions(matches: ["Dee": .contact]), by: ada)
        }
        await #expect(throws: InterchangeError.badMatch("No friend or contact of yours has the email wang@example.com (--map \"王芳=wang@example.com\").")) {
            try await interchange.plan(try flat(), options: ImportOptions(matches: ["王芳": .email("wang@example.com"), "Cy Young": .contact]), by: ada)
        }
    }

    @Test("a plan writes nothing; running it makes the contacts and writes the user's entries, whose balances are the file's")
    func runs() async throws {
        let (ada, bob) = try await adaAndBob()
        let options = ImportOptions(matches: newcomers)
        let plan = try await interchange.plan(try flat(), options: options, by: ada)
        #expect(plan.people.map(\.match) == [.you, .friend(bob, name: "Bob Stone"), .newContact, .newContact])
        #expect(plan.adding.map(\.row) == [3, 4, 6, 7, 8, 9, 10, 11])
        #expect(plan.leftOut == [SheetNote(row: 12, "Cinema for two is between Bob Stone and 王芳, without you: left out.")])
        #expect(try await services.friends.friends(of: ada).count == 1)
        #expect(try await services.expenses.balances(of: ada).isEmpty)

        let ran = try await interchange.run(try flat(), options: options, by: ada)
        #expect(ran.adding.count == 8)
        #expect(ran.alreadyImported == 0)
        let people = try await services.friends.friends(of: ada)
        let fang = try #require(people.first { $0.name.value == "王芳" })
        let cy = try #require(people.first { $0.name.value == "Cy Young" })
        #expect(fang.isContact && cy.isContact)
        let balances = try await services.expenses.balances(of: ada)
        let eur = { (units: Int64) in Money(minorUnits: units, currency: .eur) }
        let jpy = { (units: Int64) in Money(minorUnits: units, currency: .jpy) }
        // Positive: owed to Ada. Her total in EUR is the file's 326.68.
        #expect(Set(balances.map { "\($0.other.rawValue) \($0.amount)" }) == Set([
            "\(bob.rawValue) \(eur(-332))", "\(fang.id.rawValue) \(eur(33000))", "\(bob.rawValue) \(jpy(1000))", "\(fang.id.rawValue) \(jpy(1000))",
        ]))
        #expect(balances.filter { $0.amount.currency == .eur }.reduce(0) { $0 + $1.amount.minorUnits } == 32668)
        #expect(try await services.verifier.verify().isSound)

        // Again: nothing is added twice.
        let again = try await interchange.run(try flat(), options: options, by: ada)
        #expect(again.adding.isEmpty)
        #expect(again.alreadyImported == 8)
        #expect(try await services.expenses.balances(of: ada) == balances)
        #expect(try await services.friends.friends(of: ada).count == 3)
    }

    @Test("with a group, everything goes into it: made with the people needed, or the user's own of that name")
    func intoAGroup() async throws {
        let (ada, bob) = try await adaAndBob()
        let options = ImportOptions(matches: newcomers, group: "Flat")
        #expect(try await interchange.plan(try flat(), options: options, by: ada).groups == [PlannedGroup(name: "Flat", isNew: true)])
        _ = try await interchange.run(try flat(), options: options, by: ada)
        let flat = try #require(try await services.groups.groups(of: ada, archived: false).first)
        #expect(flat.name == "Flat")
        #expect(flat.members.count == 4)
        #expect(flat.members.contains(bob))
        #expect(try await services.expenses.expenses(in: flat.id, for: ada, page: PageRequest(limit: 50)).count == 6)
        #expect(try await services.expenses.settlements(in: flat.id, for: ada, page: PageRequest(limit: 50)).count == 2)
        #expect(try await interchange.plan(try self.flat(), options: options, by: ada).groups == [PlannedGroup(name: "Flat", isNew: false)])
    }

    @Test("a Spliit export goes into a group of its name, made with the people it needs")
    func spliit() async throws {
        let (ada, bob) = try await adaAndBob()
        let sheet = try SpliitJSON.read(contentsOf: SpliitJSONTests.trip)
        let ran = try await interchange.run(sheet, options: ImportOptions(matches: ["李雷": .contact]), by: ada)
        #expect(ran.adding.count == 5)
        #expect(ran.groups == [PlannedGroup(name: "Lisbon trip", isNew: true)])
        let trip = try #require(try await services.groups.groups(of: ada, archived: false).first)
        #expect(trip.name == "Lisbon trip" && trip.members.count == 3 && trip.members.contains(bob))
        // Ada: paid 90.00 + 20.00, her parts 3.34 + 30.00 + 150.01, paid back 15.00 by Bob.
        let total = try await services.expenses.balances(of: ada).reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        #expect(total == 9000 + 2000 - 334 - 3000 - 15001 - 1500)
        #expect(try await services.verifier.verify().isSound)
    }

    @Test("imported entries are checked as adds and payments are; one refusal writes none of them, and a key is taken once")
    func refusalWritesNothing() async throws {
        let (ada, bob) = try await adaAndBob()
        let eve = try await services.accounts.signUp(email: "eve@example.com", displayName: "Eve", password: "correct horse")
        let eur = Money(minorUnits: 1000, currency: .eur)
        let day = try Day("2026-10-01")
        let lunch = ImportedEntry(key: "lunch", kind: .expense(ExpenseDraft(
            description: "Lunch", amount: eur, day: day, category: .food, payers: [Payer(user: ada, amount: eur)], participants: [ada, bob], rule: .equal
        )))
        let stranger = ImportedEntry(key: "eve", kind: .payment(from: eve.id, to: ada, amount: eur, day: day, group: nil))
        await #expect(throws: ExpensesError.unknownPeople([eve.id])) { try await services.expenses.importEntries([lunch, stranger], by: ada) }
        #expect(try await services.expenses.balances(of: ada).isEmpty)
        #expect(try await services.expenses.importedKeys(among: ["lunch"], by: ada).isEmpty)
        let notHers = ImportedEntry(key: "theirs", kind: .payment(from: bob, to: eve.id, amount: eur, day: day, group: nil))
        await #expect(throws: ExpensesError.notInExpense) { try await services.expenses.importEntries([notHers], by: ada) }
        await #expect(throws: ExpensesError.invalidSettlement("The file names one entry twice (lunch); nothing was imported.")) {
            try await services.expenses.importEntries([lunch, lunch], by: ada)
        }

        #expect(try await services.expenses.importEntries([lunch], by: ada) == ["lunch"])
        #expect(try await services.expenses.importEntries([lunch], by: ada).isEmpty)
        #expect(try await services.expenses.importedKeys(among: ["lunch", "other"], by: ada) == ["lunch"])
        // Keys are the importing user's own: Bob importing the same key adds his own entry.
        let bobsLunch = ImportedEntry(key: "lunch", kind: .payment(from: bob, to: ada, amount: eur, day: day, group: nil))
        #expect(try await services.expenses.importEntries([bobsLunch], by: bob) == ["lunch"])
        #expect(try await services.expenses.balances(of: ada).map(\.amount) == [Money(minorUnits: -500, currency: .eur)])
    }
}
