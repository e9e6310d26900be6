import Accounts
import AccountsData
import DataChanges
import DataChangesPostgres
import Dispatch
import Expenses
import FlowsServer
import Foundation
import Friends
import Groups
import PostgresStore
import Preferences
import Primitives
import Sync
import Synchronization
import Testing

/// The pull of docs/sync.md, the same steps on a server's SQLite store and on PostgreSQL: each
/// person's pull brings what they see, whole, and what they no longer see, removed; never what
/// is someone else's.
enum SyncPullScenario {
    /// Ada, Bob and Cy on `server`: friends, an expense, a payment and a group come and go, and
    /// each pull is checked.
    static func run(on server: ServerServices) async throws {
        let log = server.changeLog
        var people: [User] = []
        for name in ["Ada", "Bob", "Cy"] {
            people.append(
                try await server.sessions(InMemorySessionTokenStore()).signUp(email: "\(name.lowercased())@example.com", displayName: name, password: "correct horse")
            )
        }
        let (ada, bob, cy) = (people[0].id, people[1].id, people[2].id)
        let (sync, friends, expenses, groups) = (server.sync, server.friends, server.expenses, server.groups)
        _ = try await friends.befriend(.email("bob@example.com"), by: ada)

        // A first pull: everything Bob sees now, each whole.
        var bobs = try await sync.changes(for: bob, after: nil, limit: 100)
        #expect(Set(bobs.changes.map(\.kind)) == [.account, .preferences, .friend, .requests] && bobs.changes.count == 4)
        #expect(bobs.changes.first { $0.kind == .account }?.value == .account(people[1]))
        #expect(bobs.changes.first { $0.kind == .preferences }?.value == .preferences(try await server.preferences.preferences(of: bob)))
        #expect(bobs.changes.first { $0.kind == .friend }?.value == .friend(try #require(try await friends.friend(ada, of: bob))))
        #expect(bobs.changes.first { $0.kind == .requests }?.value == .requests(try await friends.requests(of: bob)))
        #expect(!bobs.more)
        let cys = try await sync.changes(for: cy, after: nil, limit: 100)
        #expect(cys.changes.first { $0.kind == .requests } == SyncChange(kind: .requests, id: cy.rawValue, value: .requests(try await friends.requests(of: cy))))
        #expect(cys.changes.map(\.id).allSatisfy { $0 == cy.rawValue })

        // Nothing new: nothing, and the cursor stays.
        let quiet = try await sync.changes(for: bob, after: bobs.cursor, limit: 100)
        #expect(quiet.changes.isEmpty && quiet.cursor == bobs.cursor && !quiet.more)

        // Bob's own account and preferences, changed: his pull says so, and no one else's.
        let renamed = try await server.accounts.changeDisplayName(to: "Robert", of: bob)
        try await server.preferences.update(Preferences(theme: .light, defaultCurrency: .jpy), of: bob)
        bobs = try await sync.changes(for: bob, after: bobs.cursor, limit: 100)
        #expect(bobs.changes == [
            SyncChange(kind: .account, id: bob.rawValue, value: .account(renamed)),
            SyncChange(kind: .preferences, id: bob.rawValue, value: .preferences(Preferences(theme: .light, defaultCurrency: .jpy))),
        ])
        #expect(try await sync.changes(for: cy, after: cys.cursor, limit: 100).changes.isEmpty)

        // An expense, then its edit: one change, the expense as it is now.
        let dinner = try await expenses.add(try draft(eur(3000), paidBy: [(ada, 3000)], among: [ada, bob]), by: ada)
        var edited = try draft(eur(3600), paidBy: [(ada, 3600)], among: [ada, bob])
        edited.description = "Team dinner"
        let changed = try await expenses.edit(dinner.id, to: edited, from: dinner.version, by: ada)
        bobs = try await sync.changes(for: bob, after: bobs.cursor, limit: 100)
        let history = try await expenses.history(of: dinner.id, for: bob)
        #expect(history.count == 2)
        // As a pull tells it: who changed it when, without the expense each change left (its
        // lines carry that).
        let told = history.map { ExpenseChange(kind: $0.kind, by: $0.by, at: $0.at, expense: nil) }
        // Its lines of history are the history; Bob was in it from the start, so his activity
        // tells of each (below) and none comes with the expense.
        let historyLines = try await server.syncSource.historyLines(of: dinner.id, for: bob)
        #expect(historyLines.map(\.activity.kind) == [.added, .edited] && historyLines.map(\.expense) == history.map(\.expense))
        #expect(bobs.changes.filter { $0.kind != .activity } == [
            SyncChange(kind: .expense, id: dinner.id.rawValue, value: .expense(SyncedExpense(changed, history: told, comments: [])))
        ])
        // Each line of activity, whole, in the order it was written.
        let lines = bobs.changes.compactMap { change -> ActivityLine? in if case .activity(let line)? = change.value { line } else { nil } }
        #expect(lines.map(\.activity.kind) == [.added, .edited])
        #expect(lines.map(\.expense) == history.map(\.expense))
        #expect(lines.allSatisfy { Set($0.people) == [ada, bob] && $0.activity.subject == dinner.id })
        #expect(bobs.changes.filter { $0.kind == .activity }.map(\.id) == lines.map { "\(dinner.id.rawValue)/\($0.id)" })
        // A comment, and its deletion: the expense comes again, with its comments as they are.
        let comment = try await expenses.comment("Was it 36?", on: dinner.id, by: bob)
        var adas = try await sync.changes(for: ada, after: nil, limit: 500)
        let commented = try await sync.changes(for: ada, after: adas.cursor, limit: 500)
        #expect(commented.changes.isEmpty)
        bobs = try await sync.changes(for: bob, after: bobs.cursor, limit: 100)
        // (As the store keeps it: PostgreSQL keeps an instant to the microsecond.)
        let comments = try await expenses.comments(on: dinner.id, for: bob)
        #expect(comments.map(\.id) == [comment.id])
        #expect(bobs.changes.filter { $0.kind != .activity } == [
            SyncChange(kind: .expense, id: dinner.id.rawValue, value: .expense(SyncedExpense(changed, history: told, comments: comments)))
        ])
        #expect(bobs.changes.compactMap { change -> Activity.Kind? in if case .activity(let line)? = change.value { line.activity.kind } else { nil } } == [.commented])
        try await expenses.deleteComment(comment.id, on: dinner.id, by: bob)
        adas = try await sync.changes(for: ada, after: adas.cursor, limit: 500)
        #expect(adas.changes == [
            SyncChange(kind: .expense, id: dinner.id.rawValue, value: .expense(SyncedExpense(changed, history: told, comments: [])))
        ])
        #expect(try await sync.changes(for: cy, after: cys.cursor, limit: 100).changes.isEmpty)

        // A payment, and a group.
        let payment = try await expenses.settle(from: bob, to: ada, amount: eur(1800), day: try Day("2026-11-23"), by: bob)
        let trip = try await groups.create(GroupDraft(name: "Trip", currency: .eur, members: [bob]), by: ada)
        bobs = try await sync.changes(for: bob, after: bobs.cursor, limit: 100)
        let recorded = try await expenses.paymentHistory(of: payment.id, for: bob)
        #expect(recorded.count == 1)
        #expect(bobs.changes.contains(SyncChange(kind: .payment, id: payment.id.rawValue, value: .payment(SyncedPayment(payment, history: recorded)))))
        #expect(bobs.changes.contains(SyncChange(kind: .group, id: trip.id.rawValue, value: .group(try #require(try await groups.group(trip.id, for: bob))))))

        // Page by page: a cursor that only grows, `more` until the last.
        var paged: [SyncChange] = []
        var cursor: SyncCursor? = nil
        var positions: [LogPosition] = []
        repeat {
            let page = try await sync.changes(for: bob, after: cursor, limit: 1)
            #expect(page.changes.count <= 1)
            paged += page.changes
            cursor = page.cursor
            // A page that read nothing leaves the cursor where it was.
            if !page.changes.isEmpty { positions.append(try #require(LogPosition(page.cursor.text))) }
            if !page.more { break }
        } while positions.count < 50
        #expect(positions == positions.sorted() && Set(positions).count == positions.count)
        #expect(Set(paged.map(\.id)).isSuperset(of: [ada.rawValue, bob.rawValue, dinner.id.rawValue, payment.id.rawValue, trip.id.rawValue]))

        // Gone: the expense deleted, the payment taken back, Bob out of the group, the friendship
        // ended. Each comes as removed (the expense as deleted), to Bob and to Ada.
        try await expenses.delete(dinner.id, from: changed.version, by: ada)
        try await expenses.undoSettlement(payment.id, by: bob)
        _ = try await groups.removeMember(bob, from: trip.id, by: ada)
        try await friends.remove(bob, by: ada)
        bobs = try await sync.changes(for: bob, after: bobs.cursor, limit: 100)
        #expect(Set(bobs.changes.filter { $0.value == nil }.map { "\($0.kind) \($0.id)" }) == [
            "payment \(payment.id.rawValue)", "group \(trip.id.rawValue)", "friend \(ada.rawValue)",
        ])
        // The expense comes as deleted, which Bob, who was in it, may restore.
        let deleted = bobs.changes.first { $0.kind == .expense && $0.id == dinner.id.rawValue }?.value
        guard case .expense(let synced)? = deleted else { Issue.record("the deleted expense did not come: \(String(describing: deleted))"); return }
        #expect(synced.deleted && synced.expense == changed && synced.history.last?.kind == .deleted)
        let adasNow = try await sync.changes(for: ada, after: nil, limit: 500)
        #expect(!adasNow.changes.contains { $0.id == bob.rawValue && $0.kind == .friend })
        #expect(adasNow.changes.first { $0.id == trip.id.rawValue }?.value == .group(try #require(try await groups.group(trip.id, for: ada))))

        // Cy saw none of it, and a cursor this server never gave is refused.
        #expect(try await sync.changes(for: cy, after: cys.cursor, limit: 100).changes.isEmpty)
        await #expect(throws: SyncError.invalidCursor) { try await sync.changes(for: bob, after: SyncCursor("tomorrow"), limit: 100) }
        // One from the future (another server's, or a database restored from an older copy)
        // would never see a change: it is refused, so the replica pulls again without one.
        await #expect(throws: SyncError.invalidCursor) { try await sync.changes(for: bob, after: SyncCursor("9000000000.1"), limit: 100) }
        let now = try #require(LogPosition(bobs.cursor.text))
        await #expect(throws: SyncError.invalidCursor) {
            try await sync.changes(for: bob, after: SyncCursor(LogPosition(transaction: now.transaction, sequence: now.sequence + 1_000_000).description), limit: 100)
        }

        // Pruned: a cursor from before is expired, and a pull without one has everything still.
        #expect(try await log.prune(before: Date().timeIntervalSince1970 + 60) > 0)
        await #expect(throws: SyncError.cursorExpired) { try await sync.changes(for: bob, after: cys.cursor, limit: 100) }
        let again = try await sync.changes(for: ada, after: nil, limit: 500)
        #expect(again.changes.first { $0.id == trip.id.rawValue }?.value == .group(try #require(try await groups.group(trip.id, for: ada))))
        let quietAgain = try await sync.changes(for: ada, after: again.cursor, limit: 500)
        #expect(quietAgain.changes.isEmpty)
        #expect(try await log.prune(before: 0) == 0)
    }
}

