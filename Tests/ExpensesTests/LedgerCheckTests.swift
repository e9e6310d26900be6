import Expenses
import ExpensesDataSQLite
import ExpensesLive
import Foundation
import GRDB
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")

@Suite("Recounting the ledger (flows verify)")
struct LedgerCheckTests {
    let ledger = Ledger()

    private func filled() async throws -> LiveExpensesService {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: [ann, bob, cy]), by: ann)
        _ = try await service.add(try draft(eur(700), paidBy: [(bob, 400), (cy, 300)], among: [ann, bob, cy], rule: .shares([ann: 1, bob: 2, cy: 4])), by: bob)
        let taxi = try await service.add(try draft(eur(900), paidBy: [(cy, 900)], among: [bob, cy]), by: cy)
        try await service.delete(taxi, by: cy)
        _ = try await service.settle(from: bob, to: ann, amount: eur(100), day: try Day("2026-11-23"), by: bob)
        return service
    }

    private func execute(_ sql: String) throws {
        try ledger.database.writer().write { db in try db.execute(sql: sql) }
    }

    @Test("a ledger written by the service recounts to the balances it keeps")
    func sound() async throws {
        _ = try await filled()
        let check = try await LiveLedgerVerifier(store: ledger.store).verify()
        #expect(check.isSound)
        #expect(check.expenses == 2)
        #expect(check.settlements == 1)
        // Bob owes Ann 3.33 - 1.00 - 1.00 (his payment), Cy owes Ann 3.33 and Bob 1.00.
        #expect(check.balances == 3)
        #expect(check.summary == "Ledger verified: 2 expenses, 1 payments, 3 balances; every balance matches its recount.")
    }

    @Test("a kept balance changed, dropped or added behind the service's back is found, with both figures")
    func drifted() async throws {
        _ = try await filled()
        try execute("UPDATE balance SET amount = amount + 1 WHERE user_low = 'a-ann' AND user_high = 'b-bob'")
        try execute("DELETE FROM balance WHERE user_low = 'a-ann' AND user_high = 'c-cy'")
        try execute("INSERT INTO balance (user_low, user_high, currency, amount) VALUES ('b-bob', 'c-cy', 'USD', 5)")
        let check = try await LiveLedgerVerifier(store: ledger.store).verify()
        #expect(!check.isSound)
        #expect(check.differences.map { "\($0.low) \($0.high) \($0.currency) \($0.kept) \($0.recounted)" } == [
            "a-ann b-bob EUR 134 133", "a-ann c-cy EUR 0 333", "b-bob c-cy USD 5 0",
        ])
        #expect(check.summary.hasPrefix("Ledger differs: 2 expenses, 1 payments, 3 balances; 3 balances differ"))
    }

    @Test("an expense whose parts no longer add up is named")
    func broken() async throws {
        _ = try await filled()
        try execute("UPDATE expense_person SET part = part + 5 WHERE user_id = 'c-cy' AND part IS NOT NULL AND expense_id IN (SELECT id FROM expense WHERE amount = 1000)")
        let check = try await LiveLedgerVerifier(store: ledger.store).verify()
        #expect(check.brokenExpenses.count == 1)
        #expect(check.brokenExpenses.first?.contains("paid 1000 and parts 1005 for an amount of 1000") == true)
    }
}
