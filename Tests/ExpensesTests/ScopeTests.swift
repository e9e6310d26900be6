import Expenses
import ExpensesLive
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")
private let dan = UserID(rawValue: "d-dan")

/// Every read and write takes the acting user and touches only what they take part in.
@Suite("The ledger scoped to the acting user")
struct ScopeTests {
    let ledger = Ledger()

    @Test("an expense is read only by someone in it; to anyone else it does not exist")
    func expenseHidden() async throws {
        let service = ledger.service()
        let dinner = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob]), by: ann)
        #expect(try await service.expense(dinner.id, for: bob) == dinner)
        #expect(try await service.expense(dinner.id, for: cy) == nil)
        #expect(try await service.balances(of: cy) == [])
        #expect(try await service.activity(of: cy, limit: 10) == [])
        // Changing it answers as for an expense that does not exist, whatever the draft says.
        await #expect(throws: ExpensesError.notFound(dinner.id)) {
            try await service.edit(dinner, to: try draft(eur(10), paidBy: [(cy, 10)], among: [cy]), by: cy)
        }
        await #expect(throws: ExpensesError.notFound(dinner.id)) {
            try await service.edit(dinner, to: try draft(eur(10), paidBy: [(ann, 10)], among: [ann, bob]), by: cy)
        }
        await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.delete(dinner, by: cy) }
        // Someone in it stays in it.
        await #expect(throws: ExpensesError.notInExpense) {
            try await service.edit(dinner, to: try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann]), by: bob)
        }
        #expect(try await service.expense(dinner.id, for: bob) == dinner)
    }

    @Test("a payment is taken back only by its payer or payee; to anyone it does not name it does not exist")
    func paymentHidden() async throws {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: [ann, bob]), by: ann)
        let payment = try await service.settle(from: bob, to: ann, amount: eur(500), day: try Day("2026-11-22"), by: bob)
        await #expect(throws: ExpensesError.notFound(payment.id)) { try await service.undoSettlement(payment.id, by: cy) }
        #expect(try await service.settlements(of: ann, page: PageRequest()) == [payment])
    }

    @Test("adding an expense one is not in is refused")
    func addOnlyOwn() async throws {
        let service = ledger.service()
        await #expect(throws: ExpensesError.notInExpense) {
            try await service.add(try draft(eur(3000), paidBy: [(bob, 3000)], among: [bob, cy]), by: ann)
        }
        #expect(try ledger.count("expense") == 0)
    }

    @Test("an expense or a payment naming someone unknown is refused, naming them")
    func unknownPeople() async throws {
        let service = ledger.service()
        let ghost = UserID(rawValue: "unknown-ghost")
        await #expect(throws: ExpensesError.unknownPeople([ghost])) {
            try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, ghost]), by: ann)
        }
        await #expect(throws: ExpensesError.unknownPeople([ghost])) {
            try await service.settle(from: ann, to: ghost, amount: eur(100), day: try Day("2026-11-22"), by: ann)
        }
        #expect(ExpensesError.unknownPeople([ghost]).message == "Not among your friends or contacts: unknown-ghost. Add them as a friend or a contact first.")
        #expect(try ledger.count("expense") + ledger.count("settlement") == 0)
    }

    @Test("suggested payments cover the user's circle only: balances between strangers stay unseen")
    func suggestionsScoped() async throws {
        let service = ledger.service()
        // Ann and Bob share a dinner; Cy and Dan, whom Ann does not know, share a taxi.
        _ = try await service.add(try draft(eur(2000), paidBy: [(ann, 2000)], among: [ann, bob]), by: ann)
        _ = try await service.add(try draft(eur(500), paidBy: [(cy, 500)], among: [cy, dan]), by: cy)
        #expect(try await service.suggestedPayments(for: ann, in: .eur) == [SuggestedPayment(from: bob, to: ann, amount: eur(1000))])
        #expect(try await service.suggestedPayments(for: dan, in: .eur) == [SuggestedPayment(from: dan, to: cy, amount: eur(250))])
        #expect(try await service.suggestedPayments(for: ann, in: .usd) == [])
    }

    @Test("within the circle, debts between the user's people are simplified")
    func suggestionsSimplifyCircle() async throws {
        let service = ledger.service()
        // Bob owes Ann 10, Cy owes Bob 10: Cy pays Ann, and Bob is out of it.
        _ = try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: [bob]), by: ann)
        _ = try await service.add(try draft(eur(1000), paidBy: [(bob, 1000)], among: [cy]), by: bob)
        #expect(try await service.suggestedPayments(for: bob, in: .eur) == [SuggestedPayment(from: cy, to: ann, amount: eur(1000))])
    }

    @Test("suggestions read only the user's own balances: what two of their people owe each other stays unseen")
    func suggestionsOwnPairsOnly() async throws {
        let service = ledger.service()
        // Bob owes Ann 10, Cy owes Bob 10; and Ann owes Cy 5, which is theirs, not Bob's.
        _ = try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: [bob]), by: ann)
        _ = try await service.add(try draft(eur(1000), paidBy: [(bob, 1000)], among: [cy]), by: bob)
        _ = try await service.add(try draft(eur(500), paidBy: [(cy, 500)], among: [ann]), by: cy)
        #expect(try await service.suggestedPayments(for: bob, in: .eur) == [SuggestedPayment(from: cy, to: ann, amount: eur(1000))])
        // Ann's own two: Bob owes her 10, she owes Cy 5; so Bob pays her 5 and pays Cy the 5 she owes.
        let forAnn = try await service.suggestedPayments(for: ann, in: .eur)
        #expect(Set(forAnn.map { "\($0.from.rawValue) pays \($0.to.rawValue) \($0.amount)" }) == ["b-bob pays a-ann 5.00 EUR", "b-bob pays c-cy 5.00 EUR"])
    }
}
