import Expenses
import ExpensesLive
import Foundation
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")
private let cy = UserID(rawValue: "c-cy")

@Suite("Recurring expenses: occurrences made when due, once")
struct SeriesTests {
    let ledger = Ledger()

    private func day(_ text: String) throws -> Day { try Day(text) }

    /// Ann pays the rent, 900.00 EUR shared with Bob, on 31 January 2026, and repeats it monthly.
    private func rent(_ service: LiveExpensesService) async throws -> (Expense, ExpenseSeries) {
        let first = try await service.add(try draft(eur(90_000), paidBy: [(ann, 90_000)], among: [ann, bob], description: "Rent", day: "2026-01-31"), by: ann)
        let series = try await service.repeatExpense(first.id, every: .monthly(day: 31), until: nil, by: ann)
        return (first, series)
    }

    @Test("a monthly rent on the 31st is made on the last day of February and of each month, once however often one looks")
    func monthly() async throws {
        let service = ledger.service()
        let (first, series) = try await rent(service)
        #expect(series.rhythm == "every month on its last day")
        let made = try await service.createDueOccurrences(through: try day("2026-05-15"), for: bob)
        #expect(made.map(\.day.description) == ["2026-02-28", "2026-03-31", "2026-04-30"])
        #expect(made.allSatisfy { $0.description == "Rent" && $0.amount == eur(90_000) && $0.id != first.id })
        #expect(try await service.createDueOccurrences(through: try day("2026-05-15"), for: ann).isEmpty)
        // Four rents: Bob owes Ann half of each.
        #expect(try await service.balances(of: ann) == [Balance(other: bob, amount: eur(4 * 45_000))])
        // Each is an ordinary expense, in the series, added in Ann's name.
        #expect(try await service.series(containing: made[0].id, for: bob) == series)
        #expect(try await service.series(containing: made[0].id, for: cy) == nil)
        #expect(try await service.activity(of: bob, limit: 1).first?.actor == ann)
        #expect(try await service.series(of: bob, after: try day("2026-05-15")).map(\.next) == [try day("2026-05-31")])
        #expect(try await LiveLedgerVerifier(store: ledger.store).verify().isSound)
    }

    @Test("two services on one store creating at once make each occurrence once")
    func concurrently() async throws {
        let one = ledger.service()
        _ = try await rent(one)
        let other = LiveExpensesService(store: ledger.store, people: TestPeople(), random: SeededRandomSource(seed: 77))
        let through = try day("2027-01-31")
        async let first = one.createDueOccurrences(through: through, for: ann)
        async let second = other.createDueOccurrences(through: through, for: bob)
        let made = try await first + second
        #expect(made.count == 12)
        #expect(Set(made.map(\.day)).count == 12)
        #expect(try ledger.count("expense") == 13)
        #expect(try await one.balances(of: ann) == [Balance(other: bob, amount: eur(13 * 45_000))])
    }

    @Test("stopping ends it after a day; editing the series changes the later occurrences only")
    func stopAndEdit() async throws {
        let service = ledger.service()
        let (first, series) = try await rent(service)
        _ = try await service.createDueOccurrences(through: try day("2026-02-28"), for: ann)
        var raised = first.draft
        raised.amount = eur(100_000)
        raised.payers = [Payer(user: ann, amount: eur(100_000))]
        let edited = try await service.editSeries(series.id, to: raised, by: bob)
        #expect(edited.version == 2 && edited.template.amount == eur(100_000) && edited.template.day == first.day)
        let march = try await service.createDueOccurrences(through: try day("2026-03-31"), for: ann)
        #expect(march.map(\.amount) == [eur(100_000)])
        let stopped = try await service.stopSeries(series.id, after: try day("2026-04-15"), by: ann)
        #expect(stopped.recurrence.end == .on(try day("2026-04-15")))
        #expect(try await service.createDueOccurrences(through: try day("2026-12-31"), for: ann).isEmpty)
        #expect(try await service.series(of: ann, after: try day("2026-04-15")).map(\.next) == [nil])
        // Someone not in it cannot touch it; a rule out of range is refused.
        await #expect(throws: ExpensesError.seriesNotFound(series.id)) { _ = try await service.stopSeries(series.id, after: try day("2026-05-01"), by: cy) }
        let other = try await service.add(try draft(eur(500), paidBy: [(ann, 500)], among: [ann, bob], description: "Gym"), by: ann)
        await #expect(throws: ExpensesError.invalidRepeat(.interval)) { _ = try await service.repeatExpense(other.id, every: .days(0), until: nil, by: ann) }
        await #expect(throws: ExpensesError.notFound(other.id)) { _ = try await service.repeatExpense(other.id, every: .yearly, until: nil, by: cy) }
    }

    @Test("a series ending after a count makes that many in all, the first included")
    func count() async throws {
        let service = ledger.service()
        let gym = try await service.add(try draft(eur(3000), paidBy: [(ann, 3000)], among: [ann, bob], description: "Gym", day: "2026-01-05"), by: ann)
        _ = try await service.repeatExpense(gym.id, every: .weeks(1), until: .after(count: 3), by: ann)
        let made = try await service.createDueOccurrences(through: try day("2026-12-31"), for: ann)
        #expect(made.map(\.day.description) == ["2026-01-12", "2026-01-19"])
    }
}
