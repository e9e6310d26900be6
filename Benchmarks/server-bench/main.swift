import Accounts
import AccountsData
import Expenses
import FlowsServer
import Foundation
import Friends
import Hummingbird
import PostgresStore
import Primitives

// What Scripts/bench drives flows-server's wrk figures with (loopback only):
//
//   server-bench seed URL DIR   fills the PostgreSQL database at URL through the domain's
//                               services: Ada with 1,000 friends (100 accounts, 900 contacts)
//                               and 100,000 expenses shared with them, one currency per
//                               friend. Writes DIR/token (Ada's session), DIR/friend-token (the
//                               session of a friend of hers, whose one balance is with her) and
//                               DIR/adds.lua (a wrk script adding expenses Ada shares with each
//                               friend in turn).
//   server-bench verify URL     recounts the ledger at URL; exits 1 when it does not hold.
//   server-bench web            flows-server's pages under load (WebBench.swift).
//   server-bench bare PORT      the baseline: a bare Hummingbird route, GET / answering a
//                               constant, built and run like flows-server; and GET /large
//                               answering 97,000 bytes, the size of Ada's balances.
//
// FRIENDS and EXPENSES scale the data set.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("server-bench: \(message)\n".utf8))
    exit(1)
}

func seconds(since start: ContinuousClock.Instant) -> String {
    let elapsed = ContinuousClock().now - start
    return String(format: "%.1f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

func database(_ text: String) -> DatabaseURL {
    do { return try DatabaseURL(text) } catch { fail("\(error)") }
}

/// The friends' accounts and contacts, Ada's session, and the expenses she shares with them.
func seed(_ url: DatabaseURL, into folder: URL) async throws {
    let environment = ProcessInfo.processInfo.environment
    let friendCount = max(1, Int(environment["FRIENDS"] ?? "") ?? 1_000)
    let expenseCount = max(0, Int(environment["EXPENSES"] ?? "") ?? 100_000)
    let accountCount = min(100, friendCount)
    // The lowest bcrypt cost: the accounts' passwords are not what is measured.
    let services = ServerServices.postgres(url, maximumConnections: 8, fast: true)
    let started = ContinuousClock().now

    let tokens = InMemorySessionTokenStore()
    let accounts = services.sessions(tokens)
    let ada = try await accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
    var friends: [UserID] = []
    for index in 0..<accountCount {
        _ = try await accounts.signUp(email: "friend\(index)@example.com", displayName: "Friend \(index)", password: "correct horse")
        friends.append(try await services.friends.befriend(.email("friend\(index)@example.com"), by: ada.id).id)
    }
    for index in accountCount..<friendCount {
        friends.append(try await services.friends.addContact(name: "Contact \(index)", email: nil, by: ada.id).id)
    }
    // Ada's session, and that of a friend of hers with one balance (with her): the same path
    // with a small answer.
    _ = try await accounts.signIn(email: "ada@example.com", password: "correct horse")
    guard let token = try tokens.load() else { fail("signing in kept no session") }
    let friendTokens = InMemorySessionTokenStore()
    _ = try await services.sessions(friendTokens).signIn(email: "friend0@example.com", password: "correct horse")
    guard let friendToken = try friendTokens.load() else { fail("signing in kept no session") }

    // Eight writers at once. Writer w adds the expenses numbered w, w + 8, ...: with a number of
    // friends divisible by eight (1,000), each writer has friends of its own, and no two write
    // the same balance (otherwise they sometimes collide, and the store runs the write again).
    let writers = 8
    let today = try Day("2026-11-22")
    try await withThrowingTaskGroup(of: Void.self) { group in
        for writer in 0..<writers {
            group.addTask { [friends] in
                for index in stride(from: writer, to: expenseCount, by: writers) {
                    let slot = index % friends.count
                    let friend = friends[slot]
                    let amount = Money(minorUnits: Int64(100 + index % 9_900), currency: slot % 2 == 0 ? .eur : .usd)
                    let draft = ExpenseDraft(
                        description: "Expense \(index)", amount: amount, day: today.adding(days: -(index / 50)) ?? today,
                        category: .general, payers: [Payer(user: index % 2 == 0 ? ada.id : friend, amount: amount)],
                        participants: [ada.id, friend], rule: .equal
                    )
                    _ = try await services.expenses.add(draft, by: ada.id)
                    if index % 10_000 == 0, index > 0 { print("  \(index) expenses, \(seconds(since: started)) s") }
                }
            }
        }
        try await group.waitForAll()
    }
    let balances = try await services.expenses.balances(of: ada.id)
    await services.close()
    // The tables' statistics and visibility map brought up to date now, so that the autovacuum
    // the seeding set off does not share the measurements' cores.
    let database = ServerDatabase(url: url, maximumConnections: 1, statementTimeout: nil)
    _ = try await database.withoutTransaction { try $0.execute("VACUUM (ANALYZE)") }
    await database.shutdown()
    print(
        "Data set: Ada with \(friendCount) friends (\(accountCount) accounts, \(friendCount - accountCount) contacts), "
            + "\(expenseCount) expenses, \(balances.count) open balances; seeded through the services, then vacuumed, in \(seconds(since: started)) s"
    )

    // Private: it holds live session tokens.
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try Data(token.utf8).write(to: folder.appending(path: "token"))
    try Data(friendToken.utf8).write(to: folder.appending(path: "friend-token"))
    try Data(addsScript(token: token, ada: ada.id, friends: friends).utf8).write(to: folder.appending(path: "adds.lua"))
}

/// A wrk script: each request adds an expense Ada paid and shares with the next friend, in that
/// friend's currency. Each of wrk's threads goes round them all, the second starting half way
/// round: two threads in step would send the same pair's expenses at once, and writes of one
/// balance at the same moment wait for each other (and may have to be written again), which is
/// what a bench of many users adding does not do.
func addsScript(token: String, ada: UserID, friends: [UserID]) -> String {
    let bodies = friends.enumerated().map { slot, friend in
        let currency = slot % 2 == 0 ? "EUR" : "USD"
        let money = #"{"minorUnits":1250,"currency":"\#(currency)"}"#
        return #"'{"description":"Lunch","amount":\#(money),"day":"2026-11-22","category":"food","#
            + #""payers":[{"user":"\#(ada.rawValue)","amount":\#(money)}],"#
            + #""participants":["\#(ada.rawValue)","\#(friend.rawValue)"],"rule":{"mode":"equal"}}'"#
    }
    return """
        -- Written by server-bench: adds an expense per request, with each friend in turn.
        wrk.method = "POST"
        wrk.headers["Content-Type"] = "application/json"
        wrk.headers["Authorization"] = "Bearer \(token)"
        local bodies = {
        \(bodies.joined(separator: ",\n"))
        }
        local threads = 0
        function setup(thread)
          thread:set("first", threads)
          threads = threads + 1
        end
        local next = nil
        request = function()
          if next == nil then next = (first or 0) * math.floor(#bodies / 2) end
          next = next % #bodies + 1
          return wrk.format(nil, "/expenses", nil, bodies[next])
        end

        """
}

func verify(_ url: DatabaseURL) async throws {
    let services = ServerServices.postgres(url, maximumConnections: 2)
    let check = try await services.verifier.verify()
    await services.close()
    print(check.summary)
    if !check.isSound { exit(1) }
}

/// GET / answering a constant, on Hummingbird as flows-server uses it, with nothing else.
func bare(port: Int) async throws {
    let router = Router()
    router.get("/") { _, _ in "ok" }
    // The size of Ada's 1,000 balances in JSON: what any server must write for her.
    let large = ByteBuffer(repeating: UInt8(ascii: "x"), count: 97_000)
    router.get("/large") { _, _ in Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: large)) }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
    try await app.runService()
}

let arguments = CommandLine.arguments.dropFirst()
switch (arguments.first, arguments.count) {
case ("seed", 3):
    let folder = URL(fileURLWithPath: arguments[arguments.startIndex + 2])
    do { try await seed(database(arguments[arguments.startIndex + 1]), into: folder) } catch { fail("seeding failed: \(error)") }
case ("verify", 2):
    do { try await verify(database(arguments[arguments.startIndex + 1])) } catch { fail("the recount failed: \(error)") }
case ("web", 1):
    do { try await webBench() } catch { fail("\(error)") }
case ("bare", 2):
    guard let port = Int(arguments[arguments.startIndex + 1]) else { fail("bare PORT") }
    do { try await bare(port: port) } catch { fail("\(error)") }
default:
    fail("usage: server-bench seed URL DIR | verify URL | bare PORT | web")
}