@Suite("Pulling changes, on a server's SQLite store")
struct SyncPullSQLiteTests {
    @Test("each pull brings what the person sees, whole, and what they no longer see, removed")
    func pull() async throws {
        try await SyncPullScenario.run(on: ServerServices.sqlite(.memory, fast: true))
    }
}

@Suite("Pulling changes, on PostgreSQL", TestDatabase.required)
struct SyncPullPostgresTests {
    @Test("each pull brings what the person sees, whole, and what they no longer see, removed")
    func pull() async throws {
        try await TestDatabase.withFresh { url in
            let server = ServerServices.postgres(url, fast: true)
            do {
                try await SyncPullScenario.run(on: server)
                await server.close()
            } catch {
                await server.close()
                throw error
            }
        }
    }

    @Test("a transaction that commits late is never passed: a pull waits for it, then reads its rows before the later ones")
    func lateCommit() async throws {
        try await TestDatabase.withFresh { url in
            let database = ServerDatabase(url: url, maximumConnections: 4, migrations: PostgresChangeLog.migrations)
            let log = PostgresChangeLog(database: database)
            let hold = DispatchSemaphore(value: 0)
            let (wrote, written) = AsyncStream.makeStream(of: Void.self)
            // The first transaction writes its row, then stays open until told.
            let first = Task {
                try await database.write { db in
                    try PostgresChangeLog.append([Change(kind: .expense, id: "first", person: "ada")], in: db)
                    written.yield()
                    hold.wait()
                }
            }
            for await _ in wrote { break }
            // A second one, begun after it, commits first.
            try await log.log([Change(kind: .expense, id: "second", person: "ada")])
            #expect(try await log.changes(for: "ada", after: .start, limit: 10).isEmpty)
            hold.signal()
            try await first.value
            let rows = try await log.changes(for: "ada", after: .start, limit: 10)
            #expect(rows.map(\.id) == ["first", "second"])
            #expect(rows.map(\.position) == rows.map(\.position).sorted())
            #expect(try await log.changes(for: "ada", after: try #require(rows.last).position, limit: 10).isEmpty)
            #expect(try await log.changes(for: "bob", after: .start, limit: 10).isEmpty)
            await database.shutdown()
        }
    }

