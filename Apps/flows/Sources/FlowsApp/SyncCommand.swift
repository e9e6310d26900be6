import Accounts
import ArgumentParser
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
            signed-in user sees there, in a store of its own per user beside the session. `flows \
            sync` pulls what changed since the last sync, page by page; the first sync pulls \
            everything. --status says when each replica last synced, without asking the server. \
            (Writes still go straight to the server; the queue of writes made offline is not \
            built yet, so nothing waits to be pushed.)

            Never prompts. Exit status: 0 synced, 1 nobody signed in, the server could not be \
            reached or refused, or the replica could not be written; 2 no server named.
            """
    )

    @OptionGroup var options: ReadOptions

    @Flag(help: "Say when each replica of the server last synced, without asking the server.")
    var status = false

    /// What `--json` prints after a sync.
    struct Output: Encodable {
        let server: String
        let user: String
        /// Changes written to the replica.
        let pulled: Int
        let pages: Int
        /// Whether the sync began without a cursor: the replica's first, or one started again.
        let fromScratch: Bool
        /// Writes pushed, refused and in conflict: none until writes are queued offline.
        let pushed: Int
        let refused: Int
        let conflicts: Int
    }

    /// What `--status --json` prints.
    struct Status: Encodable {
        struct Replica: Encodable {
            let user: String
            let email: String?
            /// When its last page was written (ISO 8601), or nil before its first.
            let lastSync: Date?
            /// Writes waiting to be pushed: none until writes are queued offline.
            let waiting: Int
        }
        let server: String
        let replicas: [Replica]
    }

    func run() async throws {
        guard let server = try options.launch.serverURL() else {
            throw UsageError("flows sync keeps a copy of a server's store: name the server with --server URL or FLOWS_SERVER")
        }
        if status { return try await printStatus(of: server) }
        // Who is signed in, asked of the server alone: the pull below is the sync's own.
        let reader = try await Reader.signedIn(
            AppContainer.remote(server: server, location: try Launcher.storeLocation(), replicated: false)
        )
        guard let replica = reader.container.replica(of: reader.user.id), let sync = reader.container.sync else {
            throw Reader.failed("the folder of this server's replicas cannot be made")
        }
        let report: PullReport
        do throws(SyncError) { report = try await replica.pull(for: reader.user.id, from: sync) } catch { throw Reader.failed(error.message) }
        if options.json {
            return Reader.printJSON(Output(
                server: server.absoluteString, user: reader.user.email.value, pulled: report.changes, pages: report.pages,
                fromScratch: report.fromScratch, pushed: 0, refused: 0, conflicts: 0
            ))
        }
        StandardOutput.line(Self.sentence(report, server: server, user: reader.user))
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
                replicas.append(.init(
                    user: user.rawValue, email: account?.email.value, lastSync: pulledAt.map { Date(timeIntervalSince1970: $0) }, waiting: 0
                ))
            }
        }
        if options.json { return Reader.printJSON(Status(server: server.absoluteString, replicas: replicas)) }
        guard !replicas.isEmpty else { return StandardOutput.line("No copy of \(server.absoluteString) on this machine yet: run `flows sync`.") }
        let format = Date.ISO8601FormatStyle(timeZone: container.timeZone).year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
            .timeSeparator(.colon).dateTimeSeparator(.space)
        for replica in replicas {
            let when = replica.lastSync.map { "last synced \($0.formatted(format))" } ?? "never synced"
            StandardOutput.line("\(replica.email ?? replica.user): \(when); nothing waits to be pushed.")
        }
    }
}
