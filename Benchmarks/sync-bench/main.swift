import AccountsData
import BenchmarkSupport
import Expenses
import ExpensesFlow
import FlowKit
import FlowsApp
import FlowsServer
import Foundation
import Friends
import LocalStore
import Logging
import Primitives
import ServiceLifecycle
import Sync

// A replica's pull at scale (Scripts/bench), on a server's SQLite store in memory: Ada and Bob
// share EXPENSES expenses (100,000 unless set). First the server's side, on its own sync
// service (no HTTP), then the client's (below). Times:
//   - Bob's first sync: every page of a pull without a cursor, to the last;
//   - an incremental sync after Ada adds CHANGES more (100 unless set): each expense and its
//     line of activity, two changes each.
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
    // Each expense, and its line of activity.
    guard next.changes == 2 * changeCount else {
        print("an incremental sync brought \(next.changes) changes, not \(2 * changeCount)")
        exit(1)
    }
}
print("Incremental sync of \(changeCount) expenses added (\(2 * changeCount) changes: each, and its line of activity), median of \(times.count): \(String(format: "%.1f", median(times))) ms  (target: under 200 ms)")

// The client's side, as `flows --server` runs it: flows-server on loopback over HTTP, Bob's
// replica in a file. Times:
//   - Bob signing in, which pulls everything into his new replica (each page fetched and
//     written);
//   - a pull of CHANGES more expenses, fetched and written (median of 5);
//   - the Expenses tab's first screen on the replica, beside the same screen on the embedded
//     store with the same data (a store of its own, on a file too), interleaved runs.
let logger = Logger(label: "sync-bench") { _ in SwiftLogNoOpLogHandler() }
let (ports, announced) = AsyncStream<Int>.makeStream()
let application = try FlowsServer.application(ServerConfiguration(port: 0), services: server, logger: logger) { announced.yield($0) }
let serving = ServiceGroup(configuration: .init(services: [application], logger: logger))
let served = Task { try await serving.run() }
func firstPort(of ports: AsyncStream<Int>) async -> Int? {
    var announcements = ports.makeAsyncIterator()
    return await announcements.next()
}
guard let port = await firstPort(of: ports), let url = URL(string: "http://127.0.0.1:\(port)") else {
    print("flows-server did not start")
    exit(1)
}
let folders = FileManager.default.temporaryDirectory.appendingPathComponent("sync-bench-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: folders) }
let client = AppContainer.remote(server: url, location: StoreLocation(directory: folders.appendingPathComponent("client")))
let signingIn = ContinuousClock().now
_ = try await client.accounts.signIn(email: "bob@example.com", password: "correct horse")
let pulledIn = milliseconds(ContinuousClock().now - signingIn) / 1000
// The sign-in's pull fails silently (the screens then read the server): the balances say whether it came.
let onServer = try await server.expenses.balances(of: bob.id)
guard let replica = client.replica(of: bob.id), try await replica.services.expenses.balances(of: bob.id) == onServer else {
    print("Bob's replica does not hold his balances after signing in")
    exit(1)
}
print("First sync over HTTP into a replica file (\(expenseCount + 5 * changeCount) shared expenses, each with its line of activity), signing in: \(String(format: "%.2f", pulledIn)) s  (target: under 30 s)")

var pullTimes: [Double] = []
for round in 0..<5 {
    for index in 0..<changeCount { _ = try await server.expenses.add(draft(expenseCount + (5 + round) * changeCount + index), by: ada.id) }
    let started = ContinuousClock().now
    await client.pullReplica()
    pullTimes.append(milliseconds(ContinuousClock().now - started))
}
guard try await replica.services.expenses.balances(of: bob.id) == server.expenses.balances(of: bob.id) else {
    print("Bob's replica does not hold his balances after the pulls")
    exit(1)
}
print("Incremental sync over HTTP of \(changeCount) expenses added (\(2 * changeCount) changes), fetched and written, median of \(pullTimes.count): \(String(format: "%.1f", median(pullTimes))) ms  (target: under 200 ms)")

// The same data on the embedded store, for the Expenses tab beside the replica's.
let embedded = AppContainer.live(location: StoreLocation(directory: folders.appendingPathComponent("embedded")))
let adaHere = try await embedded.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
let bobHere = try await embedded.accounts.signUp(email: "bob@example.com", displayName: "Bob", password: "correct horse")
_ = try await embedded.friends.befriend(.email("bob@example.com"), by: adaHere.id)
for index in 0..<(expenseCount + 10 * changeCount) {
    let draft = draft(index)
    _ = try await embedded.expenses.add(
        ExpenseDraft(
            description: draft.description, amount: draft.amount, day: draft.day, category: draft.category, payers: [Payer(user: adaHere.id, amount: draft.amount)],
            participants: [adaHere.id, bobHere.id], rule: .equal
        ),
        by: adaHere.id
    )
}
_ = try await embedded.accounts.signIn(email: "bob@example.com", password: "correct horse")

/// Notes when the Expenses tab's first screen arrives, then leaves it.
actor FirstScreen: ScreenHost {
    private(set) var shown: ContinuousClock.Instant?
    func present(_ screen: Screen) async { if screen.id == "expenses", shown == nil { shown = ContinuousClock().now } }
    func update(_ screen: Screen) async { await present(screen) }
    func dismiss(_ screenID: ScreenID) async {}
    func nextEvent(on screen: Screen) async -> UserEvent { .cancel }
}

/// The tab's first screen for `user`, from the flow's start (the session already found, as the
/// home opens its tabs) to the screen shown.
func firstScreen(on container: AppContainer, for user: UserID) async -> Double? {
    let host = FirstScreen()
    let router = AppRouter(host: host)
    let launched = ContinuousClock().now
    _ = await router.start(ExpensesFlow(user: user, dependencies: container, router: router))
    return await host.shown.map { milliseconds($0 - launched) }
}
let tabRuns = Int(environment["RUNS"] ?? "") ?? 20
var (onReplica, onEmbedded): ([Double], [Double]) = ([], [])
for _ in 0..<tabRuns {
    guard let replicaTime = await firstScreen(on: client, for: bob.id), let embeddedTime = await firstScreen(on: embedded, for: bobHere.id) else {
        print("the Expenses tab did not show its first screen")
        exit(1)
    }
    onReplica.append(replicaTime)
    onEmbedded.append(embeddedTime)
}
let (replicaMedian, embeddedMedian) = (median(onReplica), median(onEmbedded))
print(
    "Expenses tab, first screen, median of \(tabRuns) interleaved: replica \(String(format: "%.2f", replicaMedian)) ms, embedded store \(String(format: "%.2f", embeddedMedian)) ms, "
        + "ratio \(String(format: "%.2f", replicaMedian / embeddedMedian))  (target: within 10%)"
)
await serving.triggerGracefulShutdown()
_ = await served.result