    @Test("positions are in the order of transactions as numbers, where 10 comes after 9: a reader reads on past a new digit, and the newest and the last pruned are the largest")
    func positionsAcrossADigit() async throws {
        try await TestDatabase.withFresh { url in
            let database = ServerDatabase(url: url, maximumConnections: 2, migrations: PostgresChangeLog.migrations)
            let log = PostgresChangeLog(database: database)
            // Rows of transactions long ended, written as transactions 9, 99 and 999 and the
            // ones after them would write them. The ids are the cluster's: a fresh one may not
            // have given 1000 yet, so ids are taken until it has.
            while Int64(try await database.write { db in try db.row("SELECT pg_current_xact_id()::text")?.text(0) } ?? "") ?? 0 <= 1_000 {}
            // The first four were written long ago (`at` 1), to be pruned.
            let transactions = ["9", "10", "99", "100", "999", "1000"]
            // Every other one for a group of Ada's, whose rows she reads with hers.
            let audience = ["ada", Change.audience(ofGroup: "g")]
            try await database.write { db in
                for (index, transaction) in transactions.enumerated() {
                    try db.execute(
                        "INSERT INTO sync_change (tx, person, kind, entity, at) VALUES ($1::text::xid8, $2, 'expense', $3, $4)",
                        [transaction, audience[index % 2], "e\(index)", index < 4 ? 1.0 : 2_000_000_000.0]
                    )
                }
            }
            var position = LogPosition.start
            var read: [String] = []
            while let row = try await log.changes(for: audience, after: position, limit: 1).first {
                read.append(row.id)
                position = row.position
            }
            #expect(read == ["e0", "e1", "e2", "e3", "e4", "e5"])
            #expect(try await log.changes(for: audience, after: .start, limit: 4).map(\.id) == ["e0", "e1", "e2", "e3"])
            #expect(try await log.changes(for: "ada", after: .start, limit: 10).map(\.id) == ["e0", "e2", "e4"])
            // The rest as before, on Ada's own rows and the group's together.
            for transaction in ["10", "100", "1000"] {
                try await database.write { db in
                    try db.execute("UPDATE sync_change SET person = 'ada' WHERE tx = $1::text::xid8", [transaction])
                }
            }
            #expect(try await log.changes(for: "ada", after: .start, limit: 10).map(\.position.transaction) == [9, 10, 99, 100, 999, 1000])
            #expect(try await log.newest(for: "ada")?.transaction == 1000)
            // Pruned through transaction 100: a reader that stopped at 99 missed the row of 100.
            let atNinetyNine = try #require(try await log.changes(for: "ada", after: .start, limit: 3).last).position
            #expect(try await log.prune(before: 2) == 4)
            await #expect(throws: ChangeLogError.expired) { try await log.changes(for: "ada", after: atNinetyNine, limit: 10) }
            await database.shutdown()
        }
    }

