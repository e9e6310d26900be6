import Accounts
import AccountsData
import Expenses
import FlowsAPIClient
import FlowTesting
import FlowsApp
import FlowsServer
import FlowsServices
import Foundation
import Friends
import Groups
import LocalStore
import Preferences
import Primitives
import Sync
import SyncRemote
import Synchronization
import Testing

/// A replica pulled over HTTP (docs/sync.md): after each pull, every read the user makes answers
/// on the replica as it does on the server, through friends, contacts, requests both ways and a
/// block, a group with someone who is no friend, expenses with comments, a payment, avatars and
/// preferences, and through edits, deletions, a friendship ended and a group left.
@Suite(.timeLimit(.minutes(3)))
struct ReplicaPullTests {
    private static func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

    private static func draft(_ description: String, _ cents: Int64, paidBy payer: UserID, among people: [UserID], in group: GroupID? = nil) throws -> ExpenseDraft {
        ExpenseDraft(
            description: description, amount: Self.eur(cents), day: try Day("2026-11-22"), category: .food, payers: [Payer(user: payer, amount: Self.eur(cents))],
            participants: people, rule: .equal, group: group
        )
    }

    @Test("a replica answers every read as the server does, after a first pull and after each pull since")
    func replicaMatchesServer() async throws {
        try await LiveServer.onEachStore { server in try await Self.scenario(on: server) }
    }

    private static func scenario(on server: LiveServer) async throws {
        do {
            let ada = try await RemoteServicesTests.app(server, name: "Ada")
            let bob = try await RemoteServicesTests.app(server, name: "Bob")
            let carol = try await RemoteServicesTests.app(server, name: "Carol")
            let dave = try await RemoteServicesTests.app(server, name: "Dave")
            _ = try await RemoteServicesTests.app(server, name: "Erin")
            let frank = try await RemoteServicesTests.app(server, name: "Frank")
            let (a, b, c) = (ada.user.id, bob.user.id, carol.user.id)
            try await Self.befriend(ada, bob)
            try await Self.befriend(bob, carol)
            try await Self.befriend(bob, frank)
            let sam = try await ada.container.friends.addContact(name: "Sam Park", email: "sam@example.com", by: a)
            let tom = try await ada.container.friends.addContact(name: "Tom Lee", email: nil, by: a)
            // Requests both ways, one carrying a contact to link, and a block.
            _ = try await carol.container.friends.add(.email("ada@example.com"), by: c)
            _ = try await ada.container.friends.link(tom.id, to: .email("erin@example.com"), by: a)
            _ = try await dave.container.friends.add(.email("ada@example.com"), by: dave.user.id)
            try await ada.container.friends.block(dave.user.id, by: a)
            // A group of Bob's with Ada, Carol and Frank: Ada knows Frank only from it.
            let cabin = try await bob.container.groups.create(GroupDraft(name: "Cabin", currency: .eur, members: [a, c, frank.user.id]), by: b)
            let groceries = try await bob.container.expenses.add(
                try Self.draft("Groceries", 12000, paidBy: b, among: [a, b, c, frank.user.id], in: cabin.id), by: b
            )
            _ = try await carol.container.expenses.comment("I'll pay next time.", on: groceries.id, by: c)
            let dinner = try await ada.container.expenses.add(try Self.draft("Dinner", 4500, paidBy: a, among: [a, b, sam.id]), by: a)
            let recurring = try #require(ada.container.recurring)
            let monthly = try await recurring.repeatExpense(dinner.id, every: .monthly(day: 22), until: nil, by: a)
            let payment = try await bob.container.expenses.settle(from: b, to: a, amount: Self.eur(1000), day: try Day("2026-11-23"), by: b)
            try await ada.container.accounts.changeAvatar(to: .initials(.teal), of: a)
            try await bob.container.accounts.changeAvatar(to: .initials(.orange), of: b)
            try await ada.container.preferences.update(Preferences(theme: .light, defaultCurrency: .usd), of: a)

            let replica = LocalReplica.open(.memory)
            let sync = ada.sync(server)
            let onServer = Self.view(ada.container)
            let onReplica = Self.view(replica.services)

            let first = try await replica.pull(for: a, from: sync, pageSize: 3)
            #expect(first.fromScratch)
            #expect(first.pages > 1, "a page of 3 changes at most: the pull went on while the server had more")
            #expect(try await UserView.differences(of: a, onServer, onReplica) == [])
            let lines = try await onReplica.lines(of: a)
            #expect(lines.contains { $0.hasPrefix("names:") && $0.contains("Frank") }, "Frank is named, from the group, though he is no friend")
            #expect(lines.contains { $0.hasPrefix("requests:") && $0.contains("Tom Lee") }, "the request to Erin carries the contact Tom Lee")
            #expect(lines.contains { $0.hasPrefix("series of \(dinner.id)") && $0.contains(monthly.id.rawValue) }, "Dinner repeats monthly")

            // Changes since: an edit, a comment deleted, a payment taken back, a new name, a
            // friendship ended (settled first), a group left, the request accepted.
            _ = try await ada.container.expenses.edit(dinner.id, to: try Self.draft("Team dinner", 6000, paidBy: a, among: [a, b, sam.id]), from: dinner.version, by: a)
            try await bob.container.expenses.undoSettlement(payment.id, by: b)
            _ = try await bob.container.accounts.changeDisplayName(to: "Robert Stone", of: b)
            _ = try await recurring.stopSeries(monthly.id, after: try Day("2027-03-22"), by: a)
            _ = try await ada.container.friends.accept(c, by: a)
            _ = try await ada.container.expenses.settle(from: a, to: b, amount: Self.eur(3000), day: try Day("2026-11-24"), in: cabin.id, by: a)
            try await ada.container.groups.leave(cabin.id, by: a)
            let again = try await replica.pull(for: a, from: sync)
            #expect(!again.fromScratch)
            #expect(again.changes > 0)
            #expect(try await UserView.differences(of: a, onServer, onReplica) == [])
            #expect(try await replica.services.friends.friend(b, of: a)?.name.value == "Robert Stone")
            #expect(try await replica.services.groups.group(cabin.id, for: a) == nil)

            // Nothing new: a pull brings nothing, and the replica stays as it is.
            let still = try await replica.pull(for: a, from: sync)
            #expect(still.changes == 0)
            #expect(try await replica.state(of: a) != nil)
        }
    }

