import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The app open on a terminal with a server (docs/sync.md): a change made elsewhere reaches the
/// screen by itself, through a sync in the background, with nothing typed.
@Suite("flows in a real terminal, with a server", .enabled(if: PseudoTerminal.available, "this machine has no pseudo-terminals"))
struct TerminalSyncTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    /// flows-server, built beside `flows`, on a store in memory and a port of its own (another
    /// tried when the one picked is taken); nil when none answered.
    private func startServer() async throws -> (Process, URL)? {
        for _ in 0..<5 {
            if let started = try await startServer(on: Int.random(in: 20_000..<40_000)) { return started }
        }
        return nil
    }

    /// flows-server on `port`; nil when it ended (the port was taken) or did not answer within 20 seconds.
    private func startServer(on port: Int) async throws -> (Process, URL)? {
        let server = Process()
        server.executableURL = FlowsProcess.executable.deletingLastPathComponent().appendingPathComponent("flows-server")
        server.arguments = [
            "--database", "memory", "--host", "127.0.0.1", "--port", "\(port)", "--mail", "outbox:\(flows.home.appendingPathComponent("outbox").path)",
            "--mail-from", "flows@example.com",
        ]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        for _ in 0..<200 {
            if (try? await URLSession.shared.data(from: url.appendingPathComponent("health"))) != nil { return (server, url) }
            guard server.isRunning else { return nil }
            try await Task.sleep(for: .milliseconds(100))
        }
        server.terminate()
        return nil
    }

    @Test("an expense added on another machine shows on the open Expenses tab, without a key pressed")
    func changeElsewhereShows() async throws {
        defer { flows.removeHome() }
        guard let (server, url) = try await startServer() else {
            Issue.record("flows-server did not start")
            return
        }
        defer { server.terminate() }
        let here = flows.home.appendingPathComponent("here").path
        let elsewhere = flows.home.appendingPathComponent("elsewhere").path
        let signUp = try await flows.run(
            ["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "display-name=Ada Lovelace", "--set", "password=correct horse"],
            environment: ["FLOWS_HOME": here, "FLOWS_SERVER": url.absoluteString]
        )
        #expect(signUp.status == 0, "\(signUp.stderr)")

        let environment = [
            "FLOWS_HOME": here, "FLOWS_SERVER": url.absoluteString, "FLOWS_SYNC_EVERY": "0.3", "TERM": "xterm-256color", "PATH": "/usr/bin:/bin",
            "HOME": flows.home.path,
        ]
        let session = try PseudoTerminal(arguments: [], environment: environment)
        try await session.waitFor("No activity yet")
        let mark = session.output.utf8.count

        // Ada's other machine: a contact and an expense with them.
        for arguments in [
            ["run", "SignIn", "--no-input", "--set", "email=ada@example.com", "--set", "password=correct horse"],
            ["run", "AddFriend", "--no-input", "--set", "how=contact", "--set", "value=Sam Park"],
            ["run", "AddExpense", "--no-input", "--set", "description=Dinner", "--set", "amount=42.00", "--set", "with=Sam Park", "--set", "split=equal"],
        ] {
            let outcome = try await flows.run(arguments, environment: ["FLOWS_HOME": elsewhere, "FLOWS_SERVER": url.absoluteString])
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
        }
        // Nothing typed: the background sync brings it, and the tab reads again.
        _ = try await session.waitFor("Sam Park owes you 21.00 EUR.", since: mark, seconds: 30)
        session.type("\u{3}")                            // Ctrl-C leaves the app
        #expect(try await session.exitStatus() == 130)
    }
}
