import Expenses
import ExpensesData
import ExpensesDataPostgres
import ExpensesLive
import Foundation
import Testing

/// New expenses written together (`PostgresExpensesStore.add(all:)`, and the queue behind
/// `add(_:)` that gathers them) leave the ledger as the same additions written one by one.
@Suite("Additions written together on PostgreSQL", TestDatabase.required)
struct AdditionBatchTests {
    @Test("a batch leaves the ledger exactly as the same additions written one by one, settled and cancelled pairs included")
    func sameAsOneByOne() async throws {
        // Four people, two currencies: pairs moved by several additions (both ways), one pair
        // that two additions cancel out, one brought to exactly zero.
        let additions = [
            addition(paidBy: "a-ann", 1200, for: "b-bob"),
            addition(paidBy: "b-bob", 300, for: "a-ann"),
            addition(paidBy: "c-cy", 500, for: "d-dee", currency: "USD"),
            addition(paidBy: "d-dee", 500, for: "c-cy", currency: "USD"),
            addition(paidBy: "a-ann", 250, for: "c-cy"),
            addition(paidBy: "d-dee", 700, for: "b-bob"),
            addition(paidBy: "b-bob", 700, for: "d-dee"),
            addition(paidBy: "a-ann", 40, for: "d-dee", currency: "USD"),
        ]
        let oneByOne = try await PostgresLedger.run { ledger in
            for addition in additions { try await ledger.store.write { try $0.add(addition) } }
            return try await Contents(ledger)
        }
        let together = try await PostgresLedger.run { ledger in
            try await ledger.store.add(all: additions)
            return try await Contents(ledger)
        }
        #expect(together == oneByOne)
        #expect(oneByOne.balances == [
            BalanceRecord(low: "a-ann", high: "b-bob", currency: "EUR", amount: 900),
            BalanceRecord(low: "a-ann", high: "c-cy", currency: "EUR", amount: 250),
            BalanceRecord(low: "a-ann", high: "d-dee", currency: "USD", amount: 40),
        ])
        #expect(oneByOne.expenses == additions.count)
        #expect(oneByOne.activityLines == 2 * additions.count)
        #expect(oneByOne.sound && together.sound)
    }

    @Test("a change past its addition's limit refuses the whole batch, even when a later one brings the balance back")
    func limitOnTheWay() async throws {
        try await PostgresLedger.run { ledger in
            try await ledger.store.add(all: [addition(paidBy: "a-ann", 400, for: "b-bob", limit: 1000)])
            let batch = [
                addition(paidBy: "a-ann", 400, for: "b-bob", limit: 1000),
                addition(paidBy: "a-ann", 400, for: "b-bob", limit: 1000),
                addition(paidBy: "b-bob", 400, for: "a-ann", limit: 1000),
            ]
            // 400, then 800, 1200 (past 1000), 800: one by one, the second would be refused.
            await #expect(throws: ExpensesDataError.outOfRange) { try await ledger.store.add(all: batch) }
            let contents = try await Contents(ledger)
            #expect(contents.balances == [BalanceRecord(low: "a-ann", high: "b-bob", currency: "EUR", amount: 400)])
            #expect(contents.expenses == 1)
            #expect(contents.activityLines == 2)
        }
    }

    @Test("additions arriving at once: each lands or is refused as it would alone, and the others land")
    func gatheredAdditions() async throws {
        try await PostgresLedger.run(maximumConnections: 4) { ledger in
            let store = ledger.store
            // Twenty-five that all fit, and five between Cy and Dee of which only two fit under
            // their limit, whatever the order they land in.
            let fitting = (0..<25).map { addition(paidBy: "a-ann", 100 + Int64($0), for: "b-bob") }
            let limited = (0..<5).map { _ in addition(paidBy: "c-cy", 400, for: "d-dee", limit: 1000) }
            let refused = await withTaskGroup(of: String?.self) { group in
                for addition in fitting + limited {
                    group.addTask {
                        do {
                            try await store.add(addition)
                            return nil
                        } catch {
                            return addition.expense.createdBy + ": \(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { refused, failure in if let failure { refused.append(failure) } }
            }
            #expect(refused == Array(repeating: "c-cy: outOfRange", count: 3))
            let contents = try await Contents(ledger)
            #expect(contents.balances == [
                BalanceRecord(low: "a-ann", high: "b-bob", currency: "EUR", amount: (0..<25).reduce(0) { $0 + 100 + Int64($1) }),
                BalanceRecord(low: "c-cy", high: "d-dee", currency: "EUR", amount: 800),
            ])
            #expect(contents.expenses == 27)
            #expect(contents.activityLines == 2 * 27)
            #expect(contents.sound)
        }
    }
}

/// What a ledger holds, to compare two: every kept balance, how many expenses and activity
/// lines (per person) there are, each person's activity, and whether every balance matches
/// its recount.
private struct Contents: Equatable {
    var balances: [BalanceRecord] = []
    var expenses = 0
    var activityLines = 0
    var activity: [String: [String]] = [:]
    var sound = false

    init(_ ledger: PostgresLedger) async throws {
        let people = ["a-ann", "b-bob", "c-cy", "d-dee"]
        let (balances, expenses, activity) = try await ledger.store.read { db in
            var balances: [BalanceRecord] = []
            var expenses = Set<String>()
            try db.forEachLedgerRow(expensePerson: { expenses.insert($0.expense) }, settlement: { _ in }, balance: { balances.append($0) })
            var activity: [String: [String]] = [:]
            for person in people {
                activity[person] = try db.activity(of: person, offset: 0, limit: 1_000).map { "\($0.kind) \($0.subject) \($0.people.sorted())" }
            }
            return (balances, expenses.count, activity)
        }
        self.balances = balances
        self.expenses = expenses
        self.activity = activity
        activityLines = activity.values.reduce(0) { $0 + $1.count }
        sound = try await LiveLedgerVerifier(store: ledger.store).verify().isSound
    }
}

/// `payer` pays `amount` for `other` alone: `other` owes it all.
private func addition(
    paidBy payer: String, _ amount: Int64, for other: String, currency: String = "EUR", limit: Int64 = LedgerLimits.maximumAmount
) -> ExpenseAddition {
    let id = "e-" + UUID().uuidString.lowercased()
    let expense = StoredExpense(
        id: id, description: "Tickets", amount: amount, currency: currency, day: "2026-11-22", category: "general", splitMode: "equal",
        createdBy: payer, createdAt: 1_800_000_000, payers: [.init(user: payer, amount: amount)],
        parts: [.init(user: other, amount: amount, ruleValue: nil)]
    )
    let change = payer < other
        ? BalanceChange(low: payer, high: other, currency: currency, amount: amount)
        : BalanceChange(low: other, high: payer, currency: currency, amount: -amount)
    let line = ActivityRecord(
        id: "l-" + UUID().uuidString.lowercased(), at: 1_800_000_000, actor: payer, kind: "added", subject: id,
        summary: "Tickets", people: [payer, other]
    )
    return ExpenseAddition(expense: expense, balanceChanges: [change], activity: line, balanceLimit: limit)
}
