import Expenses
import FlowsServices
import Foundation
import GRDB
import LocalStore
import Primitives
import Testing

/// `flows-writer` processes on one store file: killed with SIGKILL at random moments, and four
/// at once. After each, the store opens, SQLite finds it intact, the ledger recounts, no
/// expense is partly written, and every write a process reported done is there.
@Suite("The store under kill -9 and several processes", .serialized)
struct StoreDurabilityTests {
    /// `flows-writer` sits beside the test bundle, like `flows`.
    static let writer = FlowsProcess.executable.deletingLastPathComponent().appendingPathComponent("flows-writer")

    @Test("100 writers killed at random moments leave an intact store with every reported write")
    func killed() async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        var reported = Reported()
        var generator = SystemRandomNumberGenerator()
        var midWrite = 0
        for _ in 0..<100 {
            let process = try Self.start(home: home, name: "killed")
            // Once it has signed up (which hashes a password, slow in a debug build), anywhere
            // from before its first write to a few dozen writes in; now and then still earlier.
            let early = Int.random(in: 0..<10, using: &generator) == 0
            if !early { #expect(await process.signedUp(), "\(process.errors())") }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...120, using: &generator)))
            kill(process.process.processIdentifier, SIGKILL)
            await process.ended()
            #expect(process.process.terminationReason == .uncaughtSignal, "\(process.errors())")
            let lines = process.lines()
            if lines.count > 1 { midWrite += 1 }
            reported.read(lines, killed: true)
            // This process's writes now (the earlier ones were checked after their own kill),
            // and everyone's at the end.
            var latest = Reported()
            latest.read(lines, killed: true)
            try await Self.check(home: home, reported: latest)
        }
        try await Self.check(home: home, reported: reported)
        // Most kills landed among the writes, not before the first.
        #expect(midWrite > 50, "only \(midWrite) of 100 processes reported a write before they were killed")
        #expect(reported.expenses.count > 100)
        print("kill -9: 100 writers killed, \(midWrite) after their first write; \(reported.expenses.count) expenses and \(reported.settlements.count) payments reported, all there")
    }

