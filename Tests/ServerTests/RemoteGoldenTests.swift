import AccountsData
import FlowTesting
import FlowsApp
import FlowsServer
import Foundation
import Testing

/// The golden scripts again, each flow run by the CLI's remote services against flows-server
/// over HTTP: the transcripts must be the goldens, word for word.
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

    @Test func everyGoldenScriptOverHTTP() async throws {
        let scripts = try GoldenSuite.scripts(under: [Self.goldens])
        #expect(scripts.count >= 80)
        let suite = GoldenSuite { script in try Self.launch(for: script) }
        var failures: [String] = []
        for script in scripts {
            let result = await suite.run(scriptAt: script, update: false)
            if !result.passed { failures.append("\(script):\n\(result.report)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(scripts.count) scripts differ over HTTP:\n\(failures.joined(separator: "\n\n"))")
    }

    static func launch(for script: Script) throws -> GoldenSuite.Launch {
        let services = ServerServices.sqlite(.memory, fast: true, now: { now })
        let tokens = InMemorySessionTokenStore()
        // The steps act on the server's own services; the session they leave is the client's.
        let fixtures = AppContainer(
            accounts: services.sessions(tokens), expenses: services.expenses, friends: services.friends, preferences: services.preferences,
            now: { now }, timeZone: .gmt
        )
        let running = Running()
        return try GoldenScripts.launch(for: script, fixtures: fixtures) {
            do {
                let server = try await RunningServer.start(services: services)
                await running.set(server)
                return AppContainer.remote(server: server.url, tokens: tokens, now: { now }, timeZone: .gmt)
            } catch {
                // The flow then fails on an unreachable server, and the transcript says so.
                return AppContainer.remote(server: URL(fileURLWithPath: "/"), tokens: tokens, now: { now }, timeZone: .gmt)
            }
        } finish: {
            await running.stop()
            do {
                let check = try await services.verifier.verify()
                return check.isSound ? nil : "the ledger does not recount after the run"
            } catch {
                return "the ledger cannot be recounted: \(error)"
            }
        }
    }

    /// The server of one script's run, once it started.
    actor Running {
        private var server: RunningServer?
        func set(_ server: RunningServer) { self.server = server }
        func stop() async {
            await server?.stop()
            server = nil
        }
    }
}
