import Expenses
import ExpensesLive
import Foundation
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")

/// A replica's expenses and payments, written as pulled (docs/sync.md): the same reads give the
/// same answers on the replica as on the server, and the ledger recounts there too.
@Suite("Expenses on a replica")
struct ReplicaTests {
    let server = Ledger()
    let replica = Ledger()

    /// Puts on the replica everything Bob sees on the server, as a pull brings it.
    private func pull(_ from: LiveExpensesService, into to: LiveExpensesService) async throws {
        for expense in try await from.expenses(of: bob, page: PageRequest(limit: 1_000)) {
            try await to.put(
                expense, history: try await from.history(of: expense.id, for: bob), comments: try await from.comments(on: expense.id, for: bob), deleted: false
            )
        }
        for expense in try await from.deletedExpenses(of: bob, page: PageRequest(limit: 1_000)) {
            try await to.put(expense, history: try await from.history(of: expense.id, for: bob), comments: [], deleted: true)
        }
        for payment in try await from.settlements(of: bob, page: PageRequest(limit: 1_000)) {
            try await to.put(payment, history: try await from.paymentHistory(of: payment.id, for: bob))
        }
        // The lines of his activity, oldest first, each once however often it is pulled.
        for (subject, id) in try await from.activityLines(of: bob) {
            if let line = try await from.activityLine(id, of: subject, for: bob) { try await to.put(line) }
        }
    }

    /// What Bob reads, on either.
    private func seen(_ service: LiveExpensesService, _ ids: [ExpenseID]) async throws -> [String] {
        var seen = [
            "\(try await service.balances(of: bob))", "\(try await service.expenses(of: bob, page: PageRequest()))",
            "\(try await service.settlements(of: bob, page: PageRequest()))", "\(try await service.suggestedPayments(for: bob, in: .eur))",
            "\(try await service.activity(of: bob, page: PageRequest()))", "\(try await service.deletedExpenses(of: bob, page: PageRequest()))",
        ]
        for id in ids {
            seen.append("\(try await service.expense(id, for: bob) as Any)")
            if try await service.expense(id, for: bob) != nil {
                seen.append("\(try await service.history(of: id, for: bob))")
                seen.append("\(try await service.comments(on: id, for: bob))")
            }
        }
        return seen
    }

    @Test("expenses, their edits, comments and a payment, put as pulled, read as on the server; removed, their balances go with them")
    func sameAnswers() async throws {
        let (on, copy) = (server.service(), replica.service())
        let dinner = try await on.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob]), by: ann)
        let taxi = try await on.add(try draft(eur(1200), paidBy: [(bob, 1200)], among: [ann, bob], description: "Taxi"), by: bob)
        _ = try await on.comment("Was it 30?", on: dinner.id, by: bob)
        let payment = try await on.settle(from: bob, to: ann, amount: eur(500), day: try Day("2026-11-23"), by: bob)
        try await pull(on, into: copy)
        let ids = [dinner.id, taxi.id]
        #expect(try await seen(copy, ids) == seen(on, ids))
        #expect(try await copy.paymentHistory(of: payment.id, for: bob) == on.paymentHistory(of: payment.id, for: bob))

        // An edit and a second comment, pulled again: each line of history once.
        _ = try await on.edit(dinner, to: try draft(eur(3600), paidBy: [(ann, 3600)], among: [ann, bob], description: "Team dinner"), by: ann)
        _ = try await on.comment("36, then.", on: dinner.id, by: ann)
        try await pull(on, into: copy)
        try await pull(on, into: copy)
        #expect(try await copy.history(of: dinner.id, for: bob).count == 2)
        #expect(try await seen(copy, ids) == seen(on, ids))

        // Deleted and taken back on the server: removed from the replica, balances with them;
        // the deleted expense kept among the deleted, to restore.
        try await on.delete(try #require(try await on.expense(taxi.id, for: bob)), by: bob)
        try await on.undoSettlement(payment.id, by: bob)
        try await copy.removeExpense(taxi.id)
        try await copy.removePayment(payment.id)
        try await copy.removePayment(payment.id)
        try await pull(on, into: copy)
        #expect(try await seen(copy, ids) == seen(on, ids))
        #expect(try await copy.balances(of: bob) == [Balance(other: ann, amount: eur(-1800))])
        #expect(try await copy.deletedExpenses(of: bob, page: PageRequest()).map(\.id) == [taxi.id])
        // Restored on the server: back on the replica, and its balances with it.
        _ = try await on.restore(taxi.id, by: bob)
        try await pull(on, into: copy)
        #expect(try await seen(copy, ids) == seen(on, ids))
        #expect(try await copy.deletedExpenses(of: bob, page: PageRequest()).isEmpty)
        #expect(try await LiveLedgerVerifier(store: replica.store).verify().isSound)
    }
}
