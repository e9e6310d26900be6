import Expenses
import ExpensesData
import ExpensesDataSQLite
import ExpensesLive
import Foundation
import LocalStore
import PropertyBased
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")

func eur(_ units: Int64) -> Money { Money(minorUnits: units, currency: .eur) }

func draft(_ amount: Money, paidBy payers: [(UserID, Int64)], among participants: [UserID], rule: SplitRule = .equal, description: String = "Dinner", day: String = "2026-11-22", category: Category = .food) throws -> ExpenseDraft {
    ExpenseDraft(
        description: description, amount: amount, day: try Day(day), category: category,
        payers: payers.map { Payer(user: $0.0, amount: Money(minorUnits: $0.1, currency: amount.currency)) },
        participants: participants, rule: rule
    )
}

/// Everyone may name everyone but those whose id starts with "unknown".
struct TestPeople: PeopleDirectory {
    func strangers(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID> {
        people.filter { $0.rawValue.hasPrefix("unknown") }
    }

    func blocked(among people: Set<UserID>, for user: UserID) async throws -> Set<UserID> {
        []
    }
}

/// The live service on a private in-memory store.
struct Ledger {
    let database = LocalDatabase(.memory, migrations: ExpensesSchema.registerMigrations(in:))
    var store: any ExpensesStore { SQLiteExpensesStore(database: database) }

    func service(store: (any ExpensesStore)? = nil) -> LiveExpensesService {
        LiveExpensesService(
            store: store ?? self.store, people: TestPeople(), random: SeededRandomSource(seed: 9), now: { Date(timeIntervalSince1970: 1_800_000_000) }
        )
    }

    func count(_ table: String) throws -> Int {
        try database.writer().read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? -1 }
    }
}

@Suite("The expenses service on SQLite")
struct ExpensesServiceTests {
    let ledger = Ledger()

