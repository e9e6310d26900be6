import AccountsData
import BenchmarkSupport
import Expenses
import FlowsServer
import Foundation
import Friends
import Primitives
import Sync

// A replica's pull at scale (Scripts/bench), on a server's SQLite store in memory: Ada and Bob
// share EXPENSES expenses (100,000 unless set). Times, on the server's own sync service (no
// HTTP):
//   - Bob's first sync: every page of a pull without a cursor, to the last;
//   - an incremental sync after Ada adds CHANGES more (100 unless set).
// Prints figures; asserts nothing.

let environment = ProcessInfo.processInfo.environment
let expenseCount = Int(environment["EXPENSES"] ?? "") ?? 100_000
let changeCount = Int(environment["CHANGES"] ?? "") ?? 100
let pageSize = Int(environment["PAGE"] ?? "") ?? SyncPage.largestPage

let server = ServerServices.sqlite(.memory, fast: true)
let ada = try await server.sessions(InMemorySessionTokenStore()).signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
let bob = try await server.sessions(InMemorySessionTokenStore()).signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
_ = try await server.friends.befriend(.email("bob@example.com"), by: ada.id)
let today = try Day("2026-11-22")

func draft(_ index: Int) -> ExpenseDraft {
    let amount = Money(minorUnits: Int64(300 + index % 9_700), currency: .eur)
    return ExpenseDraft(
        description: "Expense \(index)", amount: amount, day: today.adding(days: -(index / 100)) ?? today, category: .general,
        payers: [Payer(user: ada.id, amount: amount)], participants: [ada.id, bob.id], rule: .equal
    )
}

let building = ContinuousClock().now
for index in 0..<expenseCount { _ = try await server.expenses.add(draft(index), by: ada.id) }
print("Data set: Ada and Bob share \(expenseCount) expenses, built in \(String(format: "%.1f", milliseconds(ContinuousClock().now - building) / 1000)) s")

/// Pulls for Bob from `cursor` until nothing more waits; answers the changes, the pages and the cursor.
func sync(after cursor: SyncCursor?) async throws -> (changes: Int, pages: Int, cursor: SyncCursor) {
    var cursor = cursor
    var (changes, pages) = (0, 0)
    while true {
        let page = try await server.sync.changes(for: bob.id, after: cursor, limit: pageSize)
        changes += page.changes.count
        pages += 1
        cursor = page.cursor
        if !page.more { return (changes, pages, page.cursor) }
    }
}

let first = ContinuousClock().now
let whole = try await sync(after: nil)
let firstTime = milliseconds(ContinuousClock().now - first) / 1000
print("First sync of \(expenseCount) shared expenses: \(whole.changes) changes in \(whole.pages) pages of up to \(pageSize), \(String(format: "%.2f", firstTime)) s  (target: under 30 s)")

for index in 0..<changeCount { _ = try await server.expenses.add(draft(expenseCount + index), by: ada.id) }
var times: [Double] = []
var cursor = whole.cursor
for round in 0..<5 {
    if round > 0 { for index in 0..<changeCount { _ = try await server.expenses.add(draft(expenseCount + round * changeCount + index), by: ada.id) } }
    let started = ContinuousClock().now
    let next = try await sync(after: cursor)
    times.append(milliseconds(ContinuousClock().now - started))
    cursor = next.cursor
    guard next.changes == changeCount else {
        print("an incremental sync brought \(next.changes) changes, not \(changeCount)")
        exit(1)
    }
}
print("Incremental sync of \(changeCount) changes, median of \(times.count): \(String(format: "%.1f", median(times))) ms  (target: under 200 ms)")
