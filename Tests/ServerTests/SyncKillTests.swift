import Accounts
import Expenses
import FlowsApp
import FlowsServer
import Foundation
import Friends
import LocalStore
import Primitives
import Sync
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `flows sync` killed with SIGKILL while it pulls and while it pushes (docs/sync.md): the next
/// sync goes on from what the killed one left, every write made offline is on the server once,
/// and the replica shows its user what the server does.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct SyncKillTests {
    /// `flows` sits beside the test bundle in the build folder.
    static let flows = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("flows")

    /// The expenses on the server before the first pull: enough for several pages.
    static let history = 2_000

    @Test("flows sync killed during its pulls, then during pushes of writes made offline, loses nothing and applies nothing twice")
    func killed() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sync-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let adaHome = StoreLocation(directory: home.appendingPathComponent("ada"))
        let store = LocalDatabase.Place.file(home.appendingPathComponent("server.sqlite"))
        // Writes kept apart in time, as the lists order those of one moment by id on a replica.
        let clock = TickingClock()
        let services = ServerServices.sqlite(store, fast: true, now: { clock.now() })
        var server = try await RunningServer.start(services: services)
        let port = try #require(server.url.port)
        // Signed up in the app, which keeps the session for use offline.
        let app = AppContainer.remote(server: server.url, location: adaHome)
        let ada = try await app.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let sam = try await services.friends.addContact(name: "Sam Park", email: nil, by: ada.id)
        // Enough for a first pull of several pages, each its own transactions on the replica.
        for index in 0..<Self.history {
            _ = try await services.expenses.add(OfflineWritesTests.draft("Dinner \(index)", Int64(100 + index), by: ada.id, with: sam.id), by: ada.id)
        }
        var generator = SystemRandomNumberGenerator()

        // Killed during the pull, again and again, then left to finish.
        var killedPulling = 0
        for _ in 0..<6 {
            if try await Self.sync(in: home, server: server.url, killedAfter: .milliseconds(Int.random(in: 100...1_500, using: &generator))) { killedPulling += 1 }
        }
        #expect(try await Self.sync(in: home, server: server.url, killedAfter: nil) == false)
        let replicated = AppContainer.remote(server: server.url, location: adaHome)
        try await Self.expectSame(for: ada.id, replicated, server: server, home: adaHome)

        // Writes made offline, pushed by syncs killed part way.
        var made: [ExpenseID] = []
        var killedPushing = 0
        for round in 0..<4 {
            await server.stop()
            let offline = AppContainer.remote(server: server.url, location: adaHome)
            #expect(try await offline.accounts.storedSession() == .signedIn(ada))
            for index in 0..<30 {
                let draft = OfflineWritesTests.draft("Taxi \(round)-\(index)", Int64(1_000 + index), by: ada.id, with: sam.id)
                made.append(try await offline.expenses.add(draft, by: ada.id).id)
            }
            server = try await RunningServer.start(services: services, configuration: ServerConfiguration(port: port))
            if try await Self.sync(in: home, server: server.url, killedAfter: .milliseconds(Int.random(in: 50...600, using: &generator))) { killedPushing += 1 }
        }
        // A push that a kill cut short may still be running on the server: the writes it holds
        // are answered "key in use" meanwhile, and wait for a later sync (docs/sync.md).
        for _ in 0..<5 {
            #expect(try await Self.sync(in: home, server: server.url, killedAfter: nil) == false)
            let waiting = try await #require(AppContainer.remote(server: server.url, location: adaHome).writeQueue(of: ada.id)).writes(of: ada.id)
            if waiting.isEmpty { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        var onServer: [Expense] = []
        var page = PageRequest(offset: 0, limit: 1_000)
        while case let found = try await services.expenses.expenses(of: ada.id, page: page), !found.isEmpty {
            onServer += found
            page = page.next
        }
        #expect(onServer.count == Self.history + made.count, "every write made offline once: \(onServer.count) expenses for \(Self.history + made.count)")
        #expect(Set(made).isSubset(of: Set(onServer.map(\.id))))
        let after = AppContainer.remote(server: server.url, location: adaHome)
        #expect(try await #require(after.writeQueue(of: ada.id)).writes(of: ada.id).isEmpty)
        try await Self.expectSame(for: ada.id, after, server: server, home: adaHome)
        print(
            "kill -9 during sync: \(killedPulling) of 6 pulls and \(killedPushing) of 4 pushes killed before they ended; \(made.count) writes made offline, each on the server once"
        )
        await server.stop()
        await services.close()
    }

    /// Runs `flows sync` in `home`'s Ada home against `server`, killed with
    /// SIGKILL after `delay` (nil: left to end, and it must end well). Whether it was killed.
    private static func sync(in home: URL, server: URL, killedAfter delay: Duration?) async throws -> Bool {
        let process = Process()
        process.executableURL = flows
        process.arguments = ["sync"]
        var environment = ProcessInfo.processInfo.environment
        environment["FLOWS_HOME"] = home.appendingPathComponent("ada").path
        environment["FLOWS_SERVER"] = server.absoluteString
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = AsyncStream<Void> { continuation in
            process.terminationHandler = { _ in continuation.yield(); continuation.finish() }
        }
        try process.run()
        if let delay {
            try await Task.sleep(for: delay)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        for await _ in ended { break }
        if delay == nil { #expect(process.terminationStatus == 0, "flows sync ended with \(process.terminationStatus)") }
        return process.terminationReason == .uncaughtSignal
    }

    /// Ada's replica in `home` shows her what the server does, and its ledger recounts.
    private static func expectSame(for user: UserID, _ app: AppContainer, server: RunningServer, home: StoreLocation) async throws {
        let direct = AppContainer.remote(server: server.url, location: home, replicated: false)
        let differences = try await UserView.differences(of: user, Self.view(direct), Self.view(app))
        #expect(differences.isEmpty, "\(differences.prefix(6).joined(separator: "\n"))")
        let replica = try #require(app.replica(of: user))
        #expect(try await replica.services.verifier.verify().isSound)
    }

    private static func view(_ container: AppContainer) -> UserView {
        UserView(accounts: container.accounts, friends: container.friends, expenses: container.expenses, groups: container.groups, preferences: container.preferences)
    }
}
