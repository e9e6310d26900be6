import Accounts
import AccountsData
import Expenses
import FlowsAPIClient
import FlowsApp
import FlowsServer
import Foundation
import Friends
import Groups
import LocalStore
import Preferences
import Primitives
import Sync
import Synchronization
import Testing

/// Writes made on a replica while its server is down (docs/sync.md): applied there at once,
/// queued, and pushed by the next sync; one the server refuses leaves the replica and stays
/// listed with its reason until dropped.
@Suite(.timeLimit(.minutes(2)))
struct OfflineWritesTests {
    @Test("expenses added offline show at once and wait; the next sync applies one on the server, once, and keeps the one it refused with the reason")
    func addedOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-writes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, bobHome, first, ada, adaUser, bobUser) = (world.adaHome, world.bobHome, world.first, world.ada, world.adaUser, world.bobUser)
        let sam = try await ada.friends.addContact(name: "Sam Park", email: nil, by: adaUser.id)
        await ada.pullReplica()
        await first.stop()

        // Offline: the next run goes on as Ada, on her replica.
        let offline = AppContainer.remote(server: first.url, location: adaHome)
        #expect(try await offline.accounts.storedSession() == .signedIn(adaUser))
        let dinner = try await offline.expenses.add(Self.draft("Dinner", 3000, by: adaUser.id, with: sam.id), by: adaUser.id)
        let taxi = try await offline.expenses.add(Self.draft("Taxi", 1000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        let balances = try await offline.expenses.balances(of: adaUser.id)
        #expect(Set(balances.map(\.other)) == [sam.id, bobUser.id])
        #expect(balances.first { $0.other == sam.id }?.amount == Money(minorUnits: 1500, currency: .eur))
        let waiting = try #require(await offline.replicaChanges?.status(of: adaUser.id))
        #expect(waiting.waiting == 2)
        #expect(waiting.offlineNotice(in: .gmt)?.hasPrefix("2 changes waiting (offline since ") == true, "\(waiting.offlineNotice(in: .gmt) ?? "nil")")
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["add Dinner, 30.00 EUR", "add Taxi, 10.00 EUR"])
        #expect(queued.map(\.operation.operation) == ["addExpense", "addExpense"])

        // Back, on the same port and store; meanwhile Bob blocked Ada (they are friends no more), so the taxi is refused.
        let second = try await world.restart()
        let bobAgain = AppContainer.remote(server: second.url, location: bobHome)
        try await bobAgain.friends.block(adaUser.id, by: bobUser.id)
        let synced = try #require(await offline.syncReplica(of: adaUser.id))
        let report = try synced.get()
        #expect(report.push == PushReport(pushed: 1, refused: 1, conflicts: 0, waiting: 0))

        // The server has the dinner under the id made offline, and not the taxi.
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        let onServer = try await direct.expenses.expenses(of: adaUser.id, page: PageRequest(offset: 0, limit: 50)).map(\.id)
        #expect(onServer == [dinner.id])
        // The replica shows what the server has: the dinner once, its line of activity the server's.
        #expect(try await offline.expenses.expense(taxi.id, for: adaUser.id) == nil)
        #expect(try await offline.expenses.expenses(of: adaUser.id, page: PageRequest(offset: 0, limit: 50)).map(\.id) == [dinner.id])
        let lines = try await offline.expenses.activity(of: adaUser.id, page: PageRequest(offset: 0, limit: 50)).filter { $0.subject == dinner.id }
        #expect(lines.count == 1)
        #expect(try await offline.expenses.balances(of: adaUser.id) == (try await direct.expenses.balances(of: adaUser.id)))

        // The refused one stays, with the server's reason, until dropped.
        let queue = try #require(offline.writeQueue(of: adaUser.id))
        let left = try await queue.writes(of: adaUser.id)
        #expect(left.map(\.summary) == ["add Taxi, 10.00 EUR"])
        #expect(left.first?.refusal?.kind == .refused)
        #expect(left.first?.refusal?.reason.hasPrefix("Not among your friends or contacts") == true, "\(left.first?.refusal?.reason ?? "nil")")
        // `flows sync --status` names Bob as the replica knows him, not by his id.
        let named = await offline.naming(try #require(left.first?.refusal?.reason), for: adaUser.id)
        #expect(named == "Not among your friends or contacts: \(bobUser.displayName.value). Add them as a friend or a contact first.", "\(named)")
        let status = try #require(await offline.replicaChanges?.status(of: adaUser.id))
        #expect(status.notSynced == 1 && status.waiting == 0)
        let pending = try await #require(offline.replicaChanges).writes(of: adaUser.id)
        #expect(pending.map(\.reason) == [named] && pending.map(\.outcome) == [.refused] && pending.map(\.explanation) == [nil])
        // The app's Sync screen says why, and drops it.
        let transcript = try await ConflictWalkthroughTests.run(
            """
            flow Sync
            expect text "[x] Not synced: add Taxi, 10.00 EUR"
            expect text "The server did not take it: \(named)"
            tap drop
            expect text "Dropped add Taxi, 10.00 EUR: it will not be sent."
            expect text "All your changes are on the server."
            back
            """,
            on: offline
        )
        #expect(transcript.contains("Actions: Drop it (drop) | Sync now (sync-now) | Back (back, cancel)"), "\(transcript)")
        #expect(try await queue.writes(of: adaUser.id).isEmpty)

        // Online again, a new expense goes straight to the server.
        let lunch = try await offline.expenses.add(Self.draft("Lunch", 2000, by: adaUser.id, with: sam.id), by: adaUser.id)
        #expect(try await direct.expenses.expense(lunch.id, for: adaUser.id) != nil)
        #expect(try await queue.writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("an edit made offline from a version someone changed meanwhile is a conflict, and the expense comes back as they left it; a delete made offline goes through")
    func editedOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-edits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, bobHome, first, ada, adaUser, bobUser) = (world.adaHome, world.bobHome, world.first, world.ada, world.adaUser, world.bobUser)
        let dinner = try await ada.expenses.add(Self.draft("Dinner", 3000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        let lunch = try await ada.expenses.add(Self.draft("Lunch", 2000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        await ada.pullReplica()
        await first.stop()

        let offline = AppContainer.remote(server: first.url, location: adaHome)
        _ = try await offline.accounts.storedSession()
        let mine = try await offline.expenses.edit(dinner.id, to: Self.draft("Team dinner", 3000, by: adaUser.id, with: bobUser.id), from: 1, by: adaUser.id)
        #expect(mine.description == "Team dinner" && mine.version == 2)
        try await offline.expenses.delete(lunch.id, from: 1, by: adaUser.id)
        #expect(try await offline.expenses.expense(lunch.id, for: adaUser.id) == nil)
        #expect(try await offline.expenses.expense(dinner.id, for: adaUser.id)?.description == "Team dinner")

        // Back; Bob changes the dinner's amount before Ada syncs.
        let second = try await world.restart()
        let bobAgain = AppContainer.remote(server: second.url, location: bobHome)
        _ = try await bobAgain.expenses.edit(dinner.id, to: Self.draft("Dinner", 3600, by: adaUser.id, with: bobUser.id), from: 1, by: bobUser.id)
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 1, refused: 0, conflicts: 1, waiting: 0))
        // Ada's replica has the dinner as Bob left it, and no lunch; so has the server.
        let kept = try #require(try await offline.expenses.expense(dinner.id, for: adaUser.id))
        #expect(kept.description == "Dinner" && kept.amount == Money(minorUnits: 3600, currency: .eur) && kept.version == 2)
        #expect(try await offline.expenses.expense(lunch.id, for: adaUser.id) == nil)
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        #expect(try await direct.expenses.expense(lunch.id, for: adaUser.id) == nil)
        #expect(try await direct.expenses.deletedExpenses(of: adaUser.id, page: PageRequest(offset: 0, limit: 10)).map(\.id) == [lunch.id])
        #expect(try await offline.expenses.balances(of: adaUser.id) == (try await direct.expenses.balances(of: adaUser.id)))
        let left = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(left.map(\.summary) == ["change Team dinner, 30.00 EUR"])
        #expect(left.first?.refusal?.kind == .conflict)
        #expect(left.first?.refusal?.reason.hasPrefix("Someone changed this expense") == true, "\(left.first?.refusal?.reason ?? "nil")")
        // Both changes, in words; then Ada makes hers again on top of Bob's.
        let conflict = try #require(left.first)
        let explanation = await offline.explanation(of: conflict, for: adaUser.id)
        #expect(
            explanation == "Bob Stone changed Dinner while you were offline: the amount (30.00 EUR → 36.00 EUR). Yours: the description (Dinner → Team dinner)."
        )
        let merged = try #require(try await offline.applyMine(conflict.operation.key, for: adaUser.id))
        #expect(merged.description == "Team dinner" && merged.amount == Money(minorUnits: 3600, currency: .eur) && merged.version == 3)
        #expect(try await direct.expenses.expense(dinner.id, for: adaUser.id) == merged)
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("a comment written offline and one deleted offline show at once and wait; the next sync makes both on the server, each line of activity once")
    func commentedOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-comments-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, first, ada, adaUser, bobUser) = (world.adaHome, world.first, world.ada, world.adaUser, world.bobUser)
        let dinner = try await ada.expenses.add(Self.draft("Dinner", 3000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        let early = try await ada.expenses.comment("Booked for eight", on: dinner.id, by: adaUser.id)
        await ada.pullReplica()
        await first.stop()

        let offline = AppContainer.remote(server: first.url, location: adaHome)
        _ = try await offline.accounts.storedSession()
        let late = try await offline.expenses.comment("Moved to nine", on: dinner.id, by: adaUser.id)
        try await offline.expenses.deleteComment(early.id, on: dinner.id, by: adaUser.id)
        #expect(try await offline.expenses.comments(on: dinner.id, for: adaUser.id).map(\.text) == ["Moved to nine"])
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["comment on Dinner", "delete a comment on Dinner"])
        #expect(queued.map(\.operation.operation) == ["addComment", "deleteComment"])

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 2, refused: 0, conflicts: 0, waiting: 0))
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        let kept = try await direct.expenses.comments(on: dinner.id, for: adaUser.id)
        #expect(kept.map(\.id) == [late.id] && kept.map(\.text) == ["Moved to nine"])
        let mine = try await offline.expenses.comments(on: dinner.id, for: adaUser.id)
        #expect(mine == kept, "\(mine) \(kept)")
        let page = PageRequest(offset: 0, limit: 50)
        #expect(try await offline.expenses.activity(of: adaUser.id, page: page) == (try await direct.expenses.activity(of: adaUser.id, page: page)))
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("an edit whose answers were lost is, sent again or queued and pushed, the same edit: never a conflict with itself")
    func answersLost() async throws {
        let services = ServerServices.sqlite(.memory, fast: true)
        let server = try await RunningServer.start(services: services)
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let sam = try await services.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let dinner = try await services.expenses.add(Self.draft("Dinner", 3000, by: ada.id, with: sam.id), by: ada.id)
        let cable = Cable(serverUp: Flag(true))
        let tokens = InMemorySessionTokenStore()
        let app = AppContainer.remote(server: server.url, tokens: tokens, replicasInMemory: true, transport: cable)
        _ = try await app.accounts.signIn(email: "ada@example.com", password: "correct horse")
        _ = try await app.expenses.balances(of: ada.id)

        // One answer lost: the connection sends the edit again under its key, and the server
        // answers as the first time.
        cable.lose(1)
        let once = try await app.expenses.edit(dinner.id, to: Self.draft("Team dinner", 3000, by: ada.id, with: sam.id), from: 1, by: ada.id)
        #expect(once.version == 2)
        #expect(try await #require(app.writeQueue(of: ada.id)).writes(of: ada.id).isEmpty)
        // Every answer lost: the edit is queued under the key it was sent with; pushed, it is
        // the edit the server has, not a conflict.
        cable.lose(APIConnection.tries)
        let queued = try await app.expenses.edit(dinner.id, to: Self.draft("Team dinner", 4000, by: ada.id, with: sam.id), from: 2, by: ada.id)
        #expect(queued.version == 3)
        #expect(try await #require(app.writeQueue(of: ada.id)).writes(of: ada.id).map(\.summary) == ["change Team dinner, 40.00 EUR"])
        let report = try #require(await app.syncReplica(of: ada.id)).get()
        #expect(report.push == PushReport(pushed: 1, refused: 0, conflicts: 0, waiting: 0))
        let kept = try #require(try await services.expenses.expense(dinner.id, for: ada.id))
        #expect(kept.version == 3 && kept.amount == Money(minorUnits: 4000, currency: .eur))
        #expect(try await app.expenses.expense(dinner.id, for: ada.id) == kept)
        await server.stop()
        await services.close()
    }

    @Test("the app open syncs in the background: a change made elsewhere comes in, and a write made offline goes once the server is back")
    func syncsInBackground() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-background-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, bobHome, first, ada, adaUser, bobUser) = (world.adaHome, world.bobHome, world.first, world.ada, world.adaUser, world.bobUser)
        await ada.pullReplica()
        // How often the screen open was told to read again.
        let told = Mutex(0)
        let background = try #require(ada.syncingInBackground(every: .milliseconds(100)) { told.withLock { $0 += 1 } })
        defer { background.cancel() }
        // Syncs that bring nothing tell nothing.
        try await Task.sleep(for: .milliseconds(350))
        #expect(told.withLock { $0 } == 0)
        let bob = AppContainer.remote(server: first.url, location: bobHome)
        let lunch = try await bob.expenses.add(Self.draft("Lunch", 2000, by: bobUser.id, with: adaUser.id), by: bobUser.id)
        // Ada does nothing; her replica has Bob's lunch within moments, and her screen is told.
        #expect(await Self.eventually { (try? await ada.expenses.expense(lunch.id, for: adaUser.id)) != nil })
        #expect(await Self.eventually { told.withLock { $0 } >= 1 })
        let afterLunch = told.withLock { $0 }

        await first.stop()
        // The server gone: the screen is told (it says so), once.
        #expect(await Self.eventually { told.withLock { $0 } == afterLunch + 1 })
        let taxi = try await ada.expenses.add(Self.draft("Taxi", 1000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        #expect(try await #require(ada.writeQueue(of: adaUser.id)).writes(of: adaUser.id).count == 1)
        // (A sync that fails as the others did tells nothing: only one that began before the
        // taxi and ended after it may.)
        try await Task.sleep(for: .milliseconds(450))
        #expect(told.withLock { $0 } <= afterLunch + 2)
        let second = try await world.restart()
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        #expect(await Self.eventually { (try? await direct.expenses.expense(taxi.id, for: adaUser.id)) != nil })
        #expect(await Self.eventually { (try? await ada.writeQueue(of: adaUser.id)?.writes(of: adaUser.id).isEmpty) == true })
        // Back, with the taxi pushed: told again.
        #expect(await Self.eventually { told.withLock { $0 } >= afterLunch + 2 })
        // Without the task nothing comes: the app asks the server only as it opens, writes and ends.
        background.cancel()
        try await Task.sleep(for: .milliseconds(300))
        let dinner = try await bob.expenses.add(Self.draft("Dinner", 3000, by: bobUser.id, with: adaUser.id), by: bobUser.id)
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await ada.expenses.expense(dinner.id, for: adaUser.id) == nil)
        await second.stop()
    }

    @Test("the open app hears of a theme chosen on another device from its replica, once a sync brings it, not by asking the server every moment")
    func themeFromReplica() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-theme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, first, ada, adaUser) = (world.adaHome, world.first, world.ada, world.adaUser)
        await ada.pullReplica()
        let heard = Mutex<[Preferences]>([])
        let listening = Task {
            for await preferences in ada.preferences.changes(of: adaUser.id) { heard.withLock { $0.append(preferences) } }
        }
        defer { listening.cancel() }
        #expect(await Self.eventually { heard.withLock { $0.last?.theme } == .dark })
        // Another device of Ada's chooses the light theme: the app hears of it from its
        // replica, after the next sync, not by asking the server again and again.
        let elsewhere = AppContainer.remote(server: first.url, location: adaHome, replicated: false)
        try await elsewhere.preferences.update(Preferences(theme: .light, defaultCurrency: .eur), of: adaUser.id)
        try await Task.sleep(for: .seconds(1))
        #expect(heard.withLock { $0.last?.theme } == .dark)
        _ = await ada.syncReplica(of: adaUser.id)
        #expect(await Self.eventually { heard.withLock { $0.last?.theme } == .light })
        await first.stop()
    }

    @Test("the app asks the server to make due occurrences only when the replica holds a series of the user's")
    func dueOccurrencesAskedOnlyForSeries() async throws {
        let services = ServerServices.sqlite(.memory, fast: true)
        let server = try await RunningServer.start(services: services)
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let sam = try await services.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let cable = Cable(serverUp: Flag(true))
        let app = AppContainer.remote(server: server.url, tokens: InMemorySessionTokenStore(), replicasInMemory: true, transport: cable)
        _ = try await app.accounts.signIn(email: "ada@example.com", password: "correct horse")
        let recurring = try #require(app.recurring)
        let day = try Day("2026-12-31")
        // No series: nothing to ask, so a cut cable makes no difference.
        cable.online = false
        #expect(try await recurring.createDueOccurrences(through: day, for: ada.id).isEmpty)
        // A series: the server is asked (and, cut off, cannot answer).
        cable.online = true
        let rent = try await app.expenses.add(Self.draft("Rent", 50_000, by: ada.id, with: sam.id), by: ada.id)
        _ = try await recurring.repeatExpense(rent.id, every: .monthly(day: 22), until: nil, by: ada.id)
        cable.online = false
        await #expect(throws: ExpensesError.self) { try await recurring.createDueOccurrences(through: day, for: ada.id) }
        await server.stop()
        await services.close()
    }

    /// Whether `condition` holds within five seconds, asked every 50 ms.
    static func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<100 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("an id given for a new expense is kept; the same id from someone else is refused, and from the same user answers the expense again")
    func clientMadeIDs() async throws {
        let services = ServerServices.sqlite(.memory, fast: true)
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let sam = try await services.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let cy = try await services.accounts.signUp(email: "cy@example.com", displayName: "Cy Young", password: "correct horse")
        let id = ExpenseID(rawValue: UUID().uuidString.lowercased())
        let added = try await services.expenses.add(Self.draft("Dinner", 3000, by: ada.id, with: sam.id), as: id, by: ada.id)
        #expect(added.id == id)
        let again = try await services.expenses.add(Self.draft("Dinner", 3000, by: ada.id, with: sam.id), as: id, by: ada.id)
        #expect(again == added)
        #expect(try await services.expenses.balances(of: ada.id).map(\.amount) == [Money(minorUnits: 1500, currency: .eur)])
        await #expect(throws: ExpensesError.idTaken(id)) {
            try await services.expenses.add(Self.draft("Lunch", 1000, by: cy.id, with: cy.id), as: id, by: cy.id)
        }
        await services.close()
    }

    @Test("a payment recorded offline moves the balance at once and waits; the next sync records it on the server under its id, once")
    func settledOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-payments-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, first, ada, adaUser, bobUser) = (world.adaHome, world.first, world.ada, world.adaUser, world.bobUser)
        _ = try await ada.expenses.add(Self.draft("Dinner", 3000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        await ada.pullReplica()
        await first.stop()

        // Offline, Bob pays Ada back the 15.00 he owes her; Ada records it.
        let offline = AppContainer.remote(server: first.url, location: adaHome)
        _ = try await offline.accounts.storedSession()
        let day = try Day("2026-11-23")
        let paid = try await offline.expenses.settle(from: bobUser.id, to: adaUser.id, amount: Money(minorUnits: 1500, currency: .eur), day: day, by: adaUser.id)
        #expect(try await offline.expenses.balances(of: adaUser.id).isEmpty)
        #expect(try await offline.expenses.settlement(paid.id, for: adaUser.id) == paid)
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["Bob Stone paid you 15.00 EUR"])
        #expect(queued.map(\.operation.operation) == ["settleUp"])
        // Too much, offline as online: the same rule refuses it, and nothing is queued.
        await #expect(throws: ExpensesError.self) {
            try await offline.expenses.settle(from: adaUser.id, to: adaUser.id, amount: Money(minorUnits: 100, currency: .eur), day: day, by: adaUser.id)
        }
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).count == 1)

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 1, refused: 0, conflicts: 0, waiting: 0))
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        #expect(try await direct.expenses.settlements(of: adaUser.id, page: PageRequest(offset: 0, limit: 10)).map(\.id) == [paid.id])
        #expect(try await direct.expenses.balances(of: adaUser.id).isEmpty)
        // The replica has it as the server does, with one line of activity: the server's.
        #expect(try await offline.expenses.settlement(paid.id, for: adaUser.id) == (try await direct.expenses.settlement(paid.id, for: adaUser.id)))
        let lines = try await offline.expenses.activity(of: adaUser.id, page: PageRequest(offset: 0, limit: 50)).filter { $0.subject == paid.id }
        #expect(lines.count == 1)
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("a payment taken back and an expense restored offline show at once and wait; the next sync makes both on the server")
    func undoneOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-undo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, first, ada, adaUser, bobUser) = (world.adaHome, world.first, world.ada, world.adaUser, world.bobUser)
        _ = try await ada.expenses.add(Self.draft("Dinner", 3000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        let lunch = try await ada.expenses.add(Self.draft("Lunch", 2000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        try await ada.expenses.delete(lunch.id, from: lunch.version, by: adaUser.id)
        let paid = try await ada.expenses.settle(from: bobUser.id, to: adaUser.id, amount: Money(minorUnits: 1500, currency: .eur), day: try Day("2026-11-23"), by: adaUser.id)
        await ada.pullReplica()
        #expect(try await ada.expenses.balances(of: adaUser.id).isEmpty)
        await first.stop()

        let offline = AppContainer.remote(server: first.url, location: adaHome)
        _ = try await offline.accounts.storedSession()
        try await offline.expenses.undoSettlement(paid.id, by: adaUser.id)
        let restored = try await offline.expenses.restore(lunch.id, by: adaUser.id)
        #expect(restored.description == "Lunch")
        #expect(try await offline.expenses.settlement(paid.id, for: adaUser.id) == nil)
        #expect(try await offline.expenses.balances(of: adaUser.id).map(\.amount) == [Money(minorUnits: 2500, currency: .eur)])
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["take back Bob Stone's payment, 15.00 EUR", "restore Lunch"])
        #expect(queued.map(\.operation.operation) == ["undoSettlement", "restoreExpense"])

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 2, refused: 0, conflicts: 0, waiting: 0))
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        #expect(try await direct.expenses.settlements(of: adaUser.id, page: PageRequest(offset: 0, limit: 10)).isEmpty)
        #expect(try await direct.expenses.expense(lunch.id, for: adaUser.id)?.description == "Lunch")
        #expect(try await offline.expenses.balances(of: adaUser.id) == (try await direct.expenses.balances(of: adaUser.id)))
        // Each line of activity once, the server's: the payment recorded and taken back; the
        // lunch added, deleted and restored.
        let page = PageRequest(offset: 0, limit: 50)
        let mine = try await offline.expenses.activity(of: adaUser.id, page: page)
        #expect(mine == (try await direct.expenses.activity(of: adaUser.id, page: page)))
        #expect(mine.filter { $0.subject == paid.id }.map(\.kind) == [.unsettled, .settled])
        #expect(mine.filter { $0.subject == lunch.id }.map(\.kind) == [.restored, .deleted, .added])
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("a balance converted offline into another currency moves at once and waits; the next sync records it on the server under its id")
    func convertedOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-conversion-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, first, ada, adaUser, bobUser) = (world.adaHome, world.first, world.ada, world.adaUser, world.bobUser)
        let yen = Money(minorUnits: 45_000, currency: .jpy)
        let sushi = ExpenseDraft(
            description: "Sushi", amount: yen, day: try Day("2026-11-21"), category: .food, payers: [Payer(user: adaUser.id, amount: yen)],
            participants: [adaUser.id, bobUser.id], rule: .equal
        )
        _ = try await ada.expenses.add(sushi, by: adaUser.id)
        await ada.pullReplica()
        await first.stop()

        let offline = AppContainer.remote(server: first.url, location: adaHome)
        _ = try await offline.accounts.storedSession()
        let published = try #require(PublishedRate("160"))
        let rate = try #require(ExchangeRate(base: .eur, quote: .jpy, rate: published))
        let owed = Money(minorUnits: 22_500, currency: .jpy)
        let converted = try await offline.expenses.convert(owed, with: bobUser.id, at: rate, source: "agreed", day: try Day("2026-11-23"), in: nil, by: adaUser.id)
        #expect(try await offline.expenses.balances(of: adaUser.id).map(\.amount) == [Money(minorUnits: 14_063, currency: .eur)])
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.operation.operation) == ["convertBalance"])
        #expect(queued.first?.summary.hasPrefix("convert 22500 JPY with Bob Stone at ") == true, "\(queued.map(\.summary))")

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 1, refused: 0, conflicts: 0, waiting: 0))
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        #expect(try await direct.expenses.settlement(converted.id, for: adaUser.id) == (try await offline.expenses.settlement(converted.id, for: adaUser.id)))
        #expect(try await direct.expenses.balances(of: adaUser.id) == (try await offline.expenses.balances(of: adaUser.id)))
        let page = PageRequest(offset: 0, limit: 50)
        #expect(try await offline.expenses.activity(of: adaUser.id, page: page) == (try await direct.expenses.activity(of: adaUser.id, page: page)))
        await second.stop()
    }

    @Test("an id given for a new payment is kept; the same id again from its author answers the payment, from anyone else or for an expense is refused")
    func clientMadePaymentIDs() async throws {
        let services = ServerServices.sqlite(.memory, fast: true)
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let sam = try await services.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let cy = try await services.accounts.signUp(email: "cy@example.com", displayName: "Cy Young", password: "correct horse")
        let cyContact = try await services.friends.addContact(name: "Dee", email: nil, by: cy.id)
        let (id, day) = (ExpenseID(rawValue: UUID().uuidString.lowercased()), try Day("2026-11-23"))
        let amount = Money(minorUnits: 500, currency: .eur)
        let paid = try await services.expenses.settle(from: ada.id, to: sam.id, amount: amount, day: day, in: nil, as: id, by: ada.id)
        #expect(paid.id == id)
        let again = try await services.expenses.settle(from: ada.id, to: sam.id, amount: amount, day: day, in: nil, as: id, by: ada.id)
        #expect(again == paid)
        #expect(try await services.expenses.settlements(of: ada.id, page: PageRequest(offset: 0, limit: 10)).count == 1)
        #expect(try await services.expenses.balances(of: ada.id).map(\.amount) == [amount])
        await #expect(throws: ExpensesError.idTaken(id)) {
            try await services.expenses.settle(from: cy.id, to: cyContact.id, amount: amount, day: day, in: nil, as: id, by: cy.id)
        }
        await #expect(throws: ExpensesError.idTaken(id)) {
            try await services.expenses.add(Self.draft("Lunch", 1000, by: cy.id, with: nil), as: id, by: cy.id)
        }
        // Taken back, the id stays the payment's.
        try await services.expenses.undoSettlement(id, by: ada.id)
        await #expect(throws: ExpensesError.idTaken(id)) {
            try await services.expenses.settle(from: ada.id, to: sam.id, amount: amount, day: day, in: nil, as: id, by: ada.id)
        }
        await services.close()
    }

    @Test("a contact added offline, and an expense with them, show at once and wait; the next sync makes both on the server, the contact under its id")
    func contactOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-contact-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, adaUser) = (world.adaHome, world.adaUser)
        let offline = try await world.adaOffline()
        let sam = try await offline.friends.addContact(name: "Sam Park", email: "sam@example.com", by: adaUser.id)
        #expect(try await offline.friends.friend(sam.id, of: adaUser.id) == sam)
        // The same rules as online: a second Sam is refused, and nothing more is queued.
        await #expect(throws: FriendsError.contactNameTaken(try DisplayName("sam park"))) {
            try await offline.friends.addContact(name: "sam park", email: nil, by: adaUser.id)
        }
        let taxi = try await offline.expenses.add(Self.draft("Taxi", 1000, by: adaUser.id, with: sam.id), by: adaUser.id)
        #expect(try await offline.expenses.balances(of: adaUser.id).first { $0.other == sam.id }?.amount == Money(minorUnits: 500, currency: .eur))
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["add the contact Sam Park", "add Taxi, 10.00 EUR"])
        #expect(queued.map(\.operation.operation) == ["addContact", "addExpense"])

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 2, refused: 0, conflicts: 0, waiting: 0))
        // The server has Sam under the id made offline, and the taxi with them.
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        #expect(try await direct.friends.friend(sam.id, of: adaUser.id) == sam)
        #expect(try await direct.expenses.expense(taxi.id, for: adaUser.id)?.people.contains(sam.id) == true)
        #expect(try await offline.friends.friends(of: adaUser.id) == (try await direct.friends.friends(of: adaUser.id)))
        #expect(try await offline.expenses.balances(of: adaUser.id) == (try await direct.expenses.balances(of: adaUser.id)))
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("a contact added offline whose email has an account is refused when pushed, and leaves the replica")
    func contactRefused() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-contact-refused-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let adaUser = world.adaUser
        // Only the server knows whose email it is: Cy has an account, which Ada's replica does not know of.
        let other = AppContainer.remote(server: world.first.url, location: StoreLocation(directory: home.appendingPathComponent("cy")), replicated: false)
        _ = try await other.accounts.signUp(email: "cy@example.com", displayName: "Cy Young", password: "correct horse")
        let offline = try await world.adaOffline()
        let cy = try await offline.friends.addContact(name: "Cy", email: "cy@example.com", by: adaUser.id)
        #expect(try await offline.friends.friend(cy.id, of: adaUser.id) == cy)
        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 0, refused: 1, conflicts: 0, waiting: 0))
        #expect(try await offline.friends.friend(cy.id, of: adaUser.id) == nil)
        let left = try await #require(offline.replicaChanges).writes(of: adaUser.id)
        #expect(left.map(\.summary) == ["add the contact Cy"])
        #expect(left.first?.reason == FriendsError.emailHasAccount("cy@example.com").message)
        await second.stop()
    }

    @Test("preferences set offline show at once (the screens' theme follows) and wait; the next sync stores them on the server")
    func preferencesOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-preferences-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, adaUser) = (world.adaHome, world.adaUser)
        let offline = try await world.adaOffline()
        let heard = Mutex<[Preferences]>([])
        let listening = Task { for await preferences in offline.preferences.changes(of: adaUser.id) { heard.withLock { $0.append(preferences) } } }
        defer { listening.cancel() }
        #expect(await Self.eventually { !heard.withLock { $0 }.isEmpty })
        let chosen = Preferences(theme: .light, defaultCurrency: .jpy)
        try await offline.preferences.update(chosen, of: adaUser.id)
        #expect(try await offline.preferences.preferences(of: adaUser.id) == chosen)
        #expect(await Self.eventually { heard.withLock { $0.last } == chosen })
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["set the light theme and JPY as the usual currency"])
        #expect(queued.map(\.operation.operation) == ["updatePreferences"])

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 1, refused: 0, conflicts: 0, waiting: 0))
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        #expect(try await direct.preferences.preferences(of: adaUser.id) == chosen)
        #expect(try await offline.preferences.preferences(of: adaUser.id) == chosen)
        await second.stop()
    }

    @Test("a name and an avatar changed offline show at once and wait; the next sync makes both on the server, and Bob sees them")
    func accountOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-account-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, bobHome, adaUser, bobUser) = (world.adaHome, world.bobHome, world.adaUser, world.bobUser)
        let offline = try await world.adaOffline()
        let renamed = try await offline.accounts.changeDisplayName(to: "Countess Ada", of: adaUser.id)
        #expect(renamed.displayName.value == "Countess Ada")
        // The rules as online: an empty name is refused, and nothing more is queued.
        await #expect(throws: AccountsError.self) { try await offline.accounts.changeDisplayName(to: "  ", of: adaUser.id) }
        try await offline.accounts.changeAvatar(to: .initials(.teal), of: adaUser.id)
        #expect(try await offline.accounts.avatar(of: adaUser.id) == .initials(.teal))
        #expect(try await offline.accounts.storedSession() == .signedIn(renamed))
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["change your name to Countess Ada", "show your initials as your avatar"])

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 2, refused: 0, conflicts: 0, waiting: 0))
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        #expect(try await direct.accounts.users([adaUser.id], for: adaUser.id).first?.displayName.value == "Countess Ada")
        #expect(try await direct.accounts.avatar(of: adaUser.id) == .initials(.teal))
        let bob = AppContainer.remote(server: second.url, location: bobHome, replicated: false)
        #expect(try await bob.friends.friend(adaUser.id, of: bobUser.id)?.name.value == "Countess Ada")
        #expect(try await offline.accounts.users([adaUser.id], for: adaUser.id).first?.displayName.value == "Countess Ada")
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("an id given for a new contact is kept; the same id again from its owner answers the contact; an account's or another's contact's id is refused")
    func clientMadeContactIDs() async throws {
        let services = ServerServices.sqlite(.memory, fast: true)
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let cy = try await services.accounts.signUp(email: "cy@example.com", displayName: "Cy Young", password: "correct horse")
        let id = UserID(rawValue: UUID().uuidString.lowercased())
        let sam = try await services.friends.addContact(name: "Sam Park", email: nil, as: id, by: ada.id)
        #expect(sam.id == id)
        #expect(try await services.friends.addContact(name: "Sam Park", email: nil, as: id, by: ada.id) == sam)
        #expect(try await services.friends.friends(of: ada.id).count == 1)
        await #expect(throws: FriendsError.idTaken(id)) { try await services.friends.addContact(name: "Dee", email: nil, as: id, by: cy.id) }
        await #expect(throws: FriendsError.idTaken(cy.id)) { try await services.friends.addContact(name: "Dee", email: nil, as: cy.id, by: ada.id) }
        await services.close()
    }

    @Test("a request declined, a contact renamed and one removed offline show at once and wait; the next sync makes them on the server")
    func friendsOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-friends-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (adaHome, adaUser) = (world.adaHome, world.adaUser)
        let cyHome = StoreLocation(directory: home.appendingPathComponent("cy"))
        let cy = AppContainer.remote(server: world.first.url, location: cyHome, replicated: false)
        let cyUser = try await cy.accounts.signUp(email: "cy@example.com", displayName: "Cy Young", password: "correct horse")
        _ = try await cy.friends.add(.email("ada@example.com"), by: cyUser.id)
        let sam = try await world.ada.friends.addContact(name: "Sam Park", email: nil, by: adaUser.id)
        let dee = try await world.ada.friends.addContact(name: "Dee", email: nil, by: adaUser.id)
        let offline = try await world.adaOffline()

        try await offline.friends.dropRequest(with: cyUser.id, by: adaUser.id)
        #expect(try await offline.friends.requests(of: adaUser.id).incoming.isEmpty)
        #expect(try await offline.friends.renameContact(sam.id, to: "Sam P.", by: adaUser.id).name.value == "Sam P.")
        try await offline.friends.remove(dee.id, by: adaUser.id)
        #expect(try await offline.friends.friend(dee.id, of: adaUser.id) == nil)
        // The same rules as online: no request from Dee to decline, and nothing more is queued;
        // accepting needs the server.
        await #expect(throws: FriendsError.noRequest) { try await offline.friends.dropRequest(with: dee.id, by: adaUser.id) }
        await #expect(throws: FriendsError.self) { try await offline.friends.accept(cyUser.id, by: adaUser.id) }
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["drop the friend request with Cy Young", "rename the contact Sam Park to Sam P.", "remove Dee"])

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 3, refused: 0, conflicts: 0, waiting: 0))
        let direct = AppContainer.remote(server: second.url, location: adaHome, replicated: false)
        let onServer = try await direct.friends.friends(of: adaUser.id)
        #expect(Set(onServer.map(\.name.value)) == ["Bob Stone", "Sam P."])
        #expect(try await offline.friends.friends(of: adaUser.id) == onServer)
        #expect(try await direct.friends.requests(of: adaUser.id) == FriendRequests())
        let cyAgain = AppContainer.remote(server: second.url, location: cyHome, replicated: false)
        #expect(try await cyAgain.friends.requests(of: cyUser.id).outgoing.isEmpty)
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("a friend removed offline who shared an expense meanwhile is not removed when pushed; the replica says why and has them back")
    func removeRefused() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-remove-refused-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (bobHome, adaUser, bobUser) = (world.bobHome, world.adaUser, world.bobUser)
        let offline = try await world.adaOffline()
        try await offline.friends.remove(bobUser.id, by: adaUser.id)
        #expect(try await offline.friends.friend(bobUser.id, of: adaUser.id) == nil)

        let second = try await world.restart()
        let bob = AppContainer.remote(server: second.url, location: bobHome, replicated: false)
        _ = try await bob.expenses.add(Self.draft("Taxi", 1000, by: bobUser.id, with: adaUser.id), by: bobUser.id)
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 0, refused: 1, conflicts: 0, waiting: 0))
        #expect(try await offline.friends.friend(bobUser.id, of: adaUser.id)?.name.value == "Bob Stone")
        let left = try await #require(offline.replicaChanges).writes(of: adaUser.id)
        #expect(left.map(\.summary) == ["remove Bob Stone"])
        #expect(left.first?.reason == FriendsError.notSettled(try DisplayName("Bob Stone"), [Money(minorUnits: -500, currency: .eur)]).message)
        await second.stop()
    }

    @Test("a group renamed, grown and archived offline shows at once and waits; the next sync makes each change on the server, and Bob sees them")
    func groupOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-group-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (bobHome, adaUser, bobUser) = (world.bobHome, world.adaUser, world.bobUser)
        let sam = try await world.ada.friends.addContact(name: "Sam Park", email: nil, by: adaUser.id)
        let trip = try await world.ada.groups.create(GroupDraft(name: "Trip", currency: .eur, members: [bobUser.id]), by: adaUser.id)
        let offline = try await world.adaOffline()

        let renamed = try await offline.groups.update(trip.id, to: GroupSettings(name: "Beach trip", currency: .eur), by: adaUser.id)
        #expect(renamed.name == "Beach trip")
        #expect(try await offline.groups.addMembers([sam.id], to: trip.id, by: adaUser.id).members == [adaUser.id, bobUser.id, sam.id])
        #expect(try await offline.groups.setArchived(true, trip.id, by: adaUser.id).archived)
        // The same rules as online: an archived group changes only by being brought back.
        await #expect(throws: GroupsError.archived) {
            try await offline.groups.update(trip.id, to: GroupSettings(name: "Lake trip", currency: .eur), by: adaUser.id)
        }
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["rename the group Trip to Beach trip", "add Sam Park to the group Beach trip", "archive the group Beach trip"])

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 3, refused: 0, conflicts: 0, waiting: 0))
        let bob = AppContainer.remote(server: second.url, location: bobHome, replicated: false)
        let seen = try #require(try await bob.groups.group(trip.id, for: bobUser.id))
        #expect(seen.name == "Beach trip")
        #expect(seen.members == [adaUser.id, bobUser.id, sam.id])
        #expect(seen.archived)
        #expect(try await offline.groups.group(trip.id, for: adaUser.id) == seen)
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("an expense made to repeat offline, and a series stopped offline, show at once and wait; the next sync makes both on the server, the new series under its id")
    func seriesOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-series-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (bobHome, adaUser, bobUser) = (world.bobHome, world.adaUser, world.bobUser)
        let online = try #require(world.ada.recurring)
        let gym = try await world.ada.expenses.add(Self.draft("Gym", 3000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        let weekly = try await online.repeatExpense(gym.id, every: .weeks(1), until: nil, by: adaUser.id)
        let rent = try await world.ada.expenses.add(Self.draft("Rent", 50_000, by: adaUser.id, with: bobUser.id), by: adaUser.id)
        let offline = try await world.adaOffline()
        let recurring = try #require(offline.recurring)

        let monthly = try await recurring.repeatExpense(rent.id, every: .monthly(day: 22), until: nil, by: adaUser.id)
        #expect(try await recurring.series(containing: rent.id, for: adaUser.id) == monthly)
        let end = try Day("2026-12-31")
        let stopped = try await recurring.stopSeries(weekly.id, after: end, by: adaUser.id)
        #expect(stopped.recurrence.end == .on(end))
        // The same rules as online: an expense that repeats already is refused, and nothing more is queued.
        await #expect(throws: ExpensesError.self) { try await recurring.repeatExpense(rent.id, every: .yearly, until: nil, by: adaUser.id) }
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["repeat Rent", "stop repeating Gym after 2026-12-31"])

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 2, refused: 0, conflicts: 0, waiting: 0))
        let bob = try #require(AppContainer.remote(server: second.url, location: bobHome, replicated: false).recurring)
        let seen = try #require(try await bob.series(containing: rent.id, for: bobUser.id))
        #expect(seen.id == monthly.id)
        #expect(seen.recurrence == monthly.recurrence)
        #expect(try await bob.series(containing: gym.id, for: bobUser.id)?.recurrence.end == .on(end))
        #expect(try await recurring.series(containing: rent.id, for: adaUser.id) == seen)
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("a group made offline, and an expense in it, show at once and wait; the next sync makes both on the server, the group under its id")
    func groupMadeOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-group-made-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (bobHome, adaUser, bobUser) = (world.bobHome, world.adaUser, world.bobUser)
        let offline = try await world.adaOffline()
        let ski = try await offline.groups.create(GroupDraft(name: "Ski", currency: .eur, members: [bobUser.id]), by: adaUser.id)
        #expect(try await offline.groups.group(ski.id, for: adaUser.id) == ski)
        // The same rules as online: a stranger is not a member, and nothing more is queued.
        await #expect(throws: GroupsError.unknownPeople([UserID(rawValue: "stranger")])) {
            try await offline.groups.create(GroupDraft(name: "Ski", currency: .eur, members: [UserID(rawValue: "stranger")]), by: adaUser.id)
        }
        var pass = Self.draft("Lift pass", 6000, by: adaUser.id, with: bobUser.id)
        pass.group = ski.id
        let lift = try await offline.expenses.add(pass, by: adaUser.id)
        let queued = try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id)
        #expect(queued.map(\.summary) == ["make the group Ski", "add Lift pass, 60.00 EUR"])

        let second = try await world.restart()
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 2, refused: 0, conflicts: 0, waiting: 0))
        let bob = AppContainer.remote(server: second.url, location: bobHome, replicated: false)
        let seen = try #require(try await bob.groups.group(ski.id, for: bobUser.id))
        #expect(seen.name == "Ski")
        #expect(seen.members == [adaUser.id, bobUser.id])
        #expect(try await bob.expenses.expenses(in: ski.id, for: bobUser.id, page: PageRequest(limit: 10)).map(\.id) == [lift.id])
        #expect(try await offline.groups.group(ski.id, for: adaUser.id) == seen)
        #expect(try await #require(offline.writeQueue(of: adaUser.id)).writes(of: adaUser.id).isEmpty)
        await second.stop()
    }

    @Test("an id given for a new group is kept; the same id again from its maker answers the group; from anyone else it is refused")
    func clientMadeGroupIDs() async throws {
        let services = ServerServices.sqlite(.memory, fast: true)
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let cy = try await services.accounts.signUp(email: "cy@example.com", displayName: "Cy Young", password: "correct horse")
        let id = GroupID(rawValue: UUID().uuidString.lowercased())
        let ski = try await services.groups.create(GroupDraft(name: "Ski", currency: .eur, members: []), as: id, by: ada.id)
        #expect(ski.id == id)
        #expect(try await services.groups.create(GroupDraft(name: "Ski", currency: .eur, members: []), as: id, by: ada.id) == ski)
        #expect(try await services.groups.groups(of: ada.id, archived: false).count == 1)
        await #expect(throws: GroupsError.idTaken(id)) {
            try await services.groups.create(GroupDraft(name: "Mine", currency: .eur, members: []), as: id, by: cy.id)
        }
        #expect(try await services.groups.groups(of: cy.id, archived: false).isEmpty)
        await services.close()
    }

    @Test("a group renamed offline by someone taken out of it meanwhile is refused when pushed, and leaves their replica")
    func groupRefused() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-group-refused-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let world = try await TwoFriends.start(in: home)
        let (bobHome, adaUser, bobUser) = (world.bobHome, world.adaUser, world.bobUser)
        let trip = try await world.ada.groups.create(GroupDraft(name: "Trip", currency: .eur, members: [bobUser.id]), by: adaUser.id)
        let offline = try await world.adaOffline()
        _ = try await offline.groups.update(trip.id, to: GroupSettings(name: "Beach trip", currency: .eur), by: adaUser.id)

        let second = try await world.restart()
        let bob = AppContainer.remote(server: second.url, location: bobHome, replicated: false)
        _ = try await bob.groups.removeMember(adaUser.id, from: trip.id, by: bobUser.id)
        let report = try #require(await offline.syncReplica(of: adaUser.id)).get()
        #expect(report.push == PushReport(pushed: 0, refused: 1, conflicts: 0, waiting: 0))
        #expect(try await offline.groups.group(trip.id, for: adaUser.id) == nil)
        let left = try await #require(offline.replicaChanges).writes(of: adaUser.id)
        #expect(left.map(\.summary) == ["rename the group Trip to Beach trip"])
        #expect(left.first?.reason == GroupsError.notFound(trip.id).message)
        #expect(try await bob.groups.group(trip.id, for: bobUser.id)?.name == "Trip")
        await second.stop()
    }

    /// Ada and Bob, friends, each with their app, on a server whose store is on disk, so that it
    /// can stop and start again on the same port (where the apps keep their replicas).
    struct TwoFriends {
        let adaHome: StoreLocation
        let bobHome: StoreLocation
        let store: LocalDatabase.Place
        let first: RunningServer
        let port: Int
        let ada: AppContainer
        let adaUser: User
        let bobUser: User

        /// Ada's replica brought up to date, the server stopped, and Ada's app opened anew on her
        /// replica: offline, signed in as she last was.
        func adaOffline() async throws -> AppContainer {
            await ada.pullReplica()
            await first.stop()
            let offline = AppContainer.remote(server: first.url, location: adaHome)
            _ = try await offline.accounts.storedSession()
            return offline
        }

        static func start(in home: URL) async throws -> TwoFriends {
            let (adaHome, bobHome) = (StoreLocation(directory: home.appendingPathComponent("ada")), StoreLocation(directory: home.appendingPathComponent("bob")))
            let store = LocalDatabase.Place.file(home.appendingPathComponent("server.sqlite"))
            let first = try await RunningServer.start(services: ServerServices.sqlite(store, fast: true))
            let ada = AppContainer.remote(server: first.url, location: adaHome)
            let bob = AppContainer.remote(server: first.url, location: bobHome)
            let adaUser = try await ada.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
            let bobUser = try await bob.accounts.signUp(email: "bob@example.com", displayName: "Bob Stone", password: "correct horse")
            _ = try await ada.friends.add(.email("bob@example.com"), by: adaUser.id)
            _ = try await bob.friends.accept(adaUser.id, by: bobUser.id)
            return TwoFriends(
                adaHome: adaHome, bobHome: bobHome, store: store, first: first, port: try #require(first.url.port), ada: ada, adaUser: adaUser,
                bobUser: bobUser
            )
        }

        /// The server again, on its store and port, once `first` stopped.
        func restart() async throws -> RunningServer {
            try await RunningServer.start(services: ServerServices.sqlite(store, fast: true), configuration: ServerConfiguration(port: port))
        }
    }

    /// `description`, paid by `payer` and shared equally with `other` (none: `payer`'s own).
    static func draft(_ description: String, _ minorUnits: Int64, by payer: UserID, with other: UserID?) -> ExpenseDraft {
        let amount = Money(minorUnits: minorUnits, currency: .eur)
        return ExpenseDraft(
            description: description, amount: amount, day: (try? Day("2026-11-22")) ?? Day.today(at: Date(), in: .gmt), category: .food,
            payers: [Payer(user: payer, amount: amount)], participants: [payer] + [other].compactMap { $0 }.filter { $0 != payer }, rule: .equal
        )
    }
}