    @Test("a reader pulling while writers commit never passes a row: each is read once, whatever commits as the reader looks")
    func readerAmongWriters() async throws {
        try await TestDatabase.withFresh { url in
            let database = ServerDatabase(url: url, maximumConnections: 8, migrations: PostgresChangeLog.migrations)
            let log = PostgresChangeLog(database: database)
            try await log.log([Change(kind: .expense, id: "before", person: "ada")])
            let writers = 4
            let each = 150
            let readers = 3
            let done = WritersDone()
            let read = try await withThrowingTaskGroup(of: [String].self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        for index in 0..<each {
                            try await log.log([Change(kind: .expense, id: "\(writer)-\(index)", person: "ada")])
                        }
                        done.count.add(1, ordering: .sequentiallyConsistent)
                        return []
                    }
                }
                // Readers read as clients pull, each from its own cursor, until the writers are
                // done and the reader has come to the log's newest row. (A pull may be held back
                // for a while by a transaction it cannot place, of another test's database: an
                // empty page then is not the end.)
                for _ in 0..<readers {
                    group.addTask {
                        var position = LogPosition.start
                        var ids: [String] = []
                        while true {
                            let finished = done.count.load(ordering: .sequentiallyConsistent) == writers
                            let rows = try await log.changes(for: "ada", after: position, limit: 7)
                            ids += rows.map(\.id)
                            position = rows.last?.position ?? position
                            if finished, rows.isEmpty, let newest = try await log.newest(for: "ada"), position >= newest { return ids }
                        }
                    }
                }
                var reads: [[String]] = []
                for try await ids in group where !ids.isEmpty { reads.append(ids) }
                return reads
            }
            let written = Set(["before"] + (0..<writers).flatMap { writer in (0..<each).map { "\(writer)-\($0)" } })
            // The log as it is once every write has ended, read whole after the fact.
            var logged: [String] = []
            var position = LogPosition.start
            while true {
                let rows = try await log.changes(for: "ada", after: position, limit: 500)
                guard let last = rows.last else { break }
                logged += rows.map(\.id)
                position = last.position
            }
            #expect(Set(logged) == written)
            #expect(read.count == readers)
            for ids in read {
                // Each reader read the log exactly, in its order: no row passed, none twice.
                #expect(ids == logged, "read \(ids.count) rows of \(logged.count); never read: \(Set(logged).subtracting(ids).sorted().prefix(10))")
            }
            await database.shutdown()
        }
    }
}

/// How many writers have written all theirs.
private final class WritersDone: Sendable {
    let count = Atomic<Int>(0)
}