    @Test("a replica whose cursor the server no longer knows starts again from nothing, and forgets what it no longer sees")
    func startsAgain() async throws {
        try await LiveServer.with { server in
            let ada = try await RemoteServicesTests.app(server, name: "Ada")
            let bob = try await RemoteServicesTests.app(server, name: "Bob")
            try await Self.befriend(ada, bob)
            let replica = LocalReplica.open(.memory)
            let sync = ada.sync(server)
            _ = try await replica.pull(for: ada.user.id, from: sync)
            #expect(try await replica.services.friends.friends(of: ada.user.id).map(\.name.value) == ["Bob"])

            // A cursor from elsewhere (a database restored from an older copy, say), and Bob
            // gone meanwhile: the replica empties and pulls everything again.
            try await replica.state.save(.init(cursor: "0.999999", pulledAt: 0, caughtUp: true), of: ada.user.id.rawValue)
            try await ada.container.friends.remove(bob.user.id, by: ada.user.id)
            let report = try await replica.pull(for: ada.user.id, from: sync)
            #expect(report.fromScratch)
            #expect(try await replica.services.friends.friends(of: ada.user.id) == [])
            #expect(try await UserView.differences(of: ada.user.id, Self.view(ada.container), Self.view(replica.services)) == [])
        }
    }

