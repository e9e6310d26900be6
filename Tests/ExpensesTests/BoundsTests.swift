import Expenses
import ExpensesData
import ExpensesLive
import Foundation
import GRDB
import PropertyBased
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")
private let limit = LedgerLimits.maximumAmount

/// Amounts at and beyond the ledger's bound: no input and no history of writes may crash, and
/// every refusal says what it refuses.
@Suite("The ledger at its bounds")
struct BoundsTests {
    let ledger = Ledger()

    @Test("an expense of up to 10^15 minor units is recorded; beyond, it is refused with the limit", arguments: [limit + 1, Int64.max])
    func expenseAmount(beyond: Int64) async throws {
        let service = ledger.service()
        _ = try await service.add(try draft(eur(limit), paidBy: [(ann, limit)], among: [ann, bob]), by: ann)
        await #expect(throws: ExpensesError.invalid(.amountTooLarge(.eur))) {
            try await service.add(try draft(eur(beyond), paidBy: [(ann, beyond)], among: [ann, bob]), by: ann)
        }
        #expect(ExpensesError.invalid(.amountTooLarge(.eur)).message == "An amount is at most 10000000000000.00 EUR.")
    }

    @Test("percentages that would overflow their sum are refused, not a crash", arguments: [
        [ann: Int.max, bob: Int.max], [ann: Int.max, bob: 1 - Int.max], [ann: 10_001, bob: -1],
    ])
    func percentagesOverflow(points: [UserID: Int]) {
        #expect(throws: SplitProblem.self) { try Split(amount: eur(1000), participants: [ann, bob], rule: .percentages(points)) }
    }

    @Test("a share past the cap is refused with the cap, not as a negative part")
    func shareCap() {
        #expect(throws: SplitProblem.shareTooLarge) {
            try Split(amount: eur(1000), participants: [ann, bob], rule: .shares([ann: 1_000_001, bob: 1]))
        }
        #expect(SplitProblem.shareTooLarge.message == "A share is a whole number from 0 to 1000000.")
        #expect(throws: SplitProblem.negativePart) { try Split(amount: eur(1000), participants: [ann, bob], rule: .shares([ann: -1, bob: 1])) }
    }

    @Test("a write that would take a pair's balance past 10^15 is refused, and changes nothing")
    func pairBalanceBound() async throws {
        let service = ledger.service()
        let exact = SplitRule.exact([ann: eur(0), bob: eur(limit)])
        _ = try await service.add(try draft(eur(limit), paidBy: [(ann, limit)], among: [ann, bob], rule: exact), by: ann)
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(limit))])
        let before = try ledger.count("activity")
        await #expect(throws: ExpensesError.beyondLimit(.eur)) {
            try await service.add(try draft(eur(1), paidBy: [(ann, 1)], among: [bob]), by: ann)
        }
        await #expect(throws: ExpensesError.beyondLimit(.eur)) {
            try await service.settle(from: ann, to: bob, amount: eur(1), day: try Day("2026-11-22"), by: ann)
        }
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(limit))])
        #expect(try ledger.count("activity") == before)
        #expect(try ledger.count("expense") == 1)
        // Paying it back is fine.
        _ = try await service.settle(from: bob, to: ann, amount: eur(limit), day: try Day("2026-11-22"), by: bob)
        #expect(try await service.balances(of: ann) == [])
    }

    @Test("a settlement past the limit is refused with the limit")
    func settlementBound() async throws {
        let service = ledger.service()
        await #expect(throws: ExpensesError.invalidSettlement("A payment is at most 10000000000000.00 EUR.")) {
            try await service.settle(from: ann, to: bob, amount: eur(limit + 1), day: try Day("2026-11-22"), by: ann)
        }
    }

    @Test("a store holding a balance at Int64's edge (written by an older version) refuses a write that would overflow it, as a refusal")
    func storedEdge() async throws {
        let service = ledger.service()
        try await ledger.database.writer().write { db in
            try db.execute(sql: "INSERT INTO balance VALUES ('a-ann', 'b-bob', 'EUR', ?)", arguments: [Int64.max])
        }
        let error = await #expect(throws: ExpensesError.self) {
            try await service.add(try draft(eur(1000), paidBy: [(ann, 1000)], among: [bob]), by: ann)
        }
        #expect(error == .beyondLimit(.eur))
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(Int64.max))])
    }

    @Test("positions past 64 bits (ten thousand balances at the limit) are summed exactly for suggested payments")
    func positionsBeyond64Bits() async throws {
        try await ledger.database.writer().write { db in
            for index in 0..<10_000 {
                try db.execute(
                    sql: "INSERT INTO balance VALUES ('a-ann', ?, 'EUR', ?)",
                    arguments: [String(format: "p%05d", index), limit]
                )
            }
        }
        let payments = try await ledger.service().suggestedPayments(for: ann, in: .eur)
        var received: Int128 = 0
        for payment in payments where payment.to == ann { received += Int128(payment.amount.minorUnits) }
        #expect(received == Int128(limit) * 10_000)
        #expect(payments.count == 10_000)
    }

    @Test("any history of writes with amounts at and beyond the bound: no crash, only refusals, balances within the bound and equal to a model")
    func randomHistories() async {
        let amounts: [Int64] = [1, 2, limit - 1, limit, limit + 1, Int64.max / 2, Int64.max]
        let people = [ann, bob, cy]
        await propertyCheck(count: 40, input: Gen.int(in: 0...1_000_000)) { seed in
            let ledger = Ledger()
            let service = ledger.service()
            var model = PairBalances()
            var state = UInt64(seed) &+ 1
            func next(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(bound))
            }
            for _ in 0..<30 {
                let amount = eur(amounts[next(amounts.count)])
                let index = next(3)
                let payer = people[index]
                let other = people[(index + 1 + next(2)) % 3]
                do {
                    if next(3) == 0 {
                        let settlement = try await service.settle(from: payer, to: other, amount: amount, day: try Day("2026-11-22"), by: payer)
                        try model.apply(settlement.balanceDeltas)
                    } else {
                        let added = try await service.add(try draft(amount, paidBy: [(payer, amount.minorUnits)], among: [payer, other]), by: payer)
                        try model.apply(added.balanceDeltas)
                    }
                } catch let error as ExpensesError {
                    if case .storeUnavailable = error { Issue.record("a refusal reached the user as \(error.message)") }
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
            for person in people {
                let maintained = (try? await service.balances(of: person)) ?? []
                #expect(maintained == model.balances(of: person).map { Balance(other: $0.other, amount: $0.amount) })
                #expect(maintained.allSatisfy { $0.amount.minorUnits.magnitude <= limit.magnitude })
            }
        }
    }
}
