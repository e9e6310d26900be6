import Accounts
import AccountsData
import Expenses
import FlowsAPIClient
import FlowsApp
import FlowsServer
import Foundation
import Friends
import Groups
import HTTPTypes
import OpenAPIRuntime
import PostgresStore
import Preferences
import Primitives
import Sync
import Synchronization
import Testing

/// The sync harness (docs/sync.md): a real flows-server and three clients, each with its
/// replica, through seeded schedules of writes mixed with partitions (a client offline, the
/// server out of reach of all). At the end, once every client is back and has synced, each
/// replica shows its user what the server does, nothing waits, and the ledger recounts on the
/// server and on every replica.
@Suite(.timeLimit(.minutes(10)))
struct SyncHarnessTests {
    /// How many schedules the test command runs; `FLOWS_SYNC_SCHEDULES` asks for more (the bench).
    static let schedules = ProcessInfo.processInfo.environment["FLOWS_SYNC_SCHEDULES"].flatMap(Int.init) ?? 200

    @Test("seeded schedules of writes, partitions and syncs end with every replica what the server shows its user")
    func schedules() async throws {
        let started = Date()
        var failures: [String] = []
        // A few at once: each has a server of its own.
        try await withThrowingTaskGroup(of: (UInt64, [String]).self) { group in
            var next: UInt64 = 0
            for _ in 0..<3 {
                group.addTask { [next] in (next, try await SyncSchedule.run(seed: next)) }
                next += 1
            }
            while let (seed, problems) = try await group.next() {
                if !problems.isEmpty { failures.append("seed \(seed):\n" + problems.joined(separator: "\n")) }
                if next < UInt64(Self.schedules) {
                    group.addTask { [next] in (next, try await SyncSchedule.run(seed: next)) }
                    next += 1
                }
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print("sync harness: \(Self.schedules) schedules in \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", Double(Self.schedules) / seconds)) schedules/s), \(failures.count) failed")
        #expect(failures.isEmpty, "\(failures.count) of \(Self.schedules) schedules failed:\n\(failures.prefix(3).joined(separator: "\n\n"))")
    }
}

/// The same schedules on PostgreSQL, through two servers behind one database (docs/sync.md):
/// fewer of them, as each makes a database (`FLOWS_SYNC_POSTGRES_SCHEDULES` asks for more).
@Suite(
    .enabled(if: TestPostgres.url != nil, "FLOWS_TEST_DATABASE_URL names no PostgreSQL server (Scripts/test starts one)"),
    .timeLimit(.minutes(10))
)
struct SyncHarnessPostgresTests {
    static let schedules = ProcessInfo.processInfo.environment["FLOWS_SYNC_POSTGRES_SCHEDULES"].flatMap(Int.init) ?? 40

    @Test("seeded schedules through two servers on one PostgreSQL database end with every replica what the servers show its user")
    func schedules() async throws {
        let admin = try #require(try TestPostgres.url.map { try DatabaseURL($0) })
        let databases = Databases(admin: admin)
        let started = Date()
        var failures: [String] = []
        do {
            for seed in 0..<UInt64(Self.schedules) {
                let problems = try await SyncSchedule.runOnPostgres(seed: seed, databases: databases)
                if !problems.isEmpty { failures.append("seed \(seed):\n" + problems.joined(separator: "\n")) }
            }
        } catch {
            await databases.dropAll()
            throw error
        }
        await databases.dropAll()
        let seconds = Date().timeIntervalSince(started)
        print("sync harness on PostgreSQL, two servers: \(Self.schedules) schedules in \(String(format: "%.1f", seconds)) s, \(failures.count) failed")
        #expect(failures.isEmpty, "\(failures.count) of \(Self.schedules) schedules failed:\n\(failures.prefix(3).joined(separator: "\n\n"))")
    }
}