    @Test("four writers at once for three seconds: no write lost, no 'database is locked', the ledger recounts")
    func concurrent() async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let processes = try (1...4).map { try Self.start(home: home, name: "writer-\($0)", seconds: 3) }
        var reported = Reported()
        for process in processes {
            await process.ended()
            #expect(process.process.terminationStatus == 0, "\(process.errors())")
            #expect(process.errors().isEmpty)
            reported.read(process.lines(), killed: false)
        }
        #expect(reported.users.count == 4)
        #expect(reported.expenses.count > 40, "the four wrote only \(reported.expenses.count) expenses")
        try await Self.check(home: home, reported: reported)
        print("four writers at once: \(reported.expenses.count) expenses and \(reported.settlements.count) payments reported, all there")
    }

    // MARK: - Checking a store

    static func check(home: URL, reported: Reported) async throws {
        let location = try StoreLocation.resolve(environment: ["FLOWS_HOME": home.path])
        let database = LocalDatabase(.file(location.databaseFile), migrations: LocalServices.registerMigrations)
        let integrity = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        let partial = try database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM expense WHERE id NOT IN (SELECT expense_id FROM expense_person)") ?? -1
        }
        #expect(partial == 0, "expenses without their people")

        let services = LocalServices.open(location)
        let check = try await services.verifier.verify()
        #expect(check.isSound, "\(check.summary) \(check.differences) \(check.brokenExpenses)")
        for (id, expected) in reported.expenses {
            let user = UserID(rawValue: expected.user)
            let found = try await services.expenses.expense(ExpenseID(rawValue: id), for: user)
            let kept = try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM deleted_expense WHERE id = ?", arguments: [id]) }
            if expected.deleted {
                #expect(found == nil, "expense \(id) was reported deleted")
                #expect(kept == 1, "deleted expense \(id) is not kept for a restore")
            } else if found?.amount.minorUnits != expected.units {
                // The process may have been killed after its last write returned and before it
                // said so: that expense may be one step further (edited one unit up, or deleted).
                let aheadByOne = switch reported.unconfirmedNext[id] {
                case .editedUp?: found?.amount.minorUnits == expected.units + 1
                case .deleted?: found == nil && kept == 1
                case nil: false
                }
                #expect(aheadByOne, "expense \(id) was reported at \(expected.units), the store has \(found?.amount.minorUnits.description ?? "none")")
            }
        }
        for id in reported.settlements {
            let count = try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM settlement WHERE id = ?", arguments: [id]) }
            #expect(count == 1, "payment \(id) was reported recorded")
        }
    }

    /// What the writers said they wrote.
    struct Reported {
        var users: [String] = []
        var expenses: [String: (user: String, units: Int64, deleted: Bool)] = [:]
        var settlements: [String] = []
        /// For each killed process, the expense its last reported write was about, and the one
        /// state that expense may be in beyond it: its next write may have returned without being
        /// reported (after `added`, edited one unit up; after `edited`, deleted).
        var unconfirmedNext: [String: Ahead] = [:]

        enum Ahead {
            case editedUp
            case deleted
        }

        /// One process's lines: its user first.
        mutating func read(_ lines: [String], killed: Bool) {
            var user = ""
            var last: (id: String, ahead: Ahead)?
            defer { if killed, let last { unconfirmedNext[last.id] = last.ahead } }
            for line in lines {
                let words = line.split(separator: " ").map(String.init)
                switch (words.first, words.count) {
                case ("user", 2):
                    user = words[1]
                    users.append(user)
                case ("added", 3):
                    expenses[words[1]] = (user, Int64(words[2]) ?? -1, false)
                    last = (words[1], .editedUp)
                case ("edited", 3):
                    expenses[words[1]] = (user, Int64(words[2]) ?? -1, false)
                    last = (words[1], .deleted)
                case ("deleted", 2):
                    expenses[words[1]]?.deleted = true
                    last = nil
                case ("settled", 3):
                    settlements.append(words[1])
                    last = nil
                default:
                    // A line cut by the kill is not a report.
                    continue
                }
            }
        }
    }

    // MARK: - Processes

    static func home() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("flows-durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    /// A running writer whose output is read as it comes (a full pipe would stall it).
    final class Running: Sendable {
        let process: Process
        private let output: Collected
        private let errorOutput: Collected

        init(_ process: Process, stdout: Pipe, stderr: Pipe) {
            self.process = process
            output = Collected(stdout)
            errorOutput = Collected(stderr)
        }

        /// Waits, without holding a thread of the test's pool, until the writer has said who it is.
        func signedUp(within seconds: Double = 120) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if output.text.hasPrefix("user ") && output.text.contains("\n") { return true }
                if !process.isRunning { return false }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return false
        }

        /// Waits for the process to end, off the test's pool.
        func ended() async {
            _ = try? await onOwnThread { [process] in process.waitUntilExit() }
        }

        /// The complete lines written, once the process has ended (a last line without its
        /// newline was cut short by a kill).
        func lines() -> [String] {
            var lines = output.all().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.removeLast()
            return lines
        }

        /// What it wrote to standard error: all of it once it has ended; so far while it runs.
        /// A message about a writer still running (one that did not sign up in time) must not
        /// wait for its end, which comes only once the test goes on to kill it.
        func errors() -> String {
            process.isRunning ? errorOutput.text : errorOutput.all()
        }
    }

    static func start(home: URL, name: String, seconds: Double? = nil) throws -> Running {
        let process = Process()
        process.executableURL = writer
        process.arguments = [home.path, name] + (seconds.map { [String($0)] } ?? [])
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process, stdout: stdout, stderr: stderr)
    }
}
