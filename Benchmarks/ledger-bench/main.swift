import Expenses
import ExpensesData
import ExpensesDataSQLite
import ExpensesLive
import Foundation
import GRDB
import LocalStore
import Primitives

// The ledger on the SQLite store (Scripts/bench): adding expenses through the service, reading
// one user's balances among a million expenses beside a naive recomputation, recounting that
// million (flows verify), and simplifying debts among a thousand people. Prints figures; asserts nothing.

let people = (0..<200).map { UserID(rawValue: String(format: "user-%04d", $0)) }
let me = people[0]

/// Everyone the bench names may be named.
struct BenchPeople: PeopleDirectory {
    func strangers(among people: Set<UserID>, to user: UserID) async throws -> Set<UserID> { [] }
    func blocked(among people: Set<UserID>, for user: UserID) async throws -> Set<UserID> { [] }
}

/// Adds `count` expenses one by one, off the main actor (as a flow's task calls the service), so
/// the figure is the service's and the store's, not hops to the main thread and back.
nonisolated func addAll(_ count: Int, through service: LiveExpensesService) async throws -> Duration {
    var drafts = Expenses()
    let list = (0..<count).compactMap { _ in drafts.next() }
    let clock = ContinuousClock()
    return try await clock.measure {
        for draft in list {
            _ = try await service.add(draft, by: draft.payers[0].user)
        }
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// A deterministic stream of expenses among `people`, most of them shared with `me` now and then.
struct Expenses: Sequence, IteratorProtocol {
    var state: UInt64 = 42
    mutating func number(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    mutating func next() -> ExpenseDraft? {
        let count = 1 + number(4)
        var participants: [UserID] = []
        while participants.count < count {
            let person = people[number(people.count)]
            if !participants.contains(person) { participants.append(person) }
        }
        let amount = Money(minorUnits: Int64(100 + number(20_000)), currency: number(5) == 0 ? .usd : .eur)
        guard let day = try? Day(year: 2026, month: 1 + number(12), day: 1 + number(28)) else { return nil }
        return ExpenseDraft(
            description: "Expense", amount: amount, day: day, category: .food,
            payers: [Payer(user: participants[0], amount: amount)], participants: participants, rule: .equal
        )
    }
}

nonisolated func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let added = Int(environment["LEDGER_ADDS"] ?? "") ?? 100_000
    let stored = Int(environment["LEDGER_EXPENSES"] ?? "") ?? 1_000_000
    let clock = ContinuousClock()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }

    // 1. Adding through the service: one transaction per expense, as the app writes them.
    do {
        let database = LocalDatabase(.file(folder.appendingPathComponent("adds.sqlite")), migrations: ExpensesSchema.registerMigrations(in:))
        let service = LiveExpensesService(store: SQLiteExpensesStore(database: database), people: BenchPeople(), random: SeededRandomSource(seed: 1))
        let elapsed = try await addAll(added, through: service)
        print(String(format: "Add %d expenses through the service (one transaction each): %.1f s, %.0f per second (target: 10,000)",
                     added, seconds(elapsed), Double(added) / seconds(elapsed)))
    }

    // 2. A million expenses stored (written in bulk, with their balance changes), then one user's
    //    balances read from the maintained table, beside a naive recomputation over every expense.
    let database = LocalDatabase(.file(folder.appendingPathComponent("million.sqlite")), migrations: ExpensesSchema.registerMigrations(in:))
    let store = SQLiteExpensesStore(database: database)
    var drafts = Expenses()
    let loading = try await clock.measure {
        var written = 0
        while written < stored {
            let batch = (0..<min(20_000, stored - written)).compactMap { index -> (StoredExpense, [PairBalances.Delta])? in
                guard let draft = drafts.next(), let expense = try? Expense(id: ExpenseID(rawValue: "e\(written + index)"), draft: draft) else { return nil }
                let record = StoredExpense(
                    id: expense.id.rawValue, description: expense.description, amount: expense.amount.minorUnits,
                    currency: expense.amount.currency.code, day: expense.day.description, category: expense.category.rawValue,
                    splitMode: SplitMode.equal.rawValue, createdBy: expense.payers[0].user.rawValue, createdAt: 0,
                    payers: expense.payers.map { .init(user: $0.user.rawValue, amount: $0.amount.minorUnits) },
                    parts: expense.split.parts.map { .init(user: $0.user.rawValue, amount: $0.amount.minorUnits, ruleValue: nil) }
                )
                return (record, expense.balanceDeltas)
            }
            try await store.write { db in
                for (record, deltas) in batch {
                    try db.insert(record)
                    for delta in deltas {
                        let (key, units) = delta.keyed
                        try db.addToBalance(low: key.low.rawValue, high: key.high.rawValue, currency: key.currency.code, amount: units)
                    }
                }
            }
            written += batch.count
        }
    }
    print(String(format: "Store %d expenses in bulk: %.1f s", stored, seconds(loading)))

    let service = LiveExpensesService(store: store, people: BenchPeople())
    var maintained: [Balance] = []
    let readTimes = try await (0..<20).asyncMap { _ in
        try await clock.measure { maintained = try await service.balances(of: me) }
    }
    let read = readTimes.map(seconds).sorted()[readTimes.count / 2]

    var naive = PairBalances()
    let recompute = try await clock.measure {
        naive = try await database.writer().read { db in
            var balances = PairBalances()
            // Every person of every expense: who paid what, and the participants in their order.
            var payers: [String: [Payer]] = [:]
            var participants: [String: [(position: Int, user: UserID)]] = [:]
            let people = try Row.fetchCursor(db, sql: "SELECT expense_id, user_id, paid, part_position FROM expense_person")
            while let row = try people.next() {
                let id: String = row["expense_id"], user = UserID(rawValue: row["user_id"])
                if let paid: Int64 = row["paid"] { payers[id, default: []].append(Payer(user: user, amount: Money(minorUnits: paid, currency: .eur))) }
                if let position: Int = row["part_position"] { participants[id, default: []].append((position, user)) }
            }
            let expenses = try Row.fetchCursor(db, sql: "SELECT id, amount, currency FROM expense")
            while let row = try expenses.next() {
                let id: String = row["id"]
                guard let currency = Currency(code: row["currency"]), let day = try? Day("2026-01-01") else { continue }
                let users = (participants[id] ?? []).sorted { $0.position < $1.position }.map(\.user)
                let paid = (payers[id] ?? []).map { Payer(user: $0.user, amount: Money(minorUnits: $0.amount.minorUnits, currency: currency)) }
                let draft = ExpenseDraft(description: "x", amount: Money(minorUnits: row["amount"], currency: currency), day: day,
                                         category: .food, payers: paid, participants: users, rule: .equal)
                if let expense = try? Expense(id: ExpenseID(rawValue: id), draft: draft) { try balances.apply(expense.balanceDeltas) }
            }
            return balances
        }
    }
    let recomputed = naive.balances(of: me).map { Balance(other: $0.other, amount: $0.amount) }
    print(String(format: "Read one user's balances among %d expenses: %.3f ms (median of 20); naive recomputation over all expenses: %.2f s; ratio %.0f×; same result: %@",
                 stored, read * 1000, seconds(recompute), seconds(recompute) / read, recomputed == maintained ? "yes" : "NO"))

    // 3. `flows verify`: every balance recounted from every expense, a row at a time, and
    //    compared with the maintained table (the target: under 30 s for a million expenses).
    var check = LedgerCheck()
    let verifying = try await clock.measure { check = try await LiveLedgerVerifier(store: store).verify() }
    print(String(format: "flows verify over %d expenses and %d balances: %.2f s, %@",
                 check.expenses, check.balances, seconds(verifying), check.isSound ? "sound" : "DIFFERS"))

    // 4. Simplifying debts among a thousand people.
    var state: UInt64 = 7
    var net: [UserID: Int128] = [:]
    for index in 1..<1000 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        net[UserID(rawValue: "p\(index)")] = Int128(state >> 40) - 8_000_000
    }
    net[UserID(rawValue: "p0")] = -net.values.reduce(0, +)
    var payments: [SuggestedPayment] = []
    let simplifying = clock.measure { payments = DebtSimplifier.payments(for: net, currency: .eur) }
    print(String(format: "Simplify debts among 1000 people: %.2f ms, %d payments", seconds(simplifying) * 1000, payments.count))
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

// The main thread waits on a semaphore instead of running an async main: an async main parks the
// main thread in dispatch_main, which valgrind cannot run (Scripts/bench --instructions).
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await run()
    } catch {
        print("ledger-bench: \(error)")
        exit(1)
    }
    finished.signal()
}
finished.wait()
