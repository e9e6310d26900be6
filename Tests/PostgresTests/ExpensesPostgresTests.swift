import Expenses
import ExpensesData
import ExpensesDataPostgres
import ExpensesLive
import PostgresStore
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")

@Suite("Expenses on PostgreSQL", TestDatabase.required)
struct ExpensesPostgresTests {
    @Test("adding, editing, deleting and restoring move the balances and write the activity; people are checked")
    func lifecycle() async throws {
        try await PostgresLedger.run { ledger in
            let service = ledger.service
            let dinner = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob, cy], note: "At Rosa's"), by: ann)
            #expect(try await service.expense(dinner.id, for: cy) == dinner)
            #expect(try await service.expense(dinner.id, for: UserID(rawValue: "d-dee")) == nil)
            #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(1000)), Balance(other: cy, amount: eur(1000))])
            await #expect(throws: ExpensesError.unknownPeople([UserID(rawValue: "unknown-1")])) {
                try await service.add(try draft(eur(100), paidBy: [(ann, 100)], among: [ann, UserID(rawValue: "unknown-1")]), by: ann)
            }
            await #expect(throws: ExpensesError.notInExpense) { try await service.add(try draft(eur(100), paidBy: [(ann, 100)], among: [ann, bob]), by: cy) }
            let edited = try await service.edit(dinner, to: try draft(eur(1000), paidBy: [(ann, 1000)], among: [ann, bob], rule: .shares([ann: 1, bob: 3])), by: bob)
            #expect(edited.version == 2)
            #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(750))])
            await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.delete(edited, by: cy) }
            await #expect(throws: ExpensesError.changedSince(dinner.id, version: 2)) { try await service.delete(dinner, by: ann) }
            try await service.delete(edited, by: ann)
            #expect(try await service.balances(of: ann) == [])
            #expect(try await service.deletedExpenses(of: bob, page: PageRequest()).map(\.id) == [dinner.id])
            await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.restore(dinner.id, by: cy) }
            let restored = try await service.restore(dinner.id, by: bob)
            #expect(restored.amount == eur(1000))
            #expect(restored.version == 2, "a restored expense is the version it was deleted at")
            #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(750))])
            await #expect(throws: ExpensesError.notFound(dinner.id)) { try await service.restore(dinner.id, by: bob) }
            #expect(try await service.activity(of: ann, limit: 10).map(\.kind) == [.restored, .deleted, .edited, .added])
            #expect(try await service.activity(of: cy, limit: 10).map(\.kind) == [.edited, .added])
            #expect(try await ledger.verifier().isSound)
        }
    }

    @Test("settling up, routed through someone, and taking it back; only the payer or payee may")
    func settling() async throws {
        try await PostgresLedger.run { ledger in
            let service = ledger.service
            // Cy owes Ann 10.00; Ann owes Bob 10.00.
            _ = try await service.add(try draft(eur(2000), paidBy: [(ann, 2000)], among: [ann, cy]), by: ann)
            _ = try await service.add(try draft(eur(2000), paidBy: [(bob, 2000)], among: [ann, bob]), by: bob)
            let day = try Day("2026-11-23")
            // Cy pays Bob: it clears what Cy owes Ann and what Ann owes Bob.
            let payment = try await service.settle(from: cy, to: bob, amount: eur(1000), day: day, by: cy)
            #expect(payment.legs.count == 2)
            #expect(try await service.balances(of: ann) == [])
            #expect(try await service.settlements(of: ann, page: PageRequest()) == [])
            #expect(try await service.settlements(of: bob, page: PageRequest()) == [payment])
            #expect(try await service.activity(of: ann, limit: 1).map(\.kind) == [.settled])
            await #expect(throws: ExpensesError.self) { try await service.undoSettlement(payment.id, by: ann) }
            try await service.undoSettlement(payment.id, by: bob)
            #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(-1000)), Balance(other: cy, amount: eur(1000))])
            await #expect(throws: ExpensesError.invalidSettlement("Someone cannot pay themselves.")) {
                try await service.settle(from: ann, to: ann, amount: eur(1), day: day, by: ann)
            }
            #expect(try await ledger.verifier().isSound)
        }
    }

    @Test("a conversion is kept whole, read back with its rate, recounted and taken back")
    func converting() async throws {
        try await PostgresLedger.run { ledger in
            let service = ledger.service
            // Bob paid 45000 JPY for both: Ann owes him 22500 JPY.
            let sushi = Money(minorUnits: 45_000, currency: .jpy)
            _ = try await service.add(try draft(sushi, paidBy: [(bob, 45_000)], among: [ann, bob]), by: bob)
            let published = try #require(PublishedRate("162.51"))
            let rate = try #require(ExchangeRate(base: .eur, quote: .jpy, rate: published))
            let day = try Day("2026-11-28")
            let conversion = try await service.convert(
                Money(minorUnits: -22_500, currency: .jpy), with: bob, at: rate, source: "ECB 2026-11-24", day: day, in: nil, by: ann
            )
            #expect(conversion.conversion == Conversion(amount: eur(13_845), rate: rate, source: "ECB 2026-11-24"))
            #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(-13_845))])
            #expect(try await service.settlements(of: bob, page: PageRequest()) == [conversion])
            #expect(try await ledger.verifier().isSound)
            try await service.undoSettlement(conversion.id, by: ann)
            #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: Money(minorUnits: -22_500, currency: .jpy))])
            #expect(try await ledger.verifier().isSound)
        }
    }

    @Test("comments: a thread in the order written, for people in the expense only; the author deletes theirs")
    func comments() async throws {
        try await PostgresLedger.run { ledger in
            let service = ledger.service
            let dinner = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob]), by: ann)
            let question = try await service.comment("Was it 30 or 36?", on: dinner.id, by: bob)
            #expect(try await service.comments(on: dinner.id, for: ann) == [question])
            await #expect(throws: ExpensesError.notFound(dinner.id)) { _ = try await service.comments(on: dinner.id, for: cy) }
            await #expect(throws: ExpensesError.invalidComment(.tooLong)) {
                _ = try await service.comment(String(repeating: "ü", count: 1_001), on: dinner.id, by: ann)
            }
            await #expect(throws: ExpensesError.notYourComment) { try await service.deleteComment(question.id, on: dinner.id, by: ann) }
            #expect(try await service.activity(of: ann, limit: 1).map(\.kind) == [.commented])
            try await service.deleteComment(question.id, on: dinner.id, by: bob)
            #expect(try await service.comments(on: dinner.id, for: bob).isEmpty)
            await #expect(throws: ExpensesError.commentNotFound(question.id)) { try await service.deleteComment(question.id, on: dinner.id, by: bob) }
        }
    }

    @Test("a balance stays within 10^15 minor units: a write beyond is refused and changes nothing")
    func bounds() async throws {
        try await PostgresLedger.run { ledger in
            let service = ledger.service
            let most = LedgerLimits.maximumAmount
            _ = try await service.add(try draft(eur(most), paidBy: [(ann, most)], among: [bob]), by: ann)
            await #expect(throws: ExpensesError.beyondLimit(.eur)) {
                try await service.add(try draft(eur(1), paidBy: [(ann, 1)], among: [bob]), by: ann)
            }
            #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(most))])
            #expect(try await service.activity(of: ann, limit: 5).count == 1)
            // The store itself refuses a sum past 64 bits.
            await #expect(throws: ExpensesDataError.outOfRange) {
                try await ledger.store.write { try $0.addToBalance(low: "a-ann", high: "b-bob", currency: "EUR", amount: .max) }
            }
            #expect(try await ledger.store.write { try $0.addToBalance(low: "a-ann", high: "b-bob", currency: "EUR", amount: -most) } == 0)
            #expect(try await service.balances(of: ann) == [])
        }
    }

    @Test("lists come a page at a time, newest first, ties broken by id; activity likewise")
    func paging() async throws {
        try await PostgresLedger.run { ledger in
            let service = ledger.service
            var added: [Expense] = []
            for index in 0..<23 {
                added.append(try await service.add(try draft(
                    eur(100 + Int64(index)), paidBy: [(ann, 100 + Int64(index))], among: [ann, index.isMultiple(of: 2) ? bob : cy],
                    description: "Item \(index)", day: "2026-11-\(10 + index % 5)"
                ), by: ann))
            }
            // The clock stands still: the same day and time, so the id decides.
            let expected = added.sorted { ($0.day.description, $1.id.rawValue) > ($1.day.description, $0.id.rawValue) }.map(\.id)
            var pages: [ExpenseID] = []
            for offset in stride(from: 0, to: 30, by: 10) {
                pages += try await service.expenses(of: ann, page: PageRequest(offset: offset, limit: 10)).map(\.id)
            }
            #expect(pages == expected)
            let shared = try await service.expenses(of: ann, sharedWith: bob, page: PageRequest(offset: 2, limit: 3)).map(\.id)
            #expect(shared == Array(expected.filter { id in added.first { $0.id == id }?.split.parts.contains { $0.user == bob } == true }[2..<5]))
            let activity = try await service.activity(of: ann, page: PageRequest(offset: 20, limit: 10))
            #expect(activity.map(\.summary) == ["Item 2, 1.02 EUR", "Item 1, 1.01 EUR", "Item 0, 1.00 EUR"])
            #expect(try await service.recentPeople(of: ann).count == 2)
        }
    }

    @Test("the spending report: the user's parts by category, largest first, and by month, each currency apart")
    func spending() async throws {
        try await PostgresLedger.run { ledger in
            let service = ledger.service
            _ = try await service.add(try draft(eur(3000), paidBy: [(bob, 3000)], among: [ann, bob], day: "2026-10-31"), by: bob)
            _ = try await service.add(try draft(eur(5000), paidBy: [(ann, 5000)], among: [ann, bob], day: "2026-11-01", category: .travel), by: ann)
            _ = try await service.add(try draft(Money(minorUnits: 900, currency: .jpy), paidBy: [(ann, 900)], among: [ann], day: "2026-11-02"), by: ann)
            let report = try await service.spending(of: ann)
            #expect(report.byCategory.map { "\($0.label) \($0.amount)" } == ["travel 25.00 EUR", "food 15.00 EUR", "food 900 JPY"])
            #expect(report.byMonth.map { "\($0.label) \($0.amount)" } == ["2026-10 15.00 EUR", "2026-11 25.00 EUR", "2026-11 900 JPY"])
            let november = try await service.spending(of: ann, from: try Day("2026-11-01"), through: try Day("2026-11-30"))
            #expect(november.byMonth.map { "\($0.label) \($0.amount)" } == ["2026-11 25.00 EUR", "2026-11 900 JPY"])
        }
    }

    @Test("the ledger recount reads every row and finds a balance changed behind the ledger's back")
    func recount() async throws {
        try await PostgresLedger.run { ledger in
            for index in 0..<30 {
                _ = try await ledger.service.add(try draft(eur(999), paidBy: [(ann, 999)], among: [ann, bob, cy], description: "Lunch \(index)"), by: ann)
            }
            _ = try await ledger.service.settle(from: bob, to: ann, amount: eur(500), day: try Day("2026-11-23"), by: bob)
            let check = try await ledger.verifier()
            #expect(check.isSound)
            #expect((check.expenses, check.settlements, check.balances) == (30, 1, 2))
            _ = try await ledger.database.write { try $0.execute("UPDATE balance SET amount = amount + 1 WHERE user_high = 'c-cy'") }
            let broken = try await ledger.verifier()
            #expect(broken.differences.map { "\($0.low) \($0.high) \($0.kept) \($0.recounted)" } == ["a-ann c-cy 9991 9990"])
        }
    }

    @Test("the store refuses what its checks refuse: an empty description, a malformed day, a person twice")
    func storeRefusals() async throws {
        try await PostgresLedger.run { ledger in
            let good = StoredExpense(
                id: "e1", description: "Tea", amount: 100, currency: "EUR", day: "2026-11-22", category: "food", splitMode: "equal",
                createdBy: "a-ann", createdAt: 0, payers: [.init(user: "a-ann", amount: 100)], parts: [.init(user: "a-ann", amount: 100, ruleValue: nil)]
            )
            let refused: [StoredExpense] = [
                { var e = good; e.description = "   "; return e }(),
                { var e = good; e.day = "22/11/2026"; return e }(),
                { var e = good; e.amount = 0; return e }(),
                { var e = good; e.payers = [.init(user: "a-ann", amount: 50), .init(user: "a-ann", amount: 50)]; return e }(),
            ]
            for broken in refused {
                await #expect(throws: ExpensesDataError.self) { try await ledger.store.write { try $0.insert(broken) } }
            }
            try await ledger.store.write { try $0.insert(good) }
            #expect(try await ledger.store.read { try $0.expense(id: "e1") } == good)
        }
    }
}

extension PostgresLedger {
    func verifier() async throws -> LedgerCheck {
        try await LiveLedgerVerifier(store: store).verify()
    }
}
