import Accounts
import Expenses
import FlowsServices
import Friends
import Preferences
import Primitives
import Testing

/// What a run of the services showed, step by step: every result and every refusal in words,
/// and every expense read whole (compared as values: their rules hold dictionaries, whose
/// printed order changes from one to the next).
private final class Transcript {
    var lines: [String] = []
    var expenses: [Expense] = []

    func step<T>(_ name: String, _ work: () async throws -> T) async -> T? {
        do {
            let result = try await work()
            if let expense = result as? Expense {
                expenses.append(expense)
                lines.append("\(name): expense \(expense.id)")
            } else {
                lines.append("\(name): \(result)")
            }
            return result
        } catch {
            lines.append("\(name) refused: \(error)")
            return nil
        }
    }

    func read(_ name: String, _ work: () async throws -> [Expense]) async {
        guard let found = await step(name, { try await work().map(\.id) }) else { return }
        _ = found
        if let list = try? await work() { expenses += list }
    }
}

/// One story through every area (sign-ups, friends and contacts, expenses of every rule and
/// currency, edits, deletions and restores, payments and an undo, a contact claimed at sign-up
/// and one linked by hand, preferences), then everything each person can read: balances,
/// suggested payments, activity, lists a page at a time, shared expenses, reports, friends.
/// The clock stands still, so every list breaks its ties by id.
private func story(_ services: LocalServices) async throws -> Transcript {
    let log = Transcript()
    let accounts = services.accounts, friends = services.friends, expenses = services.expenses
    func signUp(_ email: String, _ name: String) async throws -> User {
        let user = try await accounts.signUp(email: email, displayName: name, password: "correct horse")
        try await accounts.signOut()
        return user
    }
    let ada = try await signUp("ada@example.com", "Ada Lovelace")
    let bob = try await signUp("Bob@Example.com", "Bob Stone")
    let cy = try await signUp("cy@example.com", "Cy Young")
    _ = await log.step("sign up with Ada's email in capitals") { try await accounts.signUp(email: " ADA@example.COM ", displayName: "Ada", password: "correct horse") }
    _ = await log.step("sign in with a wrong password") { try await accounts.signIn(email: "ada@example.com", password: "wrong horse") }
    _ = await log.step("sign in") { try await accounts.signIn(email: "ADA@example.com", password: "correct horse") }

    _ = await log.step("Ada adds Bob by email") { try await friends.add(.email("BOB@example.com"), by: ada.id) }
    _ = await log.step("Bob's requests") { try await friends.requests(of: bob.id) }
    _ = await log.step("Bob accepts Ada") { try await friends.accept(ada.id, by: bob.id) }
    _ = await log.step("Ada adds Cy by code") { try await friends.add(.friendCode(cy.friendCode.description.lowercased()), by: ada.id) }
    _ = await log.step("Cy adds Ada, which accepts") { try await friends.add(.email("ada@example.com"), by: cy.id) }
    _ = await log.step("Ada adds Bob again") { try await friends.add(.email("bob@example.com"), by: ada.id) }
    _ = await log.step("Ada adds herself") { try await friends.add(.friendCode(ada.friendCode.description), by: ada.id) }
    let sam = try await friends.addContact(name: "Sam Park", email: "sam@example.com", by: ada.id)
    let dee = try await friends.addContact(name: "Dee", email: nil, by: ada.id)
    _ = await log.step("Ada adds a second Sam") { try await friends.addContact(name: "sam park", email: nil, by: ada.id) }
    _ = await log.step("Ada adds a contact with Bob's email") { try await friends.addContact(name: "Robert", email: "bob@example.com", by: ada.id) }
    _ = await log.step("Bob adds a contact") { try await friends.addContact(name: "Eve", email: "eve@example.com", by: bob.id) }

    let dinner = try await expenses.add(try draft(eur(3000), paidBy: [(ada.id, 3000)], among: [ada.id, bob.id, cy.id]), by: ada.id)
    _ = await log.step("Bob adds the cabin with Ada's contact") {
        try await expenses.add(try draft(
            eur(10000), paidBy: [(bob.id, 10000)], among: [ada.id, bob.id, sam.id], rule: .shares([ada.id: 1, bob.id: 2, sam.id: 1]),
            description: "Cabin", day: "2026-11-20", category: .travel
        ), by: bob.id)
    }
    _ = await log.step("Ada adds the cabin Bob paid") {
        try await expenses.add(try draft(
            eur(10000), paidBy: [(bob.id, 10000)], among: [ada.id, bob.id, sam.id], rule: .shares([ada.id: 1, bob.id: 2, sam.id: 1]),
            description: "Cabin", day: "2026-11-20", category: .travel
        ), by: ada.id)
    }
    let sushi = try await expenses.add(try draft(
        Money(minorUnits: 3333, currency: .jpy), paidBy: [(ada.id, 3333)], among: [ada.id, dee.id],
        rule: .exact([ada.id: Money(minorUnits: 1111, currency: .jpy), dee.id: Money(minorUnits: 2222, currency: .jpy)]),
        description: "Sushi", day: "2026-10-05"
    ), by: ada.id)
    _ = await log.step("Ada adds the hotel") {
        try await expenses.add(try draft(
            eur(24000), paidBy: [(ada.id, 4000), (bob.id, 20000)], among: [ada.id, bob.id], rule: .percentages([ada.id: 2550, bob.id: 7450]),
            description: "Hotel", day: "2026-11-22", category: .housing, note: "Two nights"
        ), by: ada.id)
    }
    let taxi = try await expenses.add(try draft(
        Money(minorUnits: 1234, currency: .usd), paidBy: [(cy.id, 1234)], among: [cy.id, ada.id], description: "Taxi", day: "2026-09-30",
        category: .transport
    ), by: cy.id)
    for index in 1...8 {
        let payer = index.isMultiple(of: 2) ? bob.id : ada.id
        _ = try await expenses.add(try draft(
            eur(350), paidBy: [(payer, 350)], among: [ada.id, bob.id], description: "Coffee \(index)", day: "2026-11-0\(index)",
            category: index.isMultiple(of: 3) ? .general : .food
        ), by: payer)
    }
    _ = await log.step("an expense with someone nobody knows") {
        try await expenses.add(try draft(eur(100), paidBy: [(ada.id, 100)], among: [ada.id, UserID(rawValue: "nobody")]), by: ada.id)
    }
    _ = await log.step("Cy adds an expense with Bob, who is not her friend") {
        try await expenses.add(try draft(eur(100), paidBy: [(bob.id, 100)], among: [bob.id, cy.id]), by: cy.id)
    }
    _ = await log.step("Cy adds an expense she is not in") {
        try await expenses.add(try draft(eur(100), paidBy: [(ada.id, 100)], among: [ada.id, bob.id]), by: cy.id)
    }
    _ = await log.step("Cy edits the dinner") {
        try await expenses.edit(dinner, to: try draft(
            eur(4500), paidBy: [(ada.id, 4500)], among: [ada.id, bob.id, cy.id], rule: .shares([ada.id: 1, bob.id: 1, cy.id: 2])
        ), by: cy.id)
    }
    _ = await log.step("Bob deletes the sushi") { try await expenses.delete(sushi, by: bob.id) }
    _ = await log.step("Ada deletes the sushi") { try await expenses.delete(sushi, by: ada.id) }
    _ = await log.step("Ada deletes the taxi") { try await expenses.delete(taxi, by: ada.id) }
    _ = await log.step("Cy restores the taxi") { try await expenses.restore(taxi.id, by: cy.id).id }
    _ = await log.step("Cy restores the taxi again") { try await expenses.restore(taxi.id, by: cy.id).id }

    let day = try Day("2026-11-23")
    _ = await log.step("Cy pays Bob, not her friend, with no balance between them") {
        try await expenses.settle(from: cy.id, to: bob.id, amount: eur(100), day: day, by: cy.id)
    }
    _ = await log.step("Bob adds Cy by code") { try await friends.add(.friendCode(cy.friendCode.description), by: bob.id) }
    _ = await log.step("Cy declines Bob") { try await friends.dropRequest(with: bob.id, by: cy.id) }
    _ = await log.step("Cy accepts Bob, who no longer asks") { try await friends.accept(bob.id, by: cy.id) }
    _ = await log.step("Bob adds Cy again") { try await friends.add(.friendCode(cy.friendCode.description), by: bob.id) }
    _ = await log.step("Cy accepts Bob") { try await friends.accept(bob.id, by: cy.id) }
    _ = await log.step("Bob pays Ada a part") { try await expenses.settle(from: bob.id, to: ada.id, amount: eur(2000), day: day, by: bob.id) }
    _ = await log.step("Cy pays Bob more than she owes him") { try await expenses.settle(from: cy.id, to: bob.id, amount: eur(5000), day: day, by: cy.id) }
    let cash = await log.step("Ada pays Cy") { try await expenses.settle(from: ada.id, to: cy.id, amount: Money(minorUnits: 617, currency: .usd), day: day, by: ada.id) }
    _ = await log.step("Bob takes back Ada's payment") { try await expenses.undoSettlement(cash?.id ?? ExpenseID(rawValue: "none"), by: bob.id) }
    _ = await log.step("Ada takes back her payment") { try await expenses.undoSettlement(cash?.id ?? ExpenseID(rawValue: "none"), by: ada.id) }

    // Sam signs up with the email Ada gave her contact: the contact becomes the account.
    let samAccount = try await signUp("sam@example.com", "Sam Park")
    _ = await log.step("Sam's contacts are claimed") { try await friends.claimContacts(for: samAccount.id) }
    _ = await log.step("Sam's claim, as Ada sees it") { try await friends.requests(of: ada.id) }
    _ = await log.step("Ada confirms it is Sam") { try await friends.accept(samAccount.id, by: ada.id) }
    _ = await log.step("Ada links Dee to Cy") { try await friends.link(dee.id, to: .email("cy@example.com"), by: ada.id) }
    _ = await log.step("Ada removes Bob") { try await friends.remove(bob.id, by: ada.id) }
    _ = await log.step("Bob removes Eve") {
        let eve = try await friends.friends(of: bob.id).first { $0.isContact }
        return try await friends.remove(eve?.id ?? UserID(rawValue: "none"), by: bob.id)
    }
    // Cy blocks Bob, who owes her: what they share stays, and neither can change it.
    _ = await log.step("Cy blocks Bob") { try await friends.block(bob.id, by: cy.id) }
    _ = await log.step("Bob asks Cy again") { try await friends.add(.friendCode(cy.friendCode.description), by: bob.id) }
    _ = await log.step("Bob pays Cy") { try await expenses.settle(from: bob.id, to: cy.id, amount: eur(100), day: day, by: bob.id) }
    _ = await log.step("Cy's requests") { try await friends.requests(of: cy.id) }
    _ = await log.step("Cy edits the dinner with Bob in it") {
        try await expenses.edit(dinner, to: try draft(eur(4600), paidBy: [(ada.id, 4600)], among: [ada.id, bob.id, cy.id]), by: cy.id)
    }
    _ = await log.step("Ada blocks Sam's account, then unblocks it") {
        try await friends.block(samAccount.id, by: ada.id)
        try await friends.unblock(samAccount.id, by: ada.id)
    }
    _ = await log.step("Ada's preferences") { try await services.preferences.update(Preferences(theme: .light, defaultCurrency: .usd), of: ada.id) }

    let people = [ada.id, bob.id, cy.id, samAccount.id, sam.id, dee.id]
    for user in people {
        let name = user.rawValue
        _ = await log.step("\(name) balances") { try await expenses.balances(of: user) }
        let currencies = await log.step("\(name) currencies") { try await expenses.currencies(of: user) } ?? []
        for currency in currencies {
            _ = await log.step("\(name) suggested in \(currency.code)") { try await expenses.suggestedPayments(for: user, in: currency) }
        }
        for offset in stride(from: 0, to: 28, by: 7) {
            _ = await log.step("\(name) activity from \(offset)") { try await expenses.activity(of: user, page: PageRequest(offset: offset, limit: 7)) }
        }
        for offset in stride(from: 0, to: 20, by: 5) {
            await log.read("\(name) expenses from \(offset)") { try await expenses.expenses(of: user, page: PageRequest(offset: offset, limit: 5)) }
        }
        for other in people where other != user {
            await log.read("\(name) shares with \(other.rawValue)") { try await expenses.expenses(of: user, sharedWith: other, page: PageRequest(offset: 1, limit: 4)) }
        }
        await log.read("\(name) deleted") { try await expenses.deletedExpenses(of: user, page: PageRequest()) }
        _ = await log.step("\(name) payments") { try await expenses.settlements(of: user, page: PageRequest()) }
        _ = await log.step("\(name) recent people") { try await expenses.recentPeople(of: user) }
        _ = await log.step("\(name) spending") { try await expenses.spending(of: user) }
        _ = await log.step("\(name) spending in November") { try await expenses.spending(of: user, from: try Day("2026-11-01"), through: try Day("2026-11-30")) }
        _ = await log.step("\(name) friends") { try await friends.friends(of: user) }
        _ = await log.step("\(name) requests") { try await friends.requests(of: user) }
        _ = await log.step("\(name) names") { try await friends.names(of: Set(people), for: user).sorted { $0.key.rawValue < $1.key.rawValue } }
        _ = await log.step("\(name) preferences") { try await services.preferences.preferences(of: user) }
        _ = await log.step("\(name) avatar") { try await accounts.avatar(of: user) }
    }
    _ = await log.step("the ledger recounted") { try await services.verifier.verify() }
    return log
}

