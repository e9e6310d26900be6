import Expenses
import ExpensesData
import ExpensesDataSQLite
import ExpensesLive
import Foundation
import GRDB
import LocalStore
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")
private let dee = UserID(rawValue: "d-dee")

/// The store's schema: a store written by the version 2 schema is carried to the current one
/// with nothing lost, and the one row per person refuses what the old keys refused.
@Suite("The expenses schema")
struct MigrationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-migration-\(UUID().uuidString)")
    var file: URL { folder.appendingPathComponent("flows.sqlite") }

    /// Two expenses as the version 2 schema kept them: one whose payers are not all among its
    /// participants (shares, listed in an order that is not the ids' order), one split equally.
    /// Their rows are written from the domain's own values, so they are what the app wrote then.
    private func expensesOfVersion2() throws -> [(Expense, SplitRule)] {
        let shares = SplitRule.shares([cy: 2, bob: 1])
        let taxi = try Expense(id: ExpenseID(rawValue: "e-taxi"), draft: ExpenseDraft(
            description: "Taxi", amount: eur(900), day: try Day("2026-03-02"), category: .transport,
            payers: [Payer(user: bob, amount: eur(400)), Payer(user: ann, amount: eur(500))],
            participants: [cy, bob], rule: shares
        ))
        let dinner = try Expense(id: ExpenseID(rawValue: "e-dinner"), draft: ExpenseDraft(
            description: "Dinner", amount: eur(1001), day: try Day("2026-03-01"), category: .food,
            payers: [Payer(user: ann, amount: eur(1001))], participants: [ann, cy, bob], rule: .equal
        ))
        return [(taxi, shares), (dinner, .equal)]
    }

    private func writeVersion2(_ expenses: [(Expense, SplitRule)]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var migrator = DatabaseMigrator()
        ExpensesSchema.registerMigrations(in: &migrator)
        let queue = try DatabaseQueue(path: file.path)
        try migrator.migrate(queue, upTo: "expenses.v2.lists-by-person")
        try queue.write { db in
            for (expense, rule) in expenses {
                let values: [UserID: Int64] = switch rule {
                case .shares(let shares): shares.mapValues(Int64.init)
                default: [:]
                }
                try db.execute(
                    sql: "INSERT INTO expense VALUES (?, ?, ?, 'EUR', ?, ?, ?, 'a-ann', 1.0)",
                    arguments: [expense.id.rawValue, expense.description, expense.amount.minorUnits, expense.day.description,
                                expense.category.rawValue, rule.mode.rawValue]
                )
                for (position, payer) in expense.payers.enumerated() {
                    try db.execute(sql: "INSERT INTO expense_payer VALUES (?, ?, ?, ?)",
                                   arguments: [expense.id.rawValue, position, payer.user.rawValue, payer.amount.minorUnits])
                }
                for (position, part) in expense.split.parts.enumerated() {
                    try db.execute(sql: "INSERT INTO expense_part VALUES (?, ?, ?, ?, ?)",
                                   arguments: [expense.id.rawValue, position, part.user.rawValue, part.amount.minorUnits, values[part.user]])
                }
            }
            // Three lines at the same moment: their order is the order they were written in.
            for (id, subject) in [("x-1", "e-dinner"), ("a-2", "e-taxi"), ("m-3", "e-taxi")] {
                try db.execute(sql: "INSERT INTO activity VALUES (?, 5.0, 'a-ann', 'added', ?, ?)", arguments: [id, subject, "line \(id)"])
                for person in ["a-ann", "c-cy"] {
                    try db.execute(sql: "INSERT INTO activity_person VALUES (?, 5.0, ?)", arguments: [person, id])
                }
            }
        }
        try queue.close()
    }

    @Test("expenses, their payers and parts in order, lists, spending and activity survive the move to one row per person")
    func version2() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let expenses = try expensesOfVersion2()
        try writeVersion2(expenses)

        let database = LocalDatabase(.file(file), migrations: ExpensesSchema.registerMigrations(in:))
        #expect(try database.appliedMigrations().suffix(14) == [
            "expenses.v3.fewer-trees", "expenses.v4.people-by-day", "expenses.v5.notes", "expenses.v6.activity-people-by-line", "expenses.v7.deleted-expenses",
            "expenses.v8.settlement-legs", "expenses.v9.places-in-id-order", "expenses.v10.versions", "expenses.v11.kept-changes", "expenses.v12.groups",
            "expenses.v13.imports", "expenses.v14.conversions", "expenses.v15.comments", "expenses.v16.series",
        ])
        let service = LiveExpensesService(store: SQLiteExpensesStore(database: database), people: TestPeople())
        for (expense, _) in expenses {
            #expect(try await service.expense(expense.id, for: cy) == expense)
        }
        #expect(try await service.expense(ExpenseID(rawValue: "e-taxi"), for: ann)?.payers.map(\.user) == [bob, ann])
        #expect(try await service.expenses(of: ann, page: PageRequest(offset: 0, limit: 10)).map(\.id.rawValue) == ["e-taxi", "e-dinner"])
        #expect(try await service.expenses(of: cy, sharedWith: bob, page: PageRequest(offset: 1, limit: 10)).map(\.id.rawValue) == ["e-dinner"])
        let partsOfCy = expenses.compactMap { expense, _ in expense.split.parts.first { $0.user == cy }?.amount }
        #expect(try await service.spending(of: cy).byCategory.map(\.amount) == partsOfCy)
        #expect(try await service.activity(of: cy, limit: 10).map(\.summary) == ["line m-3", "line a-2", "line x-1"])
        #expect(try await service.activity(of: bob, limit: 10).isEmpty)

        // The migrated store takes new writes; deleting an expense takes its people with it, and
        // restoring brings it back as it was.
        let taxi = try await service.expense(ExpenseID(rawValue: "e-taxi"), for: ann)
        try await service.delete(ExpenseID(rawValue: "e-taxi"), from: 1, by: ann)
        #expect(try await service.expenses(of: ann, page: PageRequest(offset: 0, limit: 10)).map(\.id.rawValue) == ["e-dinner"])
        let people = try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM expense_person") }
        #expect(people == 3)
        #expect(try await service.restore(ExpenseID(rawValue: "e-taxi"), by: ann) == taxi)
        #expect(try await service.expenses(of: ann, page: PageRequest(offset: 0, limit: 10)).map(\.id.rawValue) == ["e-taxi", "e-dinner"])
    }

    @Test("expenses written when pairs and ties followed ids keep their pairs and parts: places in id order where two came out ahead and two behind, parts read as kept")
    func placesInIDOrder() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var migrator = DatabaseMigrator()
        ExpensesSchema.registerMigrations(in: &migrator)
        let queue = try DatabaseQueue(path: file.path)
        try migrator.migrate(queue, upTo: "expenses.v8.settlement-legs")
        try await queue.write { db in
            // A trip Cy (6.00) and Ann (4.00) paid, Bob's part 3.00 and Dee's 7.00, listed in that
            // order; pairs then followed ids: Bob owes Ann 3.00, Dee owes Ann 1.00 and Cy 6.00.
            // A dinner of 10.01 Ann paid, shared by Cy and Bob: the tie's cent went to Bob, the smaller id.
            try db.execute(sql: """
                INSERT INTO expense (id, description, amount, currency, day, category, split_mode, created_by, created_at)
                VALUES ('e-trip', 'Trip', 1000, 'EUR', '2026-03-01', 'travel', 'exact', 'a-ann', 1.0),
                       ('e-dinner', 'Dinner', 1001, 'EUR', '2026-03-02', 'food', 'equal', 'a-ann', 2.0);
                INSERT INTO expense_person (expense_id, user_id, day, created_at, paid, paid_position, part, part_position, rule_value)
                VALUES ('e-trip', 'c-cy', '2026-03-01', 1.0, 600, 0, NULL, NULL, NULL),
                       ('e-trip', 'a-ann', '2026-03-01', 1.0, 400, 1, NULL, NULL, NULL),
                       ('e-trip', 'b-bob', '2026-03-01', 1.0, NULL, NULL, 300, 0, 300),
                       ('e-trip', 'd-dee', '2026-03-01', 1.0, NULL, NULL, 700, 1, 700),
                       ('e-dinner', 'a-ann', '2026-03-02', 2.0, 1001, 0, NULL, NULL, NULL),
                       ('e-dinner', 'c-cy', '2026-03-02', 2.0, NULL, NULL, 500, 0, NULL),
                       ('e-dinner', 'b-bob', '2026-03-02', 2.0, NULL, NULL, 501, 1, NULL);
                INSERT INTO balance (user_low, user_high, currency, amount)
                VALUES ('a-ann', 'b-bob', 'EUR', 801), ('a-ann', 'd-dee', 'EUR', 100), ('c-cy', 'd-dee', 'EUR', 600),
                       ('a-ann', 'c-cy', 'EUR', 500);
                """)
        }
        try queue.close()

        let database = LocalDatabase(.file(file), migrations: ExpensesSchema.registerMigrations(in:))
        #expect(try database.appliedMigrations().last == "expenses.v16.series")
        let service = LiveExpensesService(store: SQLiteExpensesStore(database: database), people: TestPeople())
        let verifier = LiveLedgerVerifier(store: SQLiteExpensesStore(database: database))
        #expect(try await verifier.verify().isSound)
        // The trip's payers are now in id order; the dinner, whose pairs never depended on the order, is as it was.
        let trip = try #require(try await service.expense(ExpenseID(rawValue: "e-trip"), for: ann))
        #expect(trip.payers.map(\.user) == [ann, cy])
        let dinner = try #require(try await service.expense(ExpenseID(rawValue: "e-dinner"), for: ann))
        #expect(dinner.split.parts.map { "\($0.user) \($0.amount.minorUnits)" } == ["c-cy 500", "b-bob 501"])
        // Undone, each moves back exactly what it moved.
        try await service.delete(trip, by: ann)
        #expect(try await verifier.verify().isSound)
        try await service.delete(dinner, by: ann)
        #expect(try await service.balances(of: ann) == [])
        #expect(try await service.balances(of: dee) == [])
        #expect(try await verifier.verify().isSound)
        #expect(try await service.restore(trip.id, by: ann) == trip)
        #expect(try await service.balances(of: dee) == [Balance(other: ann, amount: eur(-100)), Balance(other: cy, amount: eur(-600))])
    }

    @Test("a person twice among an expense's payers, or with two parts, is refused by the store itself")
    func onePersonOneRow() async throws {
        let store = SQLiteExpensesStore(database: LocalDatabase(.memory, migrations: ExpensesSchema.registerMigrations(in:)))
        func expense(payers: [StoredExpense.Payer], parts: [StoredExpense.Part]) -> StoredExpense {
            StoredExpense(
                id: "e-1", description: "Lunch", amount: 100, currency: "EUR", day: "2026-03-01", category: "food",
                splitMode: "equal", createdBy: ann.rawValue, createdAt: 0, payers: payers, parts: parts
            )
        }
        let twicePaying = expense(payers: [.init(user: "a-ann", amount: 50), .init(user: "a-ann", amount: 50)],
                                  parts: [.init(user: "a-ann", amount: 100, ruleValue: nil)])
        let twoParts = expense(payers: [.init(user: "a-ann", amount: 100)],
                               parts: [.init(user: "b-bob", amount: 50, ruleValue: nil), .init(user: "b-bob", amount: 50, ruleValue: nil)])
        for stored in [twicePaying, twoParts] {
            await #expect(throws: ExpensesDataError.self) { try await store.write { try $0.insert(stored) } }
        }
        #expect(try await store.read { try $0.expense(id: "e-1") } == nil)
        let payingOnly = expense(payers: [.init(user: "a-ann", amount: 100)], parts: [.init(user: "b-bob", amount: 100, ruleValue: nil)])
        try await store.write { try $0.insert(payingOnly) }
        #expect(try await store.read { try $0.expense(id: "e-1") } == payingOnly)
    }
}
