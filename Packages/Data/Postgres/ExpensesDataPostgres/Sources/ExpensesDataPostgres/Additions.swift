import ExpensesData
import PostgresStore

/// New expenses that arrive while others are being written wait, then go together
/// (``Gathering``): one transaction and one statement for all of them, instead of a transaction
/// of six round trips each.
///
/// Each addition still lands or is refused as if it were alone: a batch that fails for any
/// reason (one addition past a limit, say) is written again one addition at a time, in the
/// order they came, so the others land and the one at fault gets its own error.
enum Additions {
    /// Writes a batch in one transaction, all of it or none.
    typealias Write = @Sendable ([ExpenseAddition]) async throws -> Void

    /// - Parameter writers: how many batches are written at once (each on its own connection).
    static func gathering(writers: Int, write: @escaping Write) -> Gathering<ExpenseAddition, Void> {
        let limit = Gathering<ExpenseAddition, Void>.Limit(
            count: AdditionStatement.largestBatch, budget: AdditionStatement.parameterBudget, cost: AdditionStatement.parameterCount
        )
        return Gathering(servers: writers, limit: limit) { batch in
            do {
                try await write(batch)
                return batch.map { _ in .success(()) }
            } catch {
                guard batch.count > 1 else { return [.failure(error)] }
                var answers: [Result<Void, any Error>] = []
                for addition in batch {
                    do {
                        try await write([addition])
                        answers.append(.success(()))
                    } catch {
                        answers.append(.failure(error))
                    }
                }
                return answers
            }
        }
    }
}

/// The statement that writes a batch of additions, and the checks on what it returns.
enum AdditionStatement {
    /// The most additions in one statement.
    static let largestBatch = 64
    /// The most parameters a batch's statement binds (PostgreSQL takes up to 65,535), unless a
    /// single addition needs more.
    static let parameterBudget = 20_000

    /// How many parameters `addition` binds.
    static func parameterCount(_ addition: ExpenseAddition) -> Int {
        let people = Set(addition.expense.payers.map(\.user) + addition.expense.parts.map(\.user)).count
        return 12 + 11 * people + 7 + 2 * addition.activity.people.count + 4 * addition.balanceChanges.count
    }
}

/// A pair's balance in one currency, as the balance table keys it.
private struct BalanceKey: Hashable {
    let low: String
    let high: String
    let currency: String
}

