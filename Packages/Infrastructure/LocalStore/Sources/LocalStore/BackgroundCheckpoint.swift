import Foundation
import GRDB
import Synchronization

/// Copies committed transactions from the write-ahead log into the database file on a thread of
/// its own, so that a commit does not wait for it.
///
/// SQLite checkpoints in the committing thread once the log holds `wal_autocheckpoint` pages:
/// one commit in a few hundred then reads pages back from the log, writes them into the
/// database file and waits for the disk twice, which cost about a seventh of the time of adding
/// expenses one by one in ledger-bench. Here every ``interval`` commits a passive checkpoint
/// (one that never waits for readers or writers) runs on a second connection of its own. The
/// writer keeps SQLite's checkpoint as a backstop: it still runs when one transaction is large,
/// and when writes never pause long enough for the background to catch up with the log's end.
final class BackgroundCheckpoint: Sendable {
    /// Commits between two background checkpoints: an expense writes about 13 pages, so a
    /// hundred commits stay well under the 10,000 pages of the backstop.
    static let interval = 100

    private struct State {
        var commits = 0
        var scheduled = false
    }

    private let file: URL
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "LocalStore.BackgroundCheckpoint", qos: .utility)
    /// The second connection, opened on first use and used on `queue` only.
    private let connection = Mutex<DatabaseQueue?>(nil)

    init(file: URL) {
        self.file = file
    }

    /// Counts a commit, and schedules a checkpoint every ``interval`` commits unless one is
    /// already waiting to run.
    func didCommit() {
        let schedule = state.withLock { state in
            state.commits += 1
            guard state.commits >= Self.interval, !state.scheduled else { return false }
            state.commits = 0
            state.scheduled = true
            return true
        }
        guard schedule else { return }
        queue.async { [self] in
            state.withLock { $0.scheduled = false }
            checkpoint()
        }
    }

    private func checkpoint() {
        connection.withLock { connection in
            // A store removed since (a test's folder, a user's cleanup) is not created again.
            guard FileManager.default.fileExists(atPath: file.path) else {
                connection = nil
                return
            }
            do {
                if connection == nil { connection = try DatabaseQueue(path: file.path) }
                _ = try connection?.writeWithoutTransaction { try $0.checkpoint(.passive) }
            } catch {
                // Nothing is lost: the log keeps every commit, and the writer's own checkpoint
                // copies it later. The connection is opened afresh next time.
                connection = nil
            }
        }
    }
}
