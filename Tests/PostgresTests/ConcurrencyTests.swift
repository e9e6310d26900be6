import DataChangesPostgres
import Expenses
import ExpensesDataPostgres
import ExpensesLive
import PostgresStore
import Primitives
import Testing

private let ann = UserID(rawValue: "a-ann")
private let bob = UserID(rawValue: "b-bob")

@Suite("PostgreSQL under concurrent writes", TestDatabase.required)
struct ConcurrencyTests {
    @Test("50 expenses added at once between the same two people all land, and the balance is exactly their sum")
    func samePair() async throws {
        // As many connections as a server has by default: up to 16 writers collide on one row.
        try await PostgresLedger.run(maximumConnections: 16) { ledger in
            let service = ledger.service
            let errors = await withTaskGroup(of: (any Error)?.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        do {
                            let units = Int64(100 + index)
                            _ = try await service.add(try draft(eur(units), paidBy: [(ann, units)], among: [bob], description: "Round \(index)"), by: ann)
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                return await group.reduce(into: [String]()) { errors, error in if let error { errors.append("\(error)") } }
            }
            #expect(errors == [])
            let sum = (0..<50).reduce(Int64(0)) { $0 + 100 + Int64($1) }
            #expect(try await service.balances(of: bob) == [Balance(other: ann, amount: eur(-sum))])
            #expect(try await service.expenses(of: ann, page: PageRequest(limit: 100)).count == 50)
            #expect(try await service.activity(of: bob, page: PageRequest(limit: 100)).count == 50)
            let check = try await LiveLedgerVerifier(store: ledger.store).verify()
            #expect(check.isSound)
            #expect(check.expenses == 50)
        }
    }

    @Test("deleting and restoring one expense from many places at once: it happens once, the others are told it is not there")
    func deleteOnce() async throws {
        try await PostgresLedger.run(maximumConnections: 16) { ledger in
            let service = ledger.service
            let dinner = try await service.add(try draft(eur(900), paidBy: [(ann, 900)], among: [ann, bob]), by: ann)
            for round in 0..<2 {
                let outcomes = await withTaskGroup(of: String.self) { group in
                    for index in 0..<8 {
                        group.addTask {
                            let user = index.isMultiple(of: 2) ? ann : bob
                            do {
                                if round == 0 { try await service.delete(dinner, by: user) } else { _ = try await service.restore(dinner.id, by: user) }
                                return "done"
                            } catch {
                                return "\(error)"
                            }
                        }
                    }
                    return await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(outcomes.sorted() == ["done"] + Array(repeating: "notFound(\(dinner.id))", count: 7))
            }
            #expect(try await service.balances(of: bob) == [Balance(other: ann, amount: eur(-450))])
            #expect(try await LiveLedgerVerifier(store: ledger.store).verify().isSound)
        }
    }

    @Test("payments and expenses among three people at once, in both directions, keep every balance equal to its recount")
    func mixed() async throws {
        try await PostgresLedger.run(maximumConnections: 16) { ledger in
            let service = ledger.service
            let cy = UserID(rawValue: "c-cy")
            let day = try Day("2026-11-23")
            let errors = await withTaskGroup(of: String?.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        let people = [ann, bob, cy]
                        let payer = people[index % 3], other = people[(index + 1) % 3]
                        do {
                            if index.isMultiple(of: 4) {
                                _ = try await service.settle(from: other, to: payer, amount: eur(50), day: day, by: other)
                            } else {
                                _ = try await service.add(try draft(eur(300), paidBy: [(payer, 300)], among: people), by: payer)
                            }
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { if let error = $1 { $0.append(error) } }
            }
            #expect(errors == [])
            let check = try await LiveLedgerVerifier(store: ledger.store).verify()
            #expect(check.isSound)
            #expect(check.expenses + check.settlements == 30)
            // Everyone's balances sum to zero.
            var total: Int64 = 0
            for person in [ann, bob, cy] { total += try await service.balances(of: person).reduce(0) { $0 + $1.amount.minorUnits } }
            #expect(total == 0)
        }
    }
}

@Suite("Recurring expenses on PostgreSQL, two servers at once", TestDatabase.required)
struct SeriesOnTwoServersTests {
    @Test("two servers on one database creating a series' due occurrences at once make each exactly once")
    func exactlyOnce() async throws {
        try await TestDatabase.withFresh { url in
            // Two servers: each its own pool and its own service, on the one database.
            let databases = (0..<2).map { _ in ServerDatabase(url: url, maximumConnections: 8, migrations: PostgresChangeLog.migrations + ExpensesPostgresSchema.migrations) }
            let services = databases.map { LiveExpensesService(store: PostgresExpensesStore(database: $0), people: Everyone()) }
            do {
                let rent = try await services[0].add(
                    try draft(eur(90_000), paidBy: [(ann, 90_000)], among: [ann, bob], description: "Rent", day: "2026-01-31"), by: ann
                )
                _ = try await services[0].repeatExpense(rent.id, every: .monthly(day: 31), until: nil, by: ann)
                let through = try Day("2027-01-31")
                let made = await withTaskGroup(of: [Expense].self) { group in
                    for index in 0..<8 {
                        group.addTask { (try? await services[index % 2].createDueOccurrences(through: through, for: index.isMultiple(of: 3) ? bob : ann)) ?? [] }
                    }
                    var all: [Expense] = []
                    for await batch in group { all += batch }
                    return all
                }
                #expect(made.count == 12)
                #expect(Set(made.map(\.day)).count == 12)
                #expect(try await services[1].expenses(of: bob, page: PageRequest(limit: 100)).count == 13)
                #expect(try await services[1].balances(of: ann) == [Balance(other: bob, amount: eur(13 * 45_000))])
                #expect(try await LiveLedgerVerifier(store: PostgresExpensesStore(database: databases[0])).verify().isSound)
            } catch {
                for database in databases { await database.shutdown() }
                throw error
            }
            for database in databases { await database.shutdown() }
        }
    }
}