extension Transaction {
    /// Writes `additions` with one statement: every expense and its people, every activity line
    /// and its people, and each pair's balance moved once by the sum of its changes (a pair
    /// that comes to zero is then removed). Every change is then checked against its
    /// addition's limit in the order they came, from the balance the pair had before, as if
    /// each addition had been written alone in turn: one past its limit throws
    /// ``ExpensesDataError/outOfRange``, and the caller rolls the lot back.
    func add(all additions: [ExpenseAddition]) throws {
        var parameters = Parameters()
        var expenseRows: [String] = []
        var personRows: [String] = []
        var lineRows: [String] = []
        var linePeople: [String] = []
        var changesByPair: [BalanceKey: [(amount: Int64, limit: Int64)]] = [:]
        var pairs: [BalanceKey] = []
        for addition in additions {
            let expense = addition.expense
            expenseRows.append(parameters.row(ExpenseRows.expense(expense)))
            personRows += try ExpenseRows.people(of: expense).map { parameters.row($0) }
            let line = addition.activity
            lineRows.append(parameters.row([line.id, line.at, line.actor, line.kind, line.subject, line.summary, line.snapshot]))
            for person in line.people { linePeople.append(parameters.row([line.id, person])) }
            for change in addition.balanceChanges {
                let pair = BalanceKey(low: change.low, high: change.high, currency: change.currency)
                if changesByPair[pair] == nil { pairs.append(pair) }
                changesByPair[pair, default: []].append((change.amount, addition.balanceLimit))
            }
        }
        // Every batch moves its pairs in one order, so two batches written at once that share
        // pairs wait for one another rather than deadlock (which PostgreSQL finds only after a
        // second). Each pair's changes keep their order, which is what the checks below need.
        pairs.sort { ($0.low, $0.high, $0.currency) < ($1.low, $1.high, $1.currency) }
        var totals: [BalanceKey: Int64] = [:]
        var moving: [String] = []
        for pair in pairs {
            var total: Int64 = 0
            for change in changesByPair[pair] ?? [] {
                let (sum, overflow) = total.addingReportingOverflow(change.amount)
                guard !overflow else { throw ExpensesDataError.outOfRange }
                total = sum
            }
            totals[pair] = total
            if total != 0 {
                changes?.note(pair.low, pair.high)
                moving.append(parameters.row([pair.low, pair.high, pair.currency, total]))
            }
        }
        // The balances of pairs whose changes cancel out are not moved, but their changes are
        // checked all the same: from the balance as it is.
        var before: [BalanceKey: Int64] = [:]
        for pair in pairs where totals[pair] == 0 {
            before[pair] = try db.row(BalanceSQL.amount, [pair.low, pair.high, pair.currency])?.integer(0) ?? 0
        }

        var parts = [
            """
            new_expense AS (
                INSERT INTO \(ExpenseRows.expenseTable) VALUES \(expenseRows.joined(separator: ", "))
            )
            """,
            """
            line AS (
                INSERT INTO activity (id, at, actor, kind, subject, summary, snapshot) VALUES \(lineRows.joined(separator: ", "))
                RETURNING id, seq, at
            )
            """,
        ]
        if !personRows.isEmpty {
            parts.append(
                """
                new_person AS (
                    INSERT INTO \(ExpenseRows.personTable) VALUES \(personRows.joined(separator: ", "))
                )
                """
            )
        }
        if !linePeople.isEmpty {
            // Each person once per line.
            parts.append(
                """
                line_person AS (
                    INSERT INTO activity_person (user_id, at, seq)
                    SELECT DISTINCT named.person, line.at, line.seq
                    FROM line JOIN (VALUES \(linePeople.joined(separator: ", "))) AS named (line_id, person) ON named.line_id = line.id
                )
                """
            )
        }
        let result: String
        if moving.isEmpty {
            result = "SELECT NULL::text, NULL::text, NULL::text, NULL::bigint WHERE false"
        } else {
            // A pair that comes to zero returns no row, and is removed below.
            parts.append("moved AS (\n\(BalanceSQL.move(moving))\n)")
            result = "SELECT user_low, user_high, currency, amount FROM moved"
        }
        let rows = try db.rows("WITH " + parts.joined(separator: ",\n") + "\n" + result, parameters.values)
        var after: [BalanceKey: Int64] = [:]
        for row in rows {
            after[BalanceKey(low: try row.text(0), high: try row.text(1), currency: try row.text(2))] = try row.integer(3)
        }
        for pair in pairs {
            let total = totals[pair] ?? 0
            var balance: Int64
            if total == 0 {
                balance = before[pair] ?? 0
            } else {
                let final = after[pair] ?? 0
                if after[pair] == nil {
                    try db.execute(BalanceSQL.delete, [pair.low, pair.high, pair.currency])
                }
                let (start, overflow) = final.subtractingReportingOverflow(total)
                guard !overflow else { throw ExpensesDataError.outOfRange }
                balance = start
            }
            for change in changesByPair[pair] ?? [] {
                let (next, overflow) = balance.addingReportingOverflow(change.amount)
                guard !overflow, next.magnitude <= change.limit.magnitude else { throw ExpensesDataError.outOfRange }
                balance = next
            }
        }
        try moveGroupBalances(of: additions)
    }

    /// The balances within groups that `additions` in a group move: each change on its own, in
    /// the order it came within its pair, the pairs in one order (as above, so that two batches
    /// wait rather than deadlock), each checked against its addition's limit as it lands.
    private func moveGroupBalances(of additions: [ExpenseAddition]) throws {
        var changesByPair: [[String]: [(amount: Int64, limit: Int64)]] = [:]
        for addition in additions {
            guard let group = addition.expense.group else { continue }
            for change in addition.balanceChanges {
                changesByPair[[group, change.low, change.high, change.currency], default: []].append((change.amount, addition.balanceLimit))
            }
        }
        for key in changesByPair.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            for change in changesByPair[key] ?? [] {
                let balance = try addToGroupBalance(group: key[0], low: key[1], high: key[2], currency: key[3], amount: change.amount)
                guard balance.magnitude <= change.limit.magnitude else { throw ExpensesDataError.outOfRange }
            }
        }
    }
}