@Suite("PostgreSQL and SQLite: the same story gives the same results", TestDatabase.required)
struct SameAsSQLiteTests {
    @Test("every result, refusal, list, order, balance and report is the same on both stores")
    func sameStory() async throws {
        let sqlite = try await story(LocalServices.inMemory(seed: 7))
        let postgres = try await PostgresWorld.run(seed: 7) { world in try await story(world.services) }
        #expect(sqlite.lines.count > 150)
        #expect(postgres.lines == sqlite.lines)
        #expect(postgres.expenses == sqlite.expenses)
        #expect(sqlite.lines.last?.contains("differences: []") == true)
        // The story reached what it meant to: refusals, routing, a claim and a link.
        let text = sqlite.lines.joined(separator: "\n")
        #expect(text.contains("sign up with Ada's email in capitals refused: emailTaken"))
        #expect(text.contains("Ada removes Bob refused: notSettled"))
        #expect(text.contains("Cy restores the taxi again refused: notFound"))
        #expect(text.contains("Bob adds the cabin with Ada's contact refused: unknownPeople"))
        #expect(text.contains("Cy adds an expense with Bob, who is not her friend refused: unknownPeople"))
        #expect(text.contains("Cy pays Bob, not her friend, with no balance between them refused: unknownPeople"))
        // Cy, not Bob's friend, changes the dinner Ada added with the two of them.
        #expect(!text.contains("Cy edits the dinner refused"))
        #expect(text.contains("Cy accepts Bob, who no longer asks refused: noRequest"))
        #expect(text.contains("Bob asks Cy again refused: notTakingRequests"))
        #expect(text.contains("Bob pays Cy refused: blocked"))
        #expect(text.contains("Cy edits the dinner with Bob in it refused: blocked"))
    }
}