/// One seeded schedule, on a fresh server.
enum SyncSchedule {
    /// Runs schedule `seed` and says what is wrong at its end; nothing when all is well.
    static func run(seed: UInt64, steps: Int = 16) async throws -> [String] {
        let random = SeededRandomSource(seed: seed &* 7919 &+ 11)
        let clock = TickingClock()
        let services = ServerServices.sqlite(.memory, fast: true, now: { clock.now() })
        let server = try await RunningServer.start(services: services)
        do {
            let problems = try await run(steps: steps, random: random, services: services, servers: [server.url])
            await server.stop()
            return problems
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Runs schedule `seed` on two servers that share a fresh PostgreSQL database (a database of
    /// `databases`), each client's requests going to one and the other in turn, as a load
    /// balancer spreads them.
    static func runOnPostgres(seed: UInt64, databases: Databases, steps: Int = 16) async throws -> [String] {
        let random = SeededRandomSource(seed: seed &* 7919 &+ 11)
        let clock = TickingClock()
        let url = try await databases.fresh()
        let services = ServerServices.postgres(url, maximumConnections: 2, fast: true, now: { clock.now() })
        let one = try await RunningServer.start(services: services)
        // Not `fast`: its seeded identifiers would be the first server's, and clash.
        let two = try await RunningServer.start(services: .postgres(url, maximumConnections: 2, now: { clock.now() }))
        let result: Result<[String], any Error>
        do {
            result = .success(try await run(steps: steps, random: random, services: services, servers: [one.url, two.url]))
        } catch {
            result = .failure(error)
        }
        await one.stop()
        await two.stop()
        return try result.get()
    }

    private static func run(steps: Int, random: SeededRandomSource, services: ServerServices, servers: [URL]) async throws -> [String] {
        let server = try #require(servers.first)
        // Three friends, set up on the server's own services, each then signed in in their app.
        let names = ["Ada", "Bob", "Cy"]
        var users: [User] = []
        for name in names {
            users.append(try await services.accounts.signUp(email: "\(name.lowercased())@example.com", displayName: name, password: "correct horse"))
        }
        for (one, other) in [(0, 1), (0, 2), (1, 2)] {
            _ = try await services.friends.add(.email(users[other].email.value), by: users[one].id)
            _ = try await services.friends.accept(users[one].id, by: users[other].id)
        }
        let serverUp = Flag(true)
        var clients: [Client] = []
        for (index, user) in users.enumerated() {
            let tokens = InMemorySessionTokenStore()
            let cable = Cable(serverUp: serverUp, servers: servers)
            let app = AppContainer.remote(server: server, tokens: tokens, replicasInMemory: true, transport: cable)
            _ = try await app.accounts.signIn(email: user.email.value, password: "correct horse")
            let direct = AppContainer.remote(server: server, tokens: tokens)
            clients.append(Client(name: names[index], user: user, app: app, direct: direct, cable: cable))
        }
        var log: [String] = []
        for step in 0..<steps {
            let client = clients[Int(random.next(below: 3))]
            let others = clients.filter { $0.user.id != client.user.id }
            switch random.next(below: 100) {
            case 0..<27:
                let with = random.next(below: 4) == 0 ? nil : others[Int(random.next(below: 2))]
                let amount = Int64(random.next(below: 9_999)) + 1
                var draft = OfflineWritesTests.draft("E\(step)", amount, by: client.user.id, with: with?.user.id)
                // A third of them in a group the two share, which its third member sees too.
                let group = random.next(below: 3) == 0 ? try await Self.group(of: client, with: with, random) : nil
                draft.group = group?.id
                let added = try? await client.app.expenses.add(draft, by: client.user.id)
                log.append(
                    "\(client.name) adds E\(step) \(amount)\(with.map { " with \($0.name)" } ?? "")\(group.map { " in \($0.name)" } ?? "")\(client.cable.online ? "" : " offline"): \(added == nil ? "refused" : "ok")"
                )
            case 27..<47:
                guard let expense = try await Self.pick(from: client, random) else { continue }
                let amount = Int64(random.next(below: 9_999)) + 1
                var draft = expense.draft
                draft.amount = Money(minorUnits: amount, currency: .eur)
                draft.payers = [Payer(user: client.user.id, amount: draft.amount)]
                let edited = try? await client.app.expenses.edit(expense.id, to: draft, from: expense.version, by: client.user.id)
                log.append("\(client.name) changes \(expense.description) to \(amount) from v\(expense.version)\(client.cable.online ? "" : " offline"): \(edited == nil ? "refused" : "ok")")
            case 47..<57:
                guard let expense = try await Self.pick(from: client, random) else { continue }
                let deleted: Void? = try? await client.app.expenses.delete(expense.id, from: expense.version, by: client.user.id)
                log.append("\(client.name) deletes \(expense.description) v\(expense.version)\(client.cable.online ? "" : " offline"): \(deleted == nil ? "refused" : "ok")")
            case 57..<64:
                client.cable.online.toggle()
                log.append("\(client.name) goes \(client.cable.online ? "online" : "offline")")
            case 64..<70:
                log.append(try await Self.changeGroups(of: client, others: others, step: step, random))
            case 70..<72:
                client.cable.losesNextAnswer = true
                log.append("\(client.name)'s next answer is lost")
            case 72..<78:
                serverUp.value.toggle()
                log.append("the server is \(serverUp.value ? "back" : "out of reach")")
            case 78..<84:
                // A payment with one of the others, either way: at most what the replica says is
                // owed, or a little when nothing is (the server may find it owed by then, or not).
                let other = others[Int(random.next(below: 2))]
                let balance = (try? await client.app.expenses.balances(of: client.user.id))?.first { $0.other == other.user.id }?.amount.minorUnits ?? 0
                let owed = balance == 0 ? Int64(random.next(below: 999)) + 1 : Int64(random.next(below: UInt64(balance.magnitude))) + 1
                let (from, to) = balance > 0 ? (other.user.id, client.user.id) : (client.user.id, other.user.id)
                let group = random.next(below: 3) == 0 ? try await Self.group(of: client, with: other, random) : nil
                let paid = try? await client.app.expenses.settle(
                    from: from, to: to, amount: Money(minorUnits: owed, currency: .eur), day: try Day("2026-11-23"), in: group?.id, by: client.user.id
                )
                let who = from == client.user.id ? "pays \(other.name)" : "notes \(other.name) paid"
                log.append("\(client.name) \(who) \(owed)\(group.map { " in \($0.name)" } ?? "")\(client.cable.online ? "" : " offline"): \(paid == nil ? "refused" : "ok")")
            case 84..<88:
                let payments = (try? await client.app.expenses.settlements(of: client.user.id, page: PageRequest(limit: 100))) ?? []
                guard !payments.isEmpty else { continue }
                let payment = payments.sorted { $0.id.rawValue < $1.id.rawValue }[Int(random.next(below: UInt64(payments.count)))]
                let undone: Void? = try? await client.app.expenses.undoSettlement(payment.id, by: client.user.id)
                log.append("\(client.name) takes back \(payment.amount)\(client.cable.online ? "" : " offline"): \(undone == nil ? "refused" : "ok")")
            case 88..<91:
                let deleted = (try? await client.app.expenses.deletedExpenses(of: client.user.id, page: PageRequest(limit: 100))) ?? []
                guard !deleted.isEmpty else { continue }
                let expense = deleted.sorted { $0.id.rawValue < $1.id.rawValue }[Int(random.next(below: UInt64(deleted.count)))]
                let restored = try? await client.app.expenses.restore(expense.id, by: client.user.id)
                log.append("\(client.name) restores \(expense.description)\(client.cable.online ? "" : " offline"): \(restored == nil ? "refused" : "ok")")
            case 91..<94:
                guard let expense = try await Self.pick(from: client, random) else { continue }
                let comment = try? await client.app.expenses.comment("C\(step)", on: expense.id, by: client.user.id)
                log.append("\(client.name) comments on \(expense.description)\(client.cable.online ? "" : " offline"): \(comment == nil ? "refused" : "ok")")
            case 94..<96:
                // A contact, with an email or none, and an expense with them at once: offline,
                // the expense names the contact before the server has seen it.
                let email = random.next(below: 2) == 0 ? nil : "k\(step)@example.com"
                let contact = try? await client.app.friends.addContact(name: "K\(step)", email: email, by: client.user.id)
                var line = "\(client.name) adds the contact K\(step)\(email.map { " <\($0)>" } ?? "")\(client.cable.online ? "" : " offline"): \(contact == nil ? "refused" : "ok")"
                if let contact {
                    let added = try? await client.app.expenses.add(OfflineWritesTests.draft("E\(step)", 1200, by: client.user.id, with: contact.id), by: client.user.id)
                    line += "; adds E\(step) 1200 with them: \(added == nil ? "refused" : "ok")"
                }
                log.append(line)
            case 96..<97:
                // One of the user's contacts renamed or removed (removing one with a balance is
                // refused, here or by the server).
                let contacts = ((try? await client.app.friends.friends(of: client.user.id)) ?? []).filter(\.isContact).sorted { $0.id.rawValue < $1.id.rawValue }
                guard !contacts.isEmpty else { continue }
                let contact = contacts[Int(random.next(below: UInt64(contacts.count)))]
                let offline = client.cable.online ? "" : " offline"
                if random.next(below: 2) == 0 {
                    let renamed = try? await client.app.friends.renameContact(contact.id, to: "\(contact.name.value)'", by: client.user.id)
                    log.append("\(client.name) renames \(contact.name.value)\(offline): \(renamed == nil ? "refused" : "ok")")
                } else {
                    let removed: Void? = try? await client.app.friends.remove(contact.id, by: client.user.id)
                    log.append("\(client.name) removes \(contact.name.value)\(offline): \(removed == nil ? "refused" : "ok")")
                }
            case 97..<98:
                let chosen = Preferences(theme: Theme.allCases[Int(random.next(below: UInt64(Theme.allCases.count)))], defaultCurrency: random.next(below: 2) == 0 ? .eur : .jpy)
                let set: Void? = try? await client.app.preferences.update(chosen, of: client.user.id)
                log.append("\(client.name) sets \(chosen.theme) and \(chosen.defaultCurrency.code)\(client.cable.online ? "" : " offline"): \(set == nil ? "refused" : "ok")")
            default:
                let report = await client.app.syncReplica(of: client.user.id)
                log.append("\(client.name) syncs: \(Self.describe(report))")
            }
        }
        // Everyone back: syncs until nobody pushes, then once more each to pull the last.
        serverUp.value = true
        for client in clients { (client.cable.online, client.cable.losesNextAnswer) = (true, false) }
        for _ in 0..<4 {
            var pushed = 0
            for client in clients {
                let report = await client.app.syncReplica(of: client.user.id)
                if case .success(let done)? = report { pushed += done.push.pushed + done.push.refused + done.push.conflicts }
                log.append("\(client.name) syncs at the end: \(Self.describe(report))")
            }
            if pushed == 0 { break }
        }
        var problems: [String] = []
        for client in clients {
            let writes = try await #require(client.app.writeQueue(of: client.user.id)).writes(of: client.user.id)
            let waiting = writes.filter { $0.refusal == nil }
            if !waiting.isEmpty { problems.append("\(client.name) still has \(waiting.count) writes waiting: \(waiting.map(\.summary))") }
            for refused in writes where refused.refusal != nil && refused.refusal?.reason.isEmpty == true {
                problems.append("\(client.name)'s refused write \(refused.summary) has no reason")
            }
            // A conflict is with someone else's change: never with the user's own (an edit the
            // server applied, whose answer was lost, then queued and pushed again).
            for conflict in writes where conflict.refusal?.kind == .conflict {
                let explanation = await client.app.explanation(of: conflict, for: client.user.id) ?? "none"
                if explanation.hasPrefix("You changed") { problems.append("\(client.name)'s \(conflict.summary) conflicts with their own change: \(explanation)") }
            }
            for refused in writes where refused.refusal != nil {
                log.append("kept for \(client.name): \(refused.summary): \(refused.refusal?.reason ?? "")")
            }
            let differences = try await UserView.differences(of: client.user.id, Self.view(client.direct), Self.view(client.app))
            if !differences.isEmpty { problems.append("\(client.name)'s replica differs from the server:\n" + differences.prefix(6).joined(separator: "\n")) }
            if let replica = client.app.replica(of: client.user.id), !(try await replica.services.verifier.verify()).isSound {
                problems.append("\(client.name)'s replica does not recount")
            }
        }
        if !(try await services.verifier.verify()).isSound { problems.append("the server's ledger does not recount") }
        return problems.isEmpty ? [] : problems + ["the schedule:"] + log.map { "  " + $0 }
    }

    /// A change to `client`'s groups: one made with one or both of the others when they have
    /// none open, or one of theirs renamed, a member taken out or put back, or archived or
    /// brought back; with, for a group made, an expense in it at once.
    private static func changeGroups(of client: Client, others: [Client], step: Int, _ random: SeededRandomSource) async throws -> String {
        let (app, me) = (client.app, client.user.id)
        let offline = client.cable.online ? "" : " offline"
        let groups = ((try? await app.groups.everyGroup(of: me)) ?? []).sorted { $0.id.rawValue < $1.id.rawValue }
        guard !groups.isEmpty, random.next(below: 4) != 0 else {
            let members = random.next(below: 2) == 0 ? others : [others[Int(random.next(below: 2))]]
            let made = try? await app.groups.create(GroupDraft(name: "G\(step)", currency: .eur, members: members.map(\.user.id)), by: me)
            var line = "\(client.name) makes G\(step) with \(members.map(\.name).joined(separator: " and "))\(offline): \(made == nil ? "refused" : "ok")"
            if let made {
                var draft = OfflineWritesTests.draft("E\(step)", 900, by: me, with: members[0].user.id)
                draft.group = made.id
                let added = try? await app.expenses.add(draft, by: me)
                line += "; adds E\(step) 900 in it with \(members[0].name): \(added == nil ? "refused" : "ok")"
            }
            return line
        }
        let group = groups[Int(random.next(below: UInt64(groups.count)))]
        switch random.next(below: 3) {
        case 0:
            let renamed = try? await app.groups.update(group.id, to: GroupSettings(name: group.name + "'", currency: group.currency), by: me)
            return "\(client.name) renames \(group.name)\(offline): \(renamed == nil ? "refused" : "ok")"
        case 1:
            let other = others[Int(random.next(below: 2))]
            if group.members.contains(other.user.id) {
                let out = try? await app.groups.removeMember(other.user.id, from: group.id, by: me)
                return "\(client.name) takes \(other.name) out of \(group.name)\(offline): \(out == nil ? "refused" : "ok")"
            }
            let added = try? await app.groups.addMembers([other.user.id], to: group.id, by: me)
            return "\(client.name) adds \(other.name) to \(group.name)\(offline): \(added == nil ? "refused" : "ok")"
        default:
            let set = try? await app.groups.setArchived(!group.archived, group.id, by: me)
            return "\(client.name) \(group.archived ? "brings back" : "archives") \(group.name)\(offline): \(set == nil ? "refused" : "ok")"
        }
    }

    /// One of the open groups `client`'s replica shows them in with `other` (or with anyone, for
    /// none), or none.
    private static func group(of client: Client, with other: Client?, _ random: SeededRandomSource) async throws -> Group? {
        let groups = ((try? await client.app.groups.groups(of: client.user.id, archived: false)) ?? [])
            .filter { group in other.map { group.members.contains($0.user.id) } ?? true }
            .sorted { $0.id.rawValue < $1.id.rawValue }
        guard !groups.isEmpty else { return nil }
        return groups[Int(random.next(below: UInt64(groups.count)))]
    }

    /// One of the expenses `client`'s replica shows, or none.
    private static func pick(from client: Client, _ random: SeededRandomSource) async throws -> Expense? {
        let expenses = (try? await client.app.expenses.expenses(of: client.user.id, page: PageRequest(limit: 100))) ?? []
        guard !expenses.isEmpty else { return nil }
        return expenses.sorted { $0.id.rawValue < $1.id.rawValue }[Int(random.next(below: UInt64(expenses.count)))]
    }

    private static func describe(_ report: Result<SyncReport, SyncError>?) -> String {
        switch report {
        case .success(let done)?:
            "pushed \(done.push.pushed), refused \(done.push.refused), conflicts \(done.push.conflicts), waiting \(done.push.waiting), pulled \(done.pull.changes)"
        case .failure(let error)?: error.message
        case nil: "no replica"
        }
    }

    private static func view(_ container: AppContainer) -> UserView {
        UserView(accounts: container.accounts, friends: container.friends, expenses: container.expenses, groups: container.groups, preferences: container.preferences)
    }


    /// One of the three: their app (on its replica, through its cable) and, for the checks, the
    /// server's own answers to them over HTTP.
    struct Client {
        let name: String
        let user: User
        let app: AppContainer
        let direct: AppContainer
        let cable: Cable
    }
}

/// The server's clock in a schedule: the time, but never within 2 ms of the last reading, and a
/// quarter of a millisecond past a whole one. Times travel in the contract to the millisecond, so
/// two writes the server made within one would be ordered by their sub-millisecond parts on the
/// server and by their ids on a replica (a difference the harness would report, and the app's
/// lists would show only for writes that close together).
final class TickingClock: Sendable {
    private let last = Mutex<Double>(0)

    func now() -> Date {
        last.withLock { last in
            let milliseconds = (max(Date().timeIntervalSince1970, last + 0.002) * 1000).rounded(.down)
            last = milliseconds / 1000 + 0.00025
            return Date(timeIntervalSince1970: last)
        }
    }
}

/// A flag several tasks read and one schedule sets.
final class Flag: Sendable {
    private let state: Mutex<Bool>
    init(_ value: Bool) { state = Mutex(value) }
    var value: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

/// A client's way to the server, which a schedule cuts: the client offline, or the server out of
/// reach of everyone. Cut, nothing answers, as when no server listens.
final class Cable: ClientTransport, Sendable {
    private let base = CurlTransport(timeout: 20)
    private let serverUp: Flag
    private let connected = Flag(true)
    /// Servers behind one database, taken in turn; none: the one the client names.
    private let servers: [URL]
    private let sent = Mutex(0)

    init(serverUp: Flag, servers: [URL] = []) {
        self.serverUp = serverUp
        self.servers = servers.count > 1 ? servers : []
    }

    var online: Bool {
        get { connected.value }
        set { connected.value = newValue }
    }

    /// Whether the next answer is lost on its way back: the server got the request and
    /// answered, and the client hears nothing (and sends it again under its key, or queues it).
    var losesNextAnswer: Bool {
        get { losing.withLock { $0 > 0 } }
        set { losing.withLock { $0 = newValue ? 1 : 0 } }
    }
    /// Loses the next `count` answers.
    func lose(_ count: Int) { losing.withLock { $0 = count } }
    private let losing = Mutex(0)

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        guard connected.value, serverUp.value else { throw CurlTransport.Failure(kind: .unreachable, description: "the cable is cut") }
        let url = servers.isEmpty ? baseURL : servers[sent.withLock { count in defer { count += 1 }; return count % servers.count }]
        let answer = try await base.send(request, body: body, baseURL: url, operationID: operationID)
        if losing.withLock({ count in defer { count = max(count - 1, 0) }; return count > 0 }) {
            // Read through, as the server wrote it, before it is lost.
            if let body = answer.1 { _ = try await Data(collecting: body, upTo: 1 << 26) }
            throw CurlTransport.Failure(kind: .timedOut, description: "the answer was lost")
        }
        return answer
    }
}

extension SeededRandomSource {
    /// A number from 0 to `bound` - 1 (a small bias is no matter for a schedule).
    func next(below bound: UInt64) -> UInt64 {
        bytes(8).reduce(0) { $0 << 8 | UInt64($1) } % max(bound, 1)
    }
}