    @Test("adding an expense records it, moves balances and writes the activity")
    func add() async throws {
        let service = ledger.service()
        let dinner = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob, cy]), by: ann)
        #expect(try await service.expense(dinner.id, for: ann) == dinner)
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(1000)), Balance(other: cy, amount: eur(1000))])
        #expect(try await service.balances(of: bob) == [Balance(other: ann, amount: eur(-1000))])
        let activity = try await service.activity(of: cy, limit: 10)
        #expect(activity.map(\.kind) == [.added])
        #expect(activity.first?.summary == "Dinner, 30.00 EUR")
    }

    @Test("editing moves balances from the old split to the new; deleting puts them back")
    func editAndDelete() async throws {
        let service = ledger.service()
        let dinner = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob, cy]), by: ann)
        let edited = try await service.edit(dinner, to: try draft(eur(1000), paidBy: [(ann, 1000)], among: [ann, bob], rule: .shares([ann: 1, bob: 3])), by: bob)
        #expect(edited.version == 2)
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(750))])
        #expect(try await service.balances(of: cy) == [])
        // Ann's copy is version 1: deleting from it would undo Bob's edit unseen.
        await #expect(throws: ExpensesError.changedSince(dinner.id, version: 2)) { try await service.delete(dinner, by: ann) }
        await #expect(throws: ExpensesError.changedSince(dinner.id, version: 2)) {
            try await service.edit(dinner, to: try draft(eur(5), paidBy: [(ann, 5)], among: [ann, bob]), by: ann)
        }
        #expect(try await service.expense(dinner.id, for: ann) == edited, "nothing was written")
        try await service.delete(edited, by: ann)
        #expect(try await service.balances(of: ann) == [])
        #expect(try await service.expense(dinner.id, for: ann) == nil)
        #expect(try await service.activity(of: cy, limit: 10).map(\.kind) == [.edited, .added])
        #expect(try await service.activity(of: ann, limit: 10).map(\.kind) == [.deleted, .edited, .added])
        #expect(try ledger.count("balance") == 0)
    }

    @Test("a deleted expense is restored as it was, balances with it, once, and only by someone in it")
    func restore() async throws {
        let service = ledger.service()
        let dinner = try await service.add(
            try draft(eur(3001), paidBy: [(ann, 2000), (bob, 1001)], among: [ann, bob, cy], rule: .shares([ann: 1, bob: 2, cy: 3])), by: ann
        )
        let before = try await service.balances(of: ann)
        try await service.delete(dinner, by: bob)
        #expect(try await service.deletedExpenses(of: cy, page: PageRequest()) == [dinner])
        #expect(try await service.expenses(of: cy, page: PageRequest()) == [])
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.restore(dinner.id, by: UserID(rawValue: "d-dan")) }
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.edit(dinner, to: try draft(eur(10), paidBy: [(ann, 10)], among: [ann]), by: ann) }

        #expect(try await service.restore(dinner.id, by: cy) == dinner)
        #expect(try await service.expense(dinner.id, for: cy) == dinner)
        #expect(try await service.balances(of: ann) == before)
        #expect(try await service.deletedExpenses(of: cy, page: PageRequest()) == [])
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.restore(dinner.id, by: cy) }
        #expect(try await service.activity(of: ann, limit: 10).map(\.kind) == [.restored, .deleted, .added])
        #expect(try await service.activity(of: ann, limit: 1).first?.summary == "Dinner, 30.01 EUR")
        // Deleted again, it can be restored again.
        try await service.delete(dinner, by: ann)
        #expect(try await service.restore(dinner.id, by: ann) == dinner)
        #expect(try ledger.count("deleted_expense") == 0)
        #expect(try ledger.count("deleted_expense_person") == 0)
    }

    @Test("every change to an expense is kept whole: who, when, and the expense as it left it; only someone in it now reads it")
    func history() async throws {
        let service = ledger.service()
        let dinner = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob]), by: ann)
        let edited = try await service.edit(dinner, to: try draft(eur(4500), paidBy: [(bob, 4500)], among: [ann, bob, cy], description: "Team dinner"), by: bob)
        try await service.delete(edited, by: cy)
        let restored = try await service.restore(dinner.id, by: ann)
        let settled = try await service.settle(from: bob, to: ann, amount: eur(100), day: try Day("2026-11-23"), by: bob)
        let changes = try await service.history(of: dinner.id, for: cy)
        #expect(changes.map(\.kind) == [.added, .edited, .deleted, .restored])
        #expect(changes.map(\.by) == [ann, bob, cy, ann])
        #expect(changes.map(\.expense) == [dinner, edited, edited, restored])
        #expect(changes.allSatisfy { $0.at == Date(timeIntervalSince1970: 1_800_000_000) })
        // The before and after of the edit, in words.
        #expect(edited.changes(from: dinner) == ["the description (Dinner → Team dinner)", "the amount (30.00 EUR → 45.00 EUR)", "who paid", "how it is split"])
        // Someone not in it now is told it does not exist, as is anyone asking of a payment.
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.history(of: dinner.id, for: UserID(rawValue: "d-dan")) }
        await #expect(throws: ExpensesError.notFound(settled.id)) { try await service.history(of: settled.id, for: bob) }
        // Written out of it by an edit, Cy no longer reads how it came to be.
        _ = try await service.edit(restored, to: try draft(eur(4500), paidBy: [(bob, 4500)], among: [ann, bob]), by: ann)
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.history(of: dinner.id, for: cy) }
        #expect(try await service.history(of: dinner.id, for: bob).count == 5)
    }

    @Test("undoing: a deleted expense is deleted, edited or restored-while-live as not found; a payment is taken back once, by its payer or payee")
    func undoRules() async throws {
        let service = ledger.service()
        let dinner = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob, cy]), by: ann)
        await #expect(throws: ExpensesError.notFound(dinner.id)) { _ = try await service.restore(dinner.id, by: ann) }
        try await service.delete(dinner, by: ann)
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.delete(dinner, by: bob) }
        await #expect(throws: ExpensesError.notFound(dinner.id)) {
            _ = try await service.edit(dinner, to: try draft(eur(10), paidBy: [(ann, 10)], among: [ann]), by: ann)
        }
        // Deleting and restoring alternate as often as anyone in it likes.
        for _ in 0..<3 {
            #expect(try await service.restore(dinner.id, by: cy) == dinner)
            try await service.delete(dinner, by: bob)
        }
        #expect(try await service.balances(of: ann) == [])

        let payment = try await service.settle(from: bob, to: ann, amount: eur(500), day: try Day("2026-11-23"), by: bob)
        await #expect(throws: ExpensesError.notFound(payment.id)) { try await service.undoSettlement(payment.id, by: cy) }
        try await service.undoSettlement(payment.id, by: ann)
        await #expect(throws: ExpensesError.notFound(payment.id)) { try await service.undoSettlement(payment.id, by: bob) }
        #expect(try await service.balances(of: ann) == [])
        #expect(try await LiveLedgerVerifier(store: ledger.store).verify().isSound)
    }

    @Test("a payment's history: who recorded it and who took it back, when, and the payment whole each time; to anyone it never named, not found")
    func paymentHistory() async throws {
        let service = ledger.service()
        // Cy owes Bob, and Bob owes Ann: Cy's payment to Ann passes through Bob.
        _ = try await service.add(try draft(eur(1000), paidBy: [(bob, 1000)], among: [bob, cy]), by: bob)
        _ = try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: [ann, bob]), by: ann)
        let payment = try await service.settle(from: cy, to: ann, amount: eur(500), day: try Day("2026-11-23"), by: cy)
        #expect(payment.through == [bob])
        let recorded = try await service.paymentHistory(of: payment.id, for: ann)
        #expect(recorded.map(\.kind) == [.settled])
        #expect(recorded.first?.by == cy && recorded.first?.payment == payment)
        #expect(try await service.paymentHistory(of: payment.id, for: bob) == recorded, "the one it passed through sees it too")
        await #expect(throws: ExpensesError.notFound(payment.id)) { try await service.paymentHistory(of: payment.id, for: UserID(rawValue: "d-dan")) }

        try await service.undoSettlement(payment.id, by: ann)
        let history = try await service.paymentHistory(of: payment.id, for: cy)
        #expect(history.map(\.kind) == [.settled, .unsettled])
        #expect(history.map(\.by) == [cy, ann])
        #expect(history.last?.payment == payment, "taken back, it is still there whole")
        // An expense's id is no payment.
        let dinner = try await service.add(try draft(eur(100), paidBy: [(ann, 100)], among: [ann, bob]), by: ann)
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.paymentHistory(of: dinner.id, for: ann) }
    }

    @Test("deleted expenses are listed to the people in them, the most recently deleted first, paged")
    func deletedList() async throws {
        let service = ledger.service()
        for index in 0..<3 {
            // Each one deleted a minute after the one before.
            let at = Date(timeIntervalSince1970: 1_800_000_000 + Double(index) * 60)
            let service = LiveExpensesService(store: ledger.store, people: TestPeople(), random: SeededRandomSource(seed: UInt64(index + 20)), now: { at })
            let expense = try await service.add(try draft(eur(100), paidBy: [(ann, 100)], among: [ann, index == 1 ? cy : bob], description: "E\(index)"), by: ann)
            try await service.delete(expense, by: ann)
        }
        #expect(try await service.deletedExpenses(of: ann, page: PageRequest()).map(\.description) == ["E2", "E1", "E0"])
        #expect(try await service.deletedExpenses(of: ann, page: PageRequest(offset: 1, limit: 1)).map(\.description) == ["E1"])
        #expect(try await service.deletedExpenses(of: bob, page: PageRequest()).map(\.description) == ["E2", "E0"])
        #expect(try await service.deletedExpenses(of: cy, page: PageRequest()).map(\.description) == ["E1"])
    }

    @Test("only people in an expense change it")
    func permissions() async throws {
        let service = ledger.service()
        let dinner = try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: [ann, bob]), by: ann)
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.delete(dinner, by: cy) }
        await #expect(throws: ExpensesError.notFound(ExpenseID(rawValue: "nope"))) { try await service.delete(ExpenseID(rawValue: "nope"), from: 1, by: ann) }
        await #expect(throws: ExpensesError.invalid(.split(.noParticipants))) {
            try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: []), by: ann)
        }
    }

    @Test("settling up moves the balance to zero and the pair goes away")
    func settle() async throws {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(2000), paidBy: [(ann, 2000)], among: [ann, bob]), by: ann)
        _ = try await service.settle(from: bob, to: ann, amount: eur(600), day: try Day("2026-11-23"), by: bob)
        #expect(try await service.balances(of: bob) == [Balance(other: ann, amount: eur(-400))])
        _ = try await service.settle(from: bob, to: ann, amount: eur(400), day: try Day("2026-11-23"), by: ann)
        #expect(try await service.balances(of: bob) == [])
        await #expect(throws: ExpensesError.self) { try await service.settle(from: bob, to: bob, amount: eur(1), day: try Day("2026-11-23"), by: bob) }
        #expect(try await service.activity(of: ann, limit: 1).first?.summary == "Payment, 4.00 EUR")
    }

    @Test("a personal expense counts in the spending report and moves no balance")
    func spending() async throws {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(2500), paidBy: [(ann, 2500)], among: [ann], description: "Books", day: "2026-10-03", category: .shopping), by: ann)
        _ = try await service.add(try draft(eur(3000), paidBy: [(bob, 3000)], among: [ann, bob, cy], description: "Lunch", day: "2026-11-02"), by: bob)
        _ = try await service.add(try draft(Money(minorUnits: 3000, currency: .jpy), paidBy: [(ann, 3000)], among: [ann], description: "Sushi", day: "2026-11-05"), by: ann)
        let report = try await service.spending(of: ann)
        #expect(report.byCategory.map { "\($0.label) \($0.amount)" } == ["food 3000 JPY", "shopping 25.00 EUR", "food 10.00 EUR"])
        #expect(report.byMonth.map { "\($0.label) \($0.amount)" } == ["2026-10 25.00 EUR", "2026-11 10.00 EUR", "2026-11 3000 JPY"])
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(-1000))])
        // A range keeps the expenses of its days, both ends included.
        let november = try await service.spending(of: ann, from: try Day("2026-11-02"), through: try Day("2026-11-05"))
        #expect(november.byMonth.map { "\($0.label) \($0.amount)" } == ["2026-11 10.00 EUR", "2026-11 3000 JPY"])
        let october = try await service.spending(of: ann, from: nil, through: try Day("2026-11-01"))
        #expect(october.byCategory.map { "\($0.label) \($0.amount)" } == ["shopping 25.00 EUR"])
        #expect(try await service.spending(of: ann, from: try Day("2026-11-06"), through: nil).byCategory.isEmpty)
    }

    @Test("the expenses two people share, newest first and paged, from either side; an edit that moves the day moves it in the list")
    func shared() async throws {
        let service = ledger.service()
        // Ann shares three with Bob, among others that are hers alone or with Cy; Bob has more with Cy.
        let days = ["2026-11-03", "2026-11-01", "2026-11-05", "2026-11-02", "2026-11-04", "2026-11-06"]
        var withBob: [Expense] = []
        for (index, day) in days.enumerated() {
            let people = [[ann, bob], [ann], [ann, bob, cy], [ann, cy], [ann, bob], [bob, cy]][index]
            let payer = people[0]
            let expense = try await service.add(
                try draft(eur(600), paidBy: [(payer, 600)], among: people, description: "E\(index)", day: day), by: payer
            )
            if people.contains(ann) && people.contains(bob) { withBob.append(expense) }
        }
        let newestFirst = withBob.sorted { $0.day > $1.day }.map(\.description)
        #expect(newestFirst == ["E2", "E4", "E0"])
        #expect(try await service.expenses(of: ann, sharedWith: bob, page: PageRequest(limit: 10)).map(\.description) == newestFirst)
        #expect(try await service.expenses(of: bob, sharedWith: ann, page: PageRequest(limit: 10)).map(\.description) == newestFirst)
        #expect(try await service.expenses(of: ann, sharedWith: bob, page: PageRequest(offset: 1, limit: 1)).map(\.description) == ["E4"])
        #expect(try await service.expenses(of: ann, sharedWith: ann, page: PageRequest(limit: 2)).map(\.description) == ["E2", "E4"])
        #expect(try await service.expenses(of: ann, sharedWith: UserID(rawValue: "unknown-zed"), page: PageRequest()).isEmpty)
        // Moving E0 to the newest day puts it first, in both lists.
        _ = try await service.edit(withBob[0], to: try draft(eur(600), paidBy: [(ann, 600)], among: [ann, bob], description: "E0", day: "2026-11-09"), by: ann)
        #expect(try await service.expenses(of: ann, sharedWith: bob, page: PageRequest(limit: 1)).map(\.description) == ["E0"])
        #expect(try await service.expenses(of: ann, page: PageRequest(limit: 1)).map(\.description) == ["E0"])
    }

    @Test("a note and the rule as given are kept; a blank note is none; a long one, or one with control or invisible characters, is refused")
    func notes() async throws {
        let service = ledger.service()
        var given = try draft(eur(1000), paidBy: [(ann, 1000)], among: [ann, bob], rule: .shares([ann: 1, bob: 3]))
        given.note = "  at the station  "
        let kept = try await service.add(given, by: ann)
        let read = try await service.expense(kept.id, for: bob)
        #expect(read?.note == "at the station")
        #expect(read?.rule == .shares([ann: 1, bob: 3]))
        given.note = "   "
        #expect(try await service.add(given, by: ann).note == nil)
        for refused in [String(repeating: "n", count: Expense.noteLimit + 1), "a\u{7}b", "paid \u{202E}01", "paid \u{2067}10\u{2069}"] {
            given.note = refused
            await #expect(throws: ExpensesError.invalid(.note)) { try await service.add(given, by: ann) }
        }
        // An emoji joined by a zero-width joiner is one picture, not a hidden character.
        given.note = "for the 👩‍👩‍👧 outing"
        #expect(try await service.add(given, by: ann).note == "for the 👩‍👩‍👧 outing")
        given.note = String(repeating: "n", count: Expense.noteLimit)
        #expect(try await service.add(given, by: ann).note?.count == Expense.noteLimit)
    }

    @Test("the people of a user's newest expenses, most recent first, each once; nobody else's")
    func recentPeople() async throws {
        let service = ledger.service()
        #expect(try await service.recentPeople(of: ann).isEmpty)
        let dan = UserID(rawValue: "d-dan")
        for (people, day) in [([ann, bob], "2026-11-01"), ([ann, cy], "2026-11-03"), ([ann, bob, cy], "2026-11-02"), ([bob, dan], "2026-11-09")] {
            _ = try await service.add(try draft(eur(600), paidBy: [(people[0], 600)], among: people, day: day), by: people[0])
        }
        #expect(try await service.recentPeople(of: ann) == [cy, bob])
        #expect(try await service.recentPeople(of: bob) == [dan, ann, cy])
    }

    @Test("suggested payments settle everyone in a currency")
    func suggestions() async throws {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob, cy]), by: ann)
        _ = try await service.add(try draft(eur(1500), paidBy: [(bob, 1500)], among: [bob, cy]), by: bob)
        let payments = try await service.suggestedPayments(for: ann, in: .eur)
        #expect(payments.count <= 2)
        #expect(payments.reduce(0) { $0 + $1.amount.minorUnits } > 0)
        #expect(try await service.suggestedPayments(for: ann, in: .jpy) == [])
    }
}