    @Test("a first pull cut short leaves the replica not caught up, so nothing shows it until a pull reaches the last page")
    func cutShort() async throws {
        try await LiveServer.with { server in
            let ada = try await RemoteServicesTests.app(server, name: "Ada")
            let bob = try await RemoteServicesTests.app(server, name: "Bob")
            try await Self.befriend(ada, bob)
            for index in 0..<4 {
                _ = try await ada.container.expenses.add(try Self.draft("Lunch \(index)", 1000, paidBy: ada.user.id, among: [ada.user.id, bob.user.id]), by: ada.user.id)
            }
            let sync = bob.sync(server)
            let replica = LocalReplica.open(.memory)
            await #expect(throws: SyncError.serverUnreachable("cut")) {
                try await replica.pull(for: bob.user.id, from: CutShort(base: sync, pages: 1), pageSize: 2)
            }
            let half = try #require(try await replica.state(of: bob.user.id))
            #expect(!half.caughtUp)
            // Pulled again, from where it stopped, to the end.
            let rest = try await replica.pull(for: bob.user.id, from: sync, pageSize: 2)
            #expect(!rest.fromScratch && rest.pages > 1)
            #expect(try await replica.state(of: bob.user.id)?.caughtUp == true)
            #expect(try await UserView.differences(of: bob.user.id, Self.view(bob.container), Self.view(replica.services)) == [])
        }
    }

    @Test("someone an edit took out of an expense is told of the edit, never of the expense as it is now")
    func editedOut() async throws {
        try await LiveServer.with { server in
            let (ada, bob, carol) = try await Self.adaBobCarol(server)
            let (a, b, c) = (ada.user.id, bob.user.id, carol.user.id)
            let dinner = try await ada.container.expenses.add(try Self.draft("Dinner", 3000, paidBy: a, among: [a, b, c]), by: a)
            let sync = carol.sync(server)
            let first = try await sync.changes(for: c, after: nil, limit: 500)
            _ = try await ada.container.expenses.edit(dinner.id, to: try Self.draft("Dinner for two", 3000, paidBy: a, among: [a, b]), from: dinner.version, by: a)
            let next = try await sync.changes(for: c, after: first.cursor, limit: 500)
            #expect(next.changes.contains(SyncChange(kind: .expense, id: dinner.id.rawValue, value: nil)))
            let lines = next.changes.compactMap { change -> ActivityLine? in if case .activity(let line)? = change.value { line } else { nil } }
            #expect(lines.map(\.activity.kind) == [.edited])
            #expect(lines.allSatisfy { $0.expense == nil }, "the edit's line carries the expense Carol is no longer in")
            // Bob, still in it, gets it whole.
            let bobs = bob.sync(server)
            let his = try await bobs.changes(for: b, after: nil, limit: 500)
            #expect(his.changes.contains { if case .activity(let line)? = $0.value { line.activity.kind == .edited && line.expense?.description == "Dinner for two" } else { false } })
        }
    }

    @Test("someone an edit puts in an expense sees its whole history on the replica, the lines from before they were in it too")
    func joinedLater() async throws {
        try await LiveServer.with { server in
            let (ada, bob, carol) = try await Self.adaBobCarol(server)
            let (a, b, c) = (ada.user.id, bob.user.id, carol.user.id)
            let replica = LocalReplica.open(.memory)
            let sync = carol.sync(server)
            _ = try await replica.pull(for: c, from: sync)
            let dinner = try await ada.container.expenses.add(try Self.draft("Dinner", 3000, paidBy: a, among: [a, b]), by: a)
            _ = try await ada.container.expenses.edit(dinner.id, to: try Self.draft("Dinner for three", 3000, paidBy: a, among: [a, b, c]), from: dinner.version, by: a)
            _ = try await replica.pull(for: c, from: sync)
            let history = try await replica.services.expenses.history(of: dinner.id, for: c)
            #expect(history.map(\.kind) == [.added, .edited])
            #expect(try await history == carol.container.expenses.history(of: dinner.id, for: c))
            // Her activity tells only of the edit that put her in it, as the server's does; the
            // line from before comes with the expense, and only that one.
            #expect(try await replica.services.expenses.activity(of: c, page: PageRequest()).map(\.kind) == [.edited])
            let pulled = try await sync.changes(for: c, after: nil, limit: 500).changes.first { $0.kind == .expense && $0.id == dinner.id.rawValue }
            guard case .expense(let came)? = pulled?.value else { Issue.record("the expense did not come: \(String(describing: pulled))"); return }
            #expect(came.lines.map(\.activity.kind) == [.added] && came.lines.allSatisfy { !$0.people.contains(c) })
            #expect(try await UserView.differences(of: c, Self.view(carol.container), Self.view(replica.services)) == [])
        }
    }

    @Test("a payment that passed through someone moves their balances on their replica too, as it comes and as it is taken back, and in a first pull")
    func passedThrough() async throws {
        try await LiveServer.with { server in
            let (ada, bob, carol) = try await Self.adaBobCarol(server, bobAndCarolFriends: true)
            let (a, b, c) = (ada.user.id, bob.user.id, carol.user.id)
            let replica = LocalReplica.open(.memory)
            let sync = ada.sync(server)
            // Bob owes Ada 10.00 and Ada owes Carol 10.00; Ada's replica has both.
            _ = try await ada.container.expenses.add(try Self.draft("Taxi", 2000, paidBy: a, among: [a, b]), by: a)
            _ = try await carol.container.expenses.add(try Self.draft("Lunch", 2000, paidBy: c, among: [a, c]), by: c)
            _ = try await replica.pull(for: a, from: sync)
            // Bob pays Carol 10.00: it clears what Bob owes Ada and what Ada owes Carol.
            let paid = try await bob.container.expenses.settle(from: b, to: c, amount: Self.eur(1000), day: try Day("2026-11-23"), by: b)
            #expect(paid.through == [a])
            #expect(try await ada.container.expenses.balances(of: a).isEmpty)
            _ = try await replica.pull(for: a, from: sync)
            #expect(try await replica.services.expenses.balances(of: a).isEmpty)
            #expect(try await UserView.differences(of: a, Self.view(ada.container), Self.view(replica.services)) == [])
            // A replica that starts now has it too.
            let fresh = LocalReplica.open(.memory)
            _ = try await fresh.pull(for: a, from: ada.sync(server))
            #expect(try await UserView.differences(of: a, Self.view(ada.container), Self.view(fresh.services)) == [])
            // Taken back, the balances come back, on the replica as on the server.
            try await carol.container.expenses.undoSettlement(paid.id, by: c)
            _ = try await replica.pull(for: a, from: sync)
            #expect(try await replica.services.expenses.balances(of: a).map(\.amount).sorted { $0.minorUnits < $1.minorUnits } == [Self.eur(-1000), Self.eur(1000)])
            #expect(try await UserView.differences(of: a, Self.view(ada.container), Self.view(replica.services)) == [])
        }
    }

    @Test("a group's whole ledger reaches each member's replica, what they are not in too; one who joins gets it all, one taken out loses it")
    func groupLedger() async throws {
        try await LiveServer.onEachStore { server in
            let (ada, bob, carol) = try await Self.adaBobCarol(server, bobAndCarolFriends: true)
            let dave = try await RemoteServicesTests.app(server, name: "Dave")
            try await Self.befriend(bob, dave)
            let (a, b, c, d) = (ada.user.id, bob.user.id, carol.user.id, dave.user.id)
            let trip = try await bob.container.groups.create(GroupDraft(name: "Trip", currency: .eur, members: [a, c]), by: b)
            // Ada is in neither the fuel nor the payment, filed under the group.
            let fuel = try await bob.container.expenses.add(try Self.draft("Fuel", 3000, paidBy: b, among: [b, c], in: trip.id), by: b)
            _ = try await carol.container.expenses.comment("Thanks for driving.", on: fuel.id, by: c)
            _ = try await carol.container.expenses.settle(from: c, to: b, amount: Self.eur(500), day: try Day("2026-11-23"), in: trip.id, by: c)
            _ = try await ada.container.expenses.add(try Self.draft("Snacks", 900, paidBy: a, among: [a, b, c], in: trip.id), by: a)

            let replica = LocalReplica.open(.memory)
            let sync = ada.sync(server)
            _ = try await replica.pull(for: a, from: sync, pageSize: 2)
            let (onServer, onReplica) = (Self.view(ada.container), Self.view(replica.services))
            #expect(try await UserView.differences(of: a, onServer, onReplica) == [])
            let ledger = try await replica.services.expenses.expenses(in: trip.id, for: a, page: PageRequest())
            #expect(ledger.map(\.description) == ["Snacks", "Fuel"] || ledger.map(\.description) == ["Fuel", "Snacks"])
            #expect(try await replica.services.expenses.settlements(in: trip.id, for: a, page: PageRequest()).map(\.amount) == [Self.eur(500)])
            #expect(try await replica.services.expenses.debts(in: trip.id, for: a) == ada.container.expenses.debts(in: trip.id, for: a))
            // Only in the group's ledger: not among her expenses, balances or activity, and
            // not to open, as on the server.
            #expect(try await replica.services.expenses.expenses(of: a, page: PageRequest()).map(\.description) == ["Snacks"])
            #expect(try await replica.services.expenses.expense(fuel.id, for: a) == nil)
            #expect(try await replica.services.expenses.activity(of: a, page: PageRequest()).allSatisfy { $0.subject != fuel.id })
            // What came: the fuel without its comment or its lines.
            let pulled = try await sync.changes(for: a, after: nil, limit: 500).changes.first { $0.kind == .expense && $0.id == fuel.id.rawValue }
            guard case .expense(let came)? = pulled?.value else { Issue.record("the fuel did not come: \(String(describing: pulled))"); return }
            #expect(came.comments.isEmpty && came.lines.isEmpty && came.history.map(\.kind) == [.added])

            // Changed, then a new one: each comes to Ada by the group.
            let more = try await bob.container.expenses.edit(fuel.id, to: try Self.draft("Fuel", 4200, paidBy: b, among: [b, c], in: trip.id), from: fuel.version, by: b)
            _ = try await carol.container.expenses.add(try Self.draft("Tolls", 1800, paidBy: c, among: [b, c], in: trip.id), by: c)
            _ = try await replica.pull(for: a, from: sync)
            #expect(try await UserView.differences(of: a, onServer, onReplica) == [])
            try await bob.container.expenses.delete(fuel.id, from: more.version, by: b)
            _ = try await replica.pull(for: a, from: sync)
            #expect(try await UserView.differences(of: a, onServer, onReplica) == [])
            #expect(try await replica.services.expenses.expenses(in: trip.id, for: a, page: PageRequest()).map(\.description).sorted() == ["Snacks", "Tolls"])

            // Dave, whose replica has pulled already, joins: the ledger comes whole.
            let daves = LocalReplica.open(.memory)
            _ = try await daves.pull(for: d, from: dave.sync(server))
            _ = try await bob.container.groups.addMembers([d], to: trip.id, by: b)
            _ = try await daves.pull(for: d, from: dave.sync(server), pageSize: 2)
            #expect(try await UserView.differences(of: d, Self.view(dave.container), Self.view(daves.services)) == [])
            #expect(try await daves.services.expenses.expenses(in: trip.id, for: d, page: PageRequest()).count == 2)

            // Ada, settled up, taken out: the group, and what she saw only in it, leave her
            // replica; what she is in stays hers.
            for other in [bob, carol] {
                _ = try await other.container.expenses.settle(from: other.user.id, to: a, amount: Self.eur(300), day: try Day("2026-11-24"), in: trip.id, by: other.user.id)
            }
            _ = try await bob.container.groups.removeMember(a, from: trip.id, by: b)
            _ = try await replica.pull(for: a, from: sync)
            #expect(try await UserView.differences(of: a, onServer, onReplica) == [])
            #expect(try await replica.services.groups.group(trip.id, for: a) == nil)
            let kept = try await replica.services.syncSource.ledgerIDs(of: trip.id)
            #expect(Set(kept.expenses) == Set(try await replica.services.expenses.expenses(of: a, page: PageRequest()).map(\.id)))
            #expect(Set(kept.payments) == Set(try await replica.services.expenses.settlements(of: a, page: PageRequest()).map(\.id)))
            #expect(kept.expenses.count == 1 && kept.payments.count == 2)
        }
    }

    /// A server's pull that stops answering after `pages` pages.
    private final class CutShort: SyncService {
        let base: any SyncService
        let pages: Int
        private let asked = Mutex(0)

        init(base: any SyncService, pages: Int) {
            self.base = base
            self.pages = pages
        }

        func changes(for user: UserID, after cursor: SyncCursor?, limit: Int) async throws(SyncError) -> SyncPage {
            guard asked.withLock({ count in count += 1; return count <= pages }) else { throw .serverUnreachable("cut") }
            return try await base.changes(for: user, after: cursor, limit: limit)
        }

        func push(_ operations: [SyncOperation], by user: UserID) async throws(SyncError) -> [SyncOutcome] { [] }
        func resend(_ entities: [SyncEntity], for user: UserID) async throws(SyncError) { try await base.resend(entities, for: user) }
    }

    /// Ada, Bob and Carol with their apps, Ada the friend of both (and Bob of Carol, if asked).
    private static func adaBobCarol(
        _ server: LiveServer, bobAndCarolFriends: Bool = false
    ) async throws -> (RemoteServicesTests.App, RemoteServicesTests.App, RemoteServicesTests.App) {
        let ada = try await RemoteServicesTests.app(server, name: "Ada")
        let bob = try await RemoteServicesTests.app(server, name: "Bob")
        let carol = try await RemoteServicesTests.app(server, name: "Carol")
        try await Self.befriend(ada, bob)
        try await Self.befriend(ada, carol)
        if bobAndCarolFriends { try await Self.befriend(bob, carol) }
        return (ada, bob, carol)
    }

    private static func befriend(_ one: RemoteServicesTests.App, _ other: RemoteServicesTests.App) async throws {
        _ = try await one.container.friends.add(.email(other.user.email.value), by: one.user.id)
        _ = try await other.container.friends.accept(one.user.id, by: other.user.id)
    }

    private static func view(_ container: AppContainer) -> UserView {
        UserView(accounts: container.accounts, friends: container.friends, expenses: container.expenses, groups: container.groups, preferences: container.preferences)
    }

    private static func view(_ services: LocalServices) -> UserView {
        UserView(accounts: services.accounts, friends: services.friends, expenses: services.expenses, groups: services.groups, preferences: services.preferences)
    }
}

