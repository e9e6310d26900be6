import Accounts
import ArgumentParser
import Expenses
import FlowsServices
import Foundation
import Primitives
import Sync

/// `flows sync`: brings this machine's replica of the signed-in user's view of their server up
/// to date (docs/sync.md), or says how far it is without asking the server.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Bring this machine's copy of what you see on your server up to date.",
        discussion: """
            With a server (--server URL, or FLOWS_SERVER), flows keeps a replica of everything the \
            signed-in user sees there, in a store of its own per user beside the session. An \
            expense added, changed or deleted while the server cannot be reached changes the \
            replica at once and waits there. `flows sync` pushes what waits, oldest first, then pulls what changed \
            since the last sync, page by page (the first sync pulls everything). A write the \
            server refuses (a friendship that ended meanwhile, say) leaves the replica and stays \
            listed, with the server's reason (naming people as the replica knows them), until \
            dropped with --drop KEY. An edit made to an \
            expense someone changed meanwhile is a conflict, listed with both changes: keep \
            theirs with --drop KEY, or make yours again on top of theirs with --apply-mine KEY. \
            --status says when each replica last synced and what waits, without asking the server.

            Never prompts. Exit status: 0 synced, 1 nobody signed in, the server could not be \
            reached or refused the sync, or the replica could not be written; 2 no server named.
            """
    )

    @OptionGroup var options: ReadOptions

    @Flag(help: "Say when each replica of the server last synced and what waits, without asking the server.")
    var status = false

    @Option(name: .customLong("drop"), help: ArgumentHelp("Drop a write the server refused, by the key --status lists (keep theirs).", valueName: "key"))
    var drop: String?

    @Option(
        name: .customLong("apply-mine"),
        help: ArgumentHelp("Make an edit in conflict again on top of the expense as it is now, by the key --status lists.", valueName: "key")
    )
    var applyMine: String?

    /// What `--json` prints after a sync.
    struct Output: Encodable {
        let server: String
        let user: String
        /// Changes written to the replica.
        let pulled: Int
        let pages: Int
        /// Whether the sync began without a cursor: the replica's first, or one started again.
        let fromScratch: Bool
        /// Writes pushed, refused and in conflict.
        let pushed: Int
        let refused: Int
        let conflicts: Int
        /// Writes still waiting (the server stopped answering part way).
        let waiting: Int
    }

    /// What `--status --json` prints.
    struct Status: Encodable {
        struct Replica: Encodable {
            let user: String
            let email: String?
            /// When its last page was written (ISO 8601), or nil before its first.
            let lastSync: Date?
            /// Writes waiting to be pushed.
            let waiting: Int
            /// Every write made on the replica not yet applied by the server, oldest first.
            let writes: [Write]
        }
        /// A write made offline: waiting, or refused by the server (with its reason).
        struct Write: Encodable {
            let key: String
            let operation: String
            let summary: String
            let made: Date
            /// `waiting`, `refused` or `conflict`.
            let state: String
            let reason: String?
            /// For a conflict, both changes in words.
            let explanation: String?
        }
        let server: String
        let replicas: [Replica]
    }

    func run() async throws {
        guard let server = try options.launch.serverURL() else {
            throw UsageError("flows sync keeps a copy of a server's store: name the server with --server URL or FLOWS_SERVER")
        }
        if status { return try await printStatus(of: server) }
        if let drop { return try await dropWrite(drop, on: server) }
        if let applyMine { return try await applyingMine(applyMine, on: server) }
        // Who is signed in, asked of the server alone: the pull below is the sync's own.
        let reader = try await Reader.signedIn(
            AppContainer.remote(server: server, location: try Launcher.storeLocation(), replicated: false)
        )
        guard let result = await reader.container.syncReplica(of: reader.user.id) else {
            throw Reader.failed("the folder of this server's replicas cannot be made")
        }
        let report: SyncReport
        switch result {
        case .success(let done): report = done
        case .failure(let error): throw Reader.failed(error.message)
        }
        if options.json {
            return Reader.printJSON(Output(
                server: server.absoluteString, user: reader.user.email.value, pulled: report.pull.changes, pages: report.pull.pages,
                fromScratch: report.pull.fromScratch, pushed: report.push.pushed, refused: report.push.refused, conflicts: report.push.conflicts,
                waiting: report.push.waiting
            ))
        }
        if let pushed = Self.sentence(report.push) { StandardOutput.line(pushed) }
        if report.push.waiting == 0 { StandardOutput.line(Self.sentence(report.pull, server: server, user: reader.user)) }
    }

    /// `Pushed 2 changes; 1 was refused (flows sync --status says why).`, or nil when nothing waited.
    static func sentence(_ report: PushReport) -> String? {
        let count = { (n: Int) in n == 1 ? "1 change" : "\(n) changes" }
        guard report.pushed + report.refused + report.conflicts + report.waiting > 0 else { return nil }
        var parts = ["Pushed \(count(report.pushed))"]
        let turnedDown = report.refused + report.conflicts
        if turnedDown > 0 { parts.append("\(turnedDown == 1 ? "1 was" : "\(turnedDown) were") refused (flows sync --status says why)") }
        if report.waiting > 0 { parts.append("\(count(report.waiting)) still wait: the server stopped answering") }
        return parts.joined(separator: "; ") + "."
    }

    /// Drops write `key`, one the server refused (or one still waiting: its author no longer wants it).
    /// The edit goes to the server, or waits with the others while the server cannot be reached.
    private func applyingMine(_ key: String, on server: URL) async throws {
        let container = AppContainer.remote(server: server, location: try Launcher.storeLocation())
        guard let user = container.keptUser else { throw Reader.failed("nobody is signed in to \(server.absoluteString) on this machine") }
        _ = try? await container.accounts.storedSession()
        let edited: Expense?
        do throws(ExpensesError) { edited = try await container.applyMine(key, for: user.id) } catch { throw Reader.failed(error.message) }
        guard let edited else {
            throw Reader.failed("no edit \(key) in conflict on this machine for \(user.email.value) (flows sync --status lists them)")
        }
        StandardOutput.line("Made yours again on top of theirs: \(edited.description), \(edited.amount).")
    }

    /// Asks no server: the user is the one signed in on this machine, as last seen.
    private func dropWrite(_ key: String, on server: URL) async throws {
        let container = AppContainer.remote(server: server, location: try Launcher.storeLocation(), replicated: false)
        guard let user = container.keptUser else { throw Reader.failed("nobody is signed in to \(server.absoluteString) on this machine") }
        guard let queue = container.writeQueue(of: user.id) else { throw Reader.failed("the folder of this server's replicas cannot be made") }
        let writes: [QueuedWrite]
        do throws(SyncError) { writes = try await queue.writes(of: user.id) } catch { throw Reader.failed(error.message) }
        guard let write = writes.first(where: { $0.operation.key == key }) else {
            throw Reader.failed("no write \(key) waits on this machine for \(user.email.value) (flows sync --status lists them)")
        }
        let dropped: Bool
        do throws(SyncError) { dropped = try await queue.drop(key, for: user.id) } catch { throw Reader.failed(error.message) }
        guard dropped else { throw Reader.failed("\(write.summary) still waits for the server, which answers it at the next sync: only a write it refused can be dropped") }
        StandardOutput.line("Dropped \(write.summary): it will not be sent.")
    }

    /// `Pulled 14 changes from http://localhost:8080 for ada@example.com: up to date.`
    static func sentence(_ report: PullReport, server: URL, user: User) -> String {
        let (changes, place) = (report.changes == 1 ? "1 change" : "\(report.changes) changes", server.absoluteString)
        if report.fromScratch { return "Pulled everything (\(changes)) from \(place) for \(user.email.value): up to date." }
        if report.changes == 0 { return "Nothing changed on \(place) for \(user.email.value) since the last sync: up to date." }
        return "Pulled \(changes) from \(place) for \(user.email.value): up to date."
    }

    private func printStatus(of server: URL) async throws {
        let container = AppContainer.remote(server: server, location: try Launcher.storeLocation(), replicated: false)
        var replicas: [Status.Replica] = []
        if let folder = container.replicas {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.directory.path)) ?? []
            for file in files.sorted() where file.hasSuffix(".sqlite") {
                let user = UserID(rawValue: String(file.dropLast(".sqlite".count)))
                guard let replica = container.replica(of: user) else { continue }
                let pulledAt: Double?
                do throws(SyncError) { pulledAt = try await replica.state(of: user)?.pulledAt } catch { throw Reader.failed(error.message) }
                let account = try? await replica.services.accounts.users([user], for: user).first
                let writes = (try? await container.pendingWrites(of: user)) ?? []
                let listed = writes.map { write in
                    Status.Write(
                        key: write.key, operation: write.operation, summary: write.summary, made: write.made, state: write.outcome?.rawValue ?? "waiting",
                        reason: write.reason, explanation: write.explanation
                    )
                }
                replicas.append(.init(
                    user: user.rawValue, email: account?.email.value, lastSync: pulledAt.map { Date(timeIntervalSince1970: $0) },
                    waiting: writes.count { $0.outcome == nil }, writes: listed
                ))
            }
        }
        if options.json { return Reader.printJSON(Status(server: server.absoluteString, replicas: replicas)) }
        guard !replicas.isEmpty else { return StandardOutput.line("No copy of \(server.absoluteString) on this machine yet: run `flows sync`.") }
        let format = Date.ISO8601FormatStyle(timeZone: container.timeZone).year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
            .timeSeparator(.colon).dateTimeSeparator(.space)
        for replica in replicas {
            let when = replica.lastSync.map { "last synced \($0.formatted(format))" } ?? "never synced"
            let waiting = switch replica.waiting {
            case 0: "nothing waits to be pushed"
            case 1: "1 change waits to be pushed"
            default: "\(replica.waiting) changes wait to be pushed"
            }
            StandardOutput.line("\(replica.email ?? replica.user): \(when); \(waiting).")
            for write in replica.writes {
                let made = write.made.formatted(format)
                if let explanation = write.explanation {
                    StandardOutput.line(
                        "  in conflict: \(write.summary) (made \(made)): \(explanation) Keep theirs: flows sync --drop \(write.key); "
                            + "make yours again on top: flows sync --apply-mine \(write.key)"
                    )
                } else if let reason = write.reason {
                    StandardOutput.line("  not synced: \(write.summary) (made \(made)): \(reason) Drop it with: flows sync --drop \(write.key)")
                } else {
                    StandardOutput.line("  waiting: \(write.summary) (made \(made))")
                }
            }
        }
    }
}