@Suite("Failures part-way through a write")
struct FailureInjectionTests {
    /// A store whose writes fail at the n-th operation inside the transaction.
    struct FailingStore: ExpensesStore {
        let inner: any ExpensesStore
        let failAt: Int

        func read<T: Sendable>(_ body: @escaping @Sendable (any ExpensesReading) throws -> T) async throws -> T {
            try await inner.read(body)
        }

        func write<T: Sendable>(_ body: @escaping @Sendable (any ExpensesWriting) throws -> T) async throws -> T {
            let failAt = failAt
            return try await inner.write { db in try body(FailingWriter(inner: db, failAt: failAt)) }
        }
    }

    struct Injected: Error {}

    final class FailingWriter: ExpensesWriting {
        let inner: any ExpensesWriting
        let failAt: Int
        var calls = 0

        init(inner: any ExpensesWriting, failAt: Int) {
            self.inner = inner
            self.failAt = failAt
        }

        private func step() throws {
            calls += 1
            if calls == failAt { throw Injected() }
        }

        func expense(id: String) throws -> StoredExpense? { try inner.expense(id: id) }
        func balances(of user: String) throws -> [BalanceRecord] { try inner.balances(of: user) }
        func activity(of user: String, offset: Int, limit: Int) throws -> [ActivityRecord] { try inner.activity(of: user, offset: offset, limit: limit) }
        func activityKeys(of user: String) throws -> [(subject: String, id: String)] { try inner.activityKeys(of: user) }
        func spending(of user: String, from: String, through: String) throws -> (byCategory: [SpendingRecord], byMonth: [SpendingRecord]) {
            try inner.spending(of: user, from: from, through: through)
        }
        func insert(_ expense: StoredExpense) throws { try step(); try inner.insert(expense) }
        func deleteExpense(id: String) throws { try step(); try inner.deleteExpense(id: id) }
        func moveToDeleted(id: String, by user: String, at: Double) throws { try step(); try inner.moveToDeleted(id: id, by: user, at: at) }
        func restoreDeleted(id: String) throws { try step(); try inner.restoreDeleted(id: id) }
        func deletedExpense(id: String) throws -> StoredExpense? { try inner.deletedExpense(id: id) }
        func deletedExpenseIDs(of user: String, offset: Int, limit: Int) throws -> [String] {
            try inner.deletedExpenseIDs(of: user, offset: offset, limit: limit)
        }
        func insert(_ settlement: SettlementRecord) throws { try step(); try inner.insert(settlement) }
        func deleteSettlement(id: String) throws { try step(); try inner.deleteSettlement(id: id) }
        func expenseIDs(of user: String, offset: Int, limit: Int) throws -> [String] { try inner.expenseIDs(of: user, offset: offset, limit: limit) }
        func expenseIDs(sharedBy user: String, with other: String, offset: Int, limit: Int) throws -> [String] {
            try inner.expenseIDs(sharedBy: user, with: other, offset: offset, limit: limit)
        }
        func recentPeople(of user: String, scanning: Int) throws -> [String] { try inner.recentPeople(of: user, scanning: scanning) }
        func forEachLedgerRow(
            expensePerson: (LedgerRow) throws -> Void, settlement: (SettlementRecord) throws -> Void, balance: (BalanceRecord) throws -> Void
        ) throws {
            try inner.forEachLedgerRow(expensePerson: expensePerson, settlement: settlement, balance: balance)
        }
        func settlement(id: String) throws -> SettlementRecord? { try inner.settlement(id: id) }
        func changes(ofExpense id: String) throws -> [ActivityRecord] { try inner.changes(ofExpense: id) }
        func settlements(of user: String, offset: Int, limit: Int) throws -> [SettlementRecord] {
            try inner.settlements(of: user, offset: offset, limit: limit)
        }
        func addToBalance(low: String, high: String, currency: String, amount: Int64) throws -> Int64 {
            try step()
            return try inner.addToBalance(low: low, high: high, currency: currency, amount: amount)
        }
        func addToGroupBalance(group: String, low: String, high: String, currency: String, amount: Int64) throws -> Int64 {
            try step()
            return try inner.addToGroupBalance(group: group, low: low, high: high, currency: currency, amount: amount)
        }
        func groupBalances(in group: String) throws -> [GroupBalanceRecord] { try inner.groupBalances(in: group) }
        func groupBalances(of user: String) throws -> [GroupBalanceRecord] { try inner.groupBalances(of: user) }
        func expenseIDs(inGroup group: String, offset: Int, limit: Int) throws -> [String] {
            try inner.expenseIDs(inGroup: group, offset: offset, limit: limit)
        }
        func settlements(inGroup group: String, offset: Int, limit: Int) throws -> [SettlementRecord] {
            try inner.settlements(inGroup: group, offset: offset, limit: limit)
        }
        func forEachGroupBalance(_ body: (GroupBalanceRecord) throws -> Void) throws { try inner.forEachGroupBalance(body) }
        func totals(inGroup group: String) throws -> (byMember: [SpendingRecord], byCategory: [SpendingRecord]) { try inner.totals(inGroup: group) }
        func insert(_ activity: ActivityRecord) throws { try step(); try inner.insert(activity) }
        func deleteActivity(id: String, subject: String) throws { try step(); try inner.deleteActivity(id: id, subject: subject) }
        func shareAnything(_ person: String, _ other: String) throws -> Bool { try inner.shareAnything(person, other) }
        func renamePerson(from: String, to: String) throws { try step(); try inner.renamePerson(from: from, to: to) }
        func importedKeys(of user: String, among keys: [String]) throws -> Set<String> { try inner.importedKeys(of: user, among: keys) }
        func recordImport(of user: String, key: String, subject: String, at: Double) throws {
            try step()
            try inner.recordImport(of: user, key: key, subject: subject, at: at)
        }
        func comments(onExpense id: String) throws -> [CommentRecord] { try inner.comments(onExpense: id) }
        func comment(id: String) throws -> CommentRecord? { try inner.comment(id: id) }
        func series(id: String) throws -> SeriesRecord? { try inner.series(id: id) }
        func series(of user: String) throws -> [SeriesRecord] { try inner.series(of: user) }
        func seriesRunning(on day: String) throws -> [SeriesRecord] { try inner.seriesRunning(on: day) }
        func occurrence(ofExpense id: String) throws -> (series: String, day: String)? { try inner.occurrence(ofExpense: id) }
        func lastOccurrence(ofSeries id: String) throws -> String? { try inner.lastOccurrence(ofSeries: id) }
        func occurrences(ofSeries id: String) throws -> [(day: String, expense: String)] { try inner.occurrences(ofSeries: id) }
        func insert(_ series: SeriesRecord) throws {
            try step()
            try inner.insert(series)
        }
        func update(_ series: SeriesRecord) throws {
            try step()
            try inner.update(series)
        }
        func claimOccurrence(series: String, day: String, expense: String) throws -> Bool {
            try step()
            return try inner.claimOccurrence(series: series, day: day, expense: expense)
        }
        func insert(_ comment: CommentRecord) throws {
            try step()
            try inner.insert(comment)
        }
        func deleteComment(id: String, onExpense expense: String) throws -> Bool {
            try step()
            return try inner.deleteComment(id: id, onExpense: expense)
        }
    }