/// The app on a replica with its server down, as the next `flows` run finds it.
@Suite(.timeLimit(.minutes(2)))
struct OfflineTests {
    @Test("with the server down, the app opens on the replica, and the home and every tab say since when it is offline")
    func opensOffline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("offline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try await RunningServer.start(services: ServerServices.sqlite(.memory, fast: true))
        let first = AppContainer.remote(server: server.url, location: StoreLocation(directory: home))
        let ada = try await first.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let sam = try await first.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        let amount = Money(minorUnits: 3000, currency: .eur)
        _ = try await first.expenses.add(
            ExpenseDraft(
                description: "Dinner", amount: amount, day: try Day("2026-11-22"), category: .food, payers: [Payer(user: ada.id, amount: amount)],
                participants: [ada.id, sam.id], rule: .equal
            ),
            by: ada.id
        )
        await server.stop()

        let again = AppContainer.remote(server: server.url, location: StoreLocation(directory: home))
        let script = try ScriptParser.parse(
            """
            flow App
            expect screen expenses
            expect text "Sam Park owes you 15.00 EUR."
            expect text "Offline since "
            expect text "; your changes wait for the server, but for new friends, who need it."
            tap back
            expect screen home
            expect text "Signed in as Ada Lovelace <ada@example.com>."
            expect text "Offline since "
            tap friends
            expect screen friends
            expect text "Sam Park"
            expect text "Offline since "
            tap back
            expect screen home
            tap quit
            expect result closed
            """,
            file: "offline.flows"
        )
        let entry = try #require(FlowCatalog.entry(named: "App"))
        let run = await ScriptRunner.run(script, flow: "App") { router in await entry.run(container: again, router: router) }
        #expect(run.failure == nil, "\(run.failure.map { "\($0)" } ?? "")\n\(run.transcript)")
        // Online, the same screens say nothing of it.
        #expect(ReplicaStatus(lastSynced: Date(), offlineSince: nil).offlineNotice(in: .gmt) == nil)
    }
}
