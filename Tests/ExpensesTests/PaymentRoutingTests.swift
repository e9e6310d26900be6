import Expenses
import ExpensesLive
import Foundation
import GRDB
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")
private let dee = UserID(rawValue: "d-dee")

@Suite("Payments that clear debts through someone else")
struct PaymentRoutingTests {
    let ledger = Ledger()

    private func legs(_ legs: [PairBalances.Delta]) -> [String] {
        legs.map { "\($0.debtor.rawValue) owes \($0.creditor.rawValue) \($0.amount.minorUnits) less" }
    }

    @Test("what the payer owes the payee first; then through each person the payer owes who owes the payee; the rest the payee owes")
    func order() {
        // Cy pays Ann 50: Cy owes Ann 10 directly, owes Bob 15 who owes Ann 30, owes Dee 5 who owes Ann nothing.
        let routed = PaymentRouting.legs(
            from: cy, to: ann, amount: eur(5_000), payerOwes: [ann: 1_000, bob: 1_500, dee: 500], owedToPayee: [bob: 3_000]
        )
        #expect(legs(routed) == ["a-ann owes c-cy 3500 less", "b-bob owes c-cy 1500 less", "a-ann owes b-bob 1500 less"])
        // Within the direct debt, only the pair moves.
        #expect(legs(PaymentRouting.legs(from: cy, to: ann, amount: eur(600), payerOwes: [ann: 1_000, bob: 1_500], owedToPayee: [bob: 3_000]))
            == ["a-ann owes c-cy 600 less"])
        // Nothing owed anywhere: the payee owes it all.
        #expect(legs(PaymentRouting.legs(from: cy, to: ann, amount: eur(1), payerOwes: [:], owedToPayee: [:])) == ["a-ann owes c-cy 1 less"])
    }

    @Test("through as many people as it takes, each one step between payer and payee, the one it clears most through first; never along a longer chain")
    func severalPeople() {
        // Cy pays Ann 12: Cy owes Bob 5 and Dee 10, who owe Ann as much.
        let routed = PaymentRouting.legs(
            from: cy, to: ann, amount: eur(1_200), payerOwes: [bob: 500, dee: 1_000], owedToPayee: [bob: 500, dee: 1_000]
        )
        #expect(legs(routed) == ["d-dee owes c-cy 1000 less", "a-ann owes d-dee 1000 less", "b-bob owes c-cy 200 less", "a-ann owes b-bob 200 less"])
        // Cy owes Bob, Bob owes Dee, Dee owes Ann: two steps away, so Ann owes Cy the payment.
        #expect(legs(PaymentRouting.legs(from: cy, to: ann, amount: eur(500), payerOwes: [bob: 500], owedToPayee: [dee: 500]))
            == ["a-ann owes c-cy 500 less"])
    }

    @Test("suggested payments bring everyone to a net of zero, even round a loop of debts that none of them sees whole")
    func loopsStay() async throws {
        let service = ledger.service()
        // Ann owes Bob 10.00, Bob owes Cy 10.00, Cy owes Ann 10.00.
        for (payer, debtor) in [(bob, ann), (cy, bob), (ann, cy)] {
            _ = try await service.add(try draft(eur(1000), paidBy: [(payer, 1000)], among: [debtor]), by: payer)
        }
        // Ann sees only her two pairs, not that Bob owes Cy: Cy pays Bob what Ann owes him.
        #expect(try await service.suggestedPayments(for: ann, in: .eur) == [SuggestedPayment(from: cy, to: bob, amount: eur(1000))])
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(-1000)), Balance(other: cy, amount: eur(1000))])
        // Paid directly, a pair is settled and the others stay as they were.
        _ = try await service.settle(from: ann, to: bob, amount: eur(1000), day: try Day("2026-11-23"), by: ann)
        #expect(try await service.balances(of: ann) == [Balance(other: cy, amount: eur(1000))])
        #expect(try await service.balances(of: bob) == [Balance(other: cy, amount: eur(-1000))])
        // Each person following their own suggestions brings everyone to zero.
        for person in [ann, bob, cy] {
            for payment in try await service.suggestedPayments(for: person, in: .eur) {
                _ = try await service.settle(from: payment.from, to: payment.to, amount: payment.amount, day: try Day("2026-11-23"), by: payment.from)
            }
        }
        var nets: [UserID: Int64] = [:]
        for person in [ann, bob, cy] {
            nets[person] = try await service.balances(of: person).reduce(0) { $0 + $1.amount.minorUnits }
        }
        #expect(nets == [ann: 0, bob: 0, cy: 0])
        #expect(try await LiveLedgerVerifier(store: ledger.store).verify().isSound)
    }

    @Test("a payment beyond what the payer owes the payee goes through whom they owe; paying so leaves no balance at all, the recount agrees, and taking one back restores what it moved")
    func paymentsThroughSettleEveryPair() async throws {
        let service = ledger.service()
        // Ann paid for all three, Bob for Cy and himself: Cy owes Ann 10.00 and Bob 3.00, Bob owes Ann 10.00.
        _ = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob, cy]), by: ann)
        _ = try await service.add(try draft(eur(600), paidBy: [(bob, 600)], among: [bob, cy]), by: bob)
        let suggested = try await service.suggestedPayments(for: ann, in: .eur)
        #expect(suggested.map { "\($0.from.rawValue) pays \($0.to.rawValue) \($0.amount)" } == ["b-bob pays a-ann 10.00 EUR", "c-cy pays a-ann 10.00 EUR"])
        // Cy pays Ann 13.00 and Bob 7.00: what Cy owed Bob goes to Ann through Bob.
        var settlements: [Settlement] = []
        for (payer, amount) in [(cy, 1300), (bob, 700)] {
            settlements.append(try await service.settle(from: payer, to: ann, amount: eur(Int64(amount)), day: try Day("2026-11-23"), by: payer))
        }
        for person in [ann, bob, cy] { #expect(try await service.balances(of: person) == []) }
        #expect(try await LiveLedgerVerifier(store: ledger.store).verify().isSound)
        // Cy's 13.00 cleared 10.00 with Ann and 3.00 through Bob, who sees it in his activity.
        let fromCy = try #require(settlements.first { $0.from == cy })
        #expect(fromCy.through == [bob])
        #expect(try await service.activity(of: bob, limit: 2).map(\.summary).contains("Payment, 13.00 EUR"))
        // Read back, it keeps its legs; taken back, every pair is as before it.
        #expect(try await service.settlements(of: cy, page: PageRequest()).first == fromCy)
        try await service.undoSettlement(fromCy.id, by: ann)
        #expect(try await service.balances(of: cy) == [Balance(other: ann, amount: eur(-1000)), Balance(other: bob, amount: eur(-300))])
        #expect(try await service.balances(of: bob) == [Balance(other: ann, amount: eur(-300)), Balance(other: cy, amount: eur(300))])
        #expect(try await LiveLedgerVerifier(store: ledger.store).verify().isSound)
    }

    @Test("a payment's legs that do not move its amount from payer to payee are named by the recount")
    func brokenLegs() async throws {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob, cy]), by: ann)
        _ = try await service.add(try draft(eur(600), paidBy: [(bob, 600)], among: [bob, cy]), by: bob)
        let payment = try await service.settle(from: cy, to: ann, amount: eur(1300), day: try Day("2026-11-23"), by: cy)
        try await ledger.database.writer().write { db in
            try db.execute(sql: "UPDATE settlement_leg SET amount = amount + 1 WHERE settlement_id = ? AND position = 0", arguments: [payment.id.rawValue])
        }
        let check = try await LiveLedgerVerifier(store: ledger.store).verify()
        #expect(!check.isSound)
        #expect(check.brokenExpenses == ["payment \(payment.id.rawValue): its legs do not move 1300 (minor units) from c-cy to a-ann"])
    }
}
