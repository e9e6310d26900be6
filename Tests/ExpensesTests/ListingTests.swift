import Expenses
import ExpensesLive
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")

/// What a flow or an embedder lists: a user's expenses and payments, their currencies, and a
/// payment taken back.
@Suite("Listing a user's ledger")
struct ListingTests {
    let ledger = Ledger()

    @Test("a user's expenses, newest first by day, in pages; only those they are in")
    func expensesPaged() async throws {
        let service = ledger.service()
        var added: [Expense] = []
        for day in 1...7 {
            added.append(try await service.add(
                try draft(eur(100), paidBy: [(ann, 100)], among: [ann, day.isMultiple(of: 2) ? bob : cy], description: "Day \(day)", day: "2026-11-0\(day)"),
                by: ann
            ))
        }
        let first = try await service.expenses(of: ann, page: PageRequest(limit: 3))
        let second = try await service.expenses(of: ann, page: PageRequest(limit: 3).next)
        let third = try await service.expenses(of: ann, page: PageRequest(offset: 6, limit: 3))
        #expect((first + second + third).map(\.description) == (1...7).reversed().map { "Day \($0)" })
        #expect(try await service.expenses(of: bob, page: PageRequest()).map(\.description) == ["Day 6", "Day 4", "Day 2"])
        #expect(try await service.expenses(of: UserID(rawValue: "d-dan"), page: PageRequest()) == [])
        #expect(PageRequest(offset: -5, limit: 1_000_000) == PageRequest(offset: 0, limit: 1_000))
    }

    @Test("a user's payments, newest first; their currencies")
    func settlementsAndCurrencies() async throws {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: [ann, bob]), by: ann)
        _ = try await service.add(try draft(Money(minorUnits: 900, currency: .jpy), paidBy: [(bob, 900)], among: [ann, bob]), by: bob)
        let early = try await service.settle(from: bob, to: ann, amount: eur(100), day: try Day("2026-11-01"), by: bob)
        let late = try await service.settle(from: bob, to: ann, amount: eur(200), day: try Day("2026-11-20"), by: ann)
        #expect(try await service.settlements(of: ann, page: PageRequest()) == [late, early])
        #expect(try await service.settlements(of: cy, page: PageRequest()) == [])
        #expect(try await service.currencies(of: ann) == [.eur, .jpy])
        #expect(try await service.currencies(of: cy) == [])
    }

    @Test("a payment taken back: balances as without it, the activity says so; only its payer or payee may")
    func undoSettlement() async throws {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: [ann, bob]), by: ann)
        let before = try await service.balances(of: ann)
        let payment = try await service.settle(from: bob, to: ann, amount: eur(500), day: try Day("2026-11-22"), by: bob)
        #expect(try await service.balances(of: ann) == [])
        await #expect(throws: ExpensesError.notFound(payment.id)) { try await service.undoSettlement(payment.id, by: cy) }
        try await service.undoSettlement(payment.id, by: ann)
        #expect(try await service.balances(of: ann) == before)
        #expect(try await service.settlements(of: bob, page: PageRequest()) == [])
        #expect(try await service.activity(of: bob, limit: 1).map(\.kind) == [.unsettled])
        await #expect(throws: ExpensesError.notFound(payment.id)) { try await service.undoSettlement(payment.id, by: ann) }
    }
}