    @Test("a failure at any step of adding leaves no partial expense and unchanged balances", arguments: 1...4)
    func add(failAt: Int) async throws {
        let ledger = Ledger()
        let good = ledger.service()
        _ = try await good.add(try draft(eur(900), paidBy: [(ann, 900)], among: [ann, bob, cy]), by: ann)
        let before = try await good.balances(of: ann)

        let failing = ledger.service(store: FailingStore(inner: ledger.store, failAt: failAt))
        await #expect(throws: ExpensesError.self) {
            try await failing.add(try draft(eur(3000), paidBy: [(bob, 3000)], among: [ann, bob, cy]), by: bob)
        }
        #expect(try await good.balances(of: ann) == before)
        #expect(try ledger.count("expense") == 1)
        #expect(try ledger.count("expense_person") == 3)
        #expect(try ledger.count("activity") == 1)
    }

    @Test("a failure part-way through an edit keeps the old expense and its balances", arguments: 1...6)
    func edit(failAt: Int) async throws {
        let ledger = Ledger()
        let good = ledger.service()
        let dinner = try await good.add(try draft(eur(900), paidBy: [(ann, 900)], among: [ann, bob, cy]), by: ann)
        let failing = ledger.service(store: FailingStore(inner: ledger.store, failAt: failAt))
        await #expect(throws: ExpensesError.self) {
            try await failing.edit(dinner, to: try draft(eur(100), paidBy: [(bob, 100)], among: [ann, bob]), by: ann)
        }
        #expect(try await good.expense(dinner.id, for: ann) == dinner)
        #expect(try await good.balances(of: ann) == [Balance(other: bob, amount: eur(300)), Balance(other: cy, amount: eur(300))])
    }
}

