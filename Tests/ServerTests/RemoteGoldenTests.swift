import AccountsData
import FlowTesting
import FlowsApp
import FlowsServer
import Foundation
import PostgresStore
import Synchronization
import Testing

/// The golden scripts again, each flow run by the CLI's services against flows-server over
/// HTTP, as `flows --server` runs them: kept in a replica of the user's view, which answers the
/// reads it holds, every write going to the server and then pulled in (docs/sync.md). The
/// transcripts must be the goldens, word for word.
///
/// Each script gets a fresh server on a fresh store with the in-memory container's seed and
/// clock, so ids, friend codes and days come out as they do in `flows test`. Its `given` steps
/// run on the server's own services (setting up, as the users they name); its flow runs over
/// HTTP, signed in with the session the steps left.
@Suite(.timeLimit(.minutes(10)))
struct RemoteGoldenTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Goldens").path
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    /// A step goes over HTTP, and a script's first step starts its server too, while the test run
    /// keeps every core busy with other suites: a step may take longer than in-process, and a
    /// flow still counts as hung well before the suite's time limit.
    static let stepLimit = Duration.seconds(120)

    @Test func everyGoldenScriptOverHTTP() async throws {
        let scripts = try GoldenSuite.scripts(under: [Self.goldens])
        #expect(scripts.count >= 80)
        let suite = GoldenSuite(stepLimit: Self.stepLimit) { script in try Self.launch(for: script) }
        var failures: [String] = []
        for script in scripts {
            let result = await suite.run(scriptAt: script, update: false)
            if !result.passed { failures.append("\(script):\n\(result.report)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(scripts.count) scripts differ over HTTP:\n\(failures.joined(separator: "\n\n"))")
    }

    /// The same on PostgreSQL: each script on a database of its own, dropped afterwards.
    @Test(.enabled(if: TestPostgres.url != nil, "FLOWS_TEST_DATABASE_URL names no PostgreSQL server (Scripts/test starts one)"))
    func everyGoldenScriptOverHTTPOnPostgres() async throws {
        let admin = try #require(try TestPostgres.url.map { try DatabaseURL($0) })
        let scripts = try GoldenSuite.scripts(under: [Self.goldens])
        let databases = Databases(admin: admin)
        // Made before the suite runs: a launch is not async. One for each script, in order.
        var urls: [DatabaseURL] = []
        for _ in scripts { urls.append(try await databases.fresh()) }
        let unused = Mutex(urls)
        let suite = GoldenSuite(stepLimit: Self.stepLimit) { script in
            guard let url = unused.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { throw ServerTestError("no database left") }
            return try Self.launch(for: script, database: url)
        }
        var failures: [String] = []
        for script in scripts {
            let result = await suite.run(scriptAt: script, update: false)
            if !result.passed { failures.append("\(script):\n\(result.report)") }
        }
        await databases.dropAll()
        #expect(failures.isEmpty, "\(failures.count) of \(scripts.count) scripts differ over HTTP on PostgreSQL:\n\(failures.joined(separator: "\n\n"))")
    }

    static func launch(for script: Script, database: DatabaseURL? = nil) throws -> GoldenSuite.Launch {
        let services = database.map { ServerServices.postgres($0, maximumConnections: 4, fast: true, now: { now }) }
            ?? ServerServices.sqlite(.memory, fast: true, now: { now })
        let tokens = InMemorySessionTokenStore()
        // The steps act on the server's own services; the session they leave is the client's.
        let fixtures = AppContainer(
            accounts: services.sessions(tokens), expenses: services.expenses, friends: services.friends, groups: services.groups,
            areas: services.areas, now: { now }, timeZone: .gmt
        )
        let running = Running()
        // A change made on the server while the flow runs reaches the replica as a sync brings it.
        return try GoldenScripts.launch(for: script, fixtures: fixtures, given: { await running.client?.pullReplica() }) {
            do {
                let server = try await RunningServer.start(services: services)
                await running.set(server)
                let client = AppContainer.remote(server: server.url, tokens: tokens, now: { now }, timeZone: .gmt, replicasInMemory: true)
                await running.set(client)
                return client
            } catch {
                // The flow then fails on an unreachable server, and the transcript says so.
                return AppContainer.remote(server: URL(fileURLWithPath: "/"), tokens: tokens, now: { now }, timeZone: .gmt, replicasInMemory: true)
            }
        } finish: {
            // Recounted before the server stops: stopping closes its store.
            let problem: String?
            do {
                let check = try await services.verifier.verify()
                problem = check.isSound ? nil : "the ledger does not recount after the run"
            } catch {
                problem = "the ledger cannot be recounted: \(error)"
            }
            await running.stop()
            return problem
        }
    }

    /// The server of one script's run, once it started.
    actor Running {
        private var server: RunningServer?
        /// The flow's container, once it runs.
        private(set) var client: AppContainer?
        func set(_ server: RunningServer) { self.server = server }
        func set(_ client: AppContainer) { self.client = client }
        func stop() async {
            await server?.stop()
            server = nil
        }
    }
}