extension FailureInjectionTests {
    @Test("a failure at any step of deleting or restoring leaves the expense where it was, balances with it", arguments: 1...4)
    func deleteAndRestore(failAt: Int) async throws {
        let ledger = Ledger()
        let good = ledger.service()
        let dinner = try await good.add(try draft(eur(900), paidBy: [(ann, 900)], among: [ann, bob, cy]), by: ann)
        let owed = [Balance(other: bob, amount: eur(300)), Balance(other: cy, amount: eur(300))]
        let failing = ledger.service(store: FailingStore(inner: ledger.store, failAt: failAt))

        await #expect(throws: ExpensesError.self) { try await failing.delete(dinner, by: ann) }
        #expect(try await good.expense(dinner.id, for: ann) == dinner)
        #expect(try await good.balances(of: ann) == owed)
        #expect(try ledger.count("deleted_expense") == 0)

        try await good.delete(dinner, by: ann)
        await #expect(throws: ExpensesError.self) { _ = try await failing.restore(dinner.id, by: ann) }
        #expect(try await good.expense(dinner.id, for: ann) == nil)
        #expect(try await good.deletedExpenses(of: ann, page: PageRequest()) == [dinner])
        #expect(try await good.balances(of: ann) == [])
        #expect(try ledger.count("activity") == 2)
    }
}

@Suite("Maintained balances")
struct MaintainedBalancesTests {
    @Test("after random adds, edits, deletes and settlements, balances equal a naive recomputation and sum to zero")
    func matchesNaive() async throws {
        let people = (0..<5).map { UserID(rawValue: "p\($0)") }
        await propertyCheck(count: 60, input: Gen.int(in: 0...1_000_000)) { seed in
            let ledger = Ledger()
            let service = ledger.service()
            var random = seed &* 2_654_435_761 &+ 1
            func next(_ bound: Int) -> Int {
                random = (random &* 1_103_515_245 &+ 12_345) & 0x7FFF_FFFF
                return random % bound
            }
            var live: [ExpenseID: Expense] = [:]
            var deleted: [ExpenseID: Expense] = [:]
            var settlements: [Settlement] = []
            for _ in 0..<40 {
                let currency = next(3) == 0 ? Currency.jpy : .eur
                var shuffler = Seeded(state: UInt64(next(1_000_000)))
                let participants = Array(people.shuffled(using: &shuffler).prefix(1 + next(4)))
                let payer = people[next(5)]
                let amount = Money(minorUnits: Int64(1 + next(50_000)), currency: currency)
                let rule: SplitRule = next(2) == 0 ? .equal : .shares(Dictionary(uniqueKeysWithValues: participants.map { ($0, 1 + next(4)) }))
                guard let expenseDraft = try? draft(amount, paidBy: [(payer, amount.minorUnits)], among: participants, rule: rule) else { continue }
                switch next(7) {
                case 0 where !live.isEmpty:
                    let id = live.keys.sorted { $0.rawValue < $1.rawValue }[next(live.count)]
                    if let edited = try? await service.edit(id, to: expenseDraft, from: live[id]?.version ?? 1, by: payer) { live[id] = edited }
                case 1 where !live.isEmpty:
                    let id = live.keys.sorted { $0.rawValue < $1.rawValue }[next(live.count)]
                    if let person = live[id]?.people.first, (try? await service.delete(id, from: live[id]?.version ?? 1, by: person)) != nil {
                        deleted[id] = live[id]
                        live[id] = nil
                    }
                case 3 where !deleted.isEmpty:
                    let id = deleted.keys.sorted { $0.rawValue < $1.rawValue }[next(deleted.count)]
                    if let person = deleted[id]?.people.first, let restored = try? await service.restore(id, by: person) {
                        live[id] = restored
                        deleted[id] = nil
                    }
                case 2:
                    let index = next(5)
                    let from = people[index]
                    let to = people[(index + 1 + next(4)) % 5]
                    if let day = try? Day("2026-11-22"),
                       let settlement = try? await service.settle(from: from, to: to, amount: amount, day: day, by: from) {
                        settlements.append(settlement)
                    }
                default:
                    if let added = try? await service.add(expenseDraft, by: payer) { live[added.id] = added }
                }
            }
            var naive = PairBalances()
            for expense in live.values { try? naive.apply(expense.balanceDeltas) }
            for settlement in settlements { try? naive.apply(settlement.balanceDeltas) }
            for person in people {
                let maintained = (try? await service.balances(of: person)) ?? []
                let expected = naive.balances(of: person).map { Balance(other: $0.other, amount: $0.amount) }
                #expect(maintained == expected)
            }
            for (_, positions) in naive.netPositions() {
                #expect(positions.values.reduce(0, +) == 0)
            }
        }
    }
}

/// A seeded generator for shuffling in the property test.
private struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        return z ^ (z >> 27)
    }
}
