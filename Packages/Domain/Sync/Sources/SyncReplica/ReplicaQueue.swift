import DataChanges
import Expenses
import Foundation
import Primitives
import Sync

/// A user's writes made on their replica while the server could not take them (docs/sync.md),
/// in the order they were made: each applied on the replica at once and kept here as the
/// contract operation it stands for, until a push has the server's answer.
///
/// A write is queued before it is applied on the replica: one queued and not applied (the
/// process killed between the two) is pushed and pulled in like any other; one applied and not
/// queued would be lost. What a write made on the replica that the server gives anew (its line
/// of activity) is forgotten once the server has answered: the pull brings the server's.
public struct ReplicaQueue: Sendable {
    private let store: any WriteQueueStore
    private let writers: ReplicaWriters
    /// The contract operations the writes are queued as.
    public let operations: any QueuedOperations
    private let now: @Sendable () -> Date

    public init(store: any WriteQueueStore, writers: ReplicaWriters, operations: any QueuedOperations, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.writers = writers
        self.operations = operations
        self.now = now
    }

    /// `user`'s writes, oldest first: those waiting for the server, then, in the order they
    /// were made too, those it refused.
    public func writes(of user: UserID) async throws(SyncError) -> [QueuedWrite] {
        try await records(of: user).map(Self.write)
    }

    /// Whether any of `user`'s writes waits for the server (one it refused does not).
    public func isWaiting(for user: UserID) async -> Bool {
        ((try? await records(of: user)) ?? []).contains { $0.outcome == nil }
    }

    /// Queues `operation` for `user`, after every other; `summary` says what it is.
    public func append(_ operation: SyncOperation, summary: String, for user: UserID) async throws(SyncError) {
        let record = QueuedWriteRecord(
            key: operation.key, operation: operation.operation, path: operation.path, query: operation.query, body: operation.body,
            version: operation.version, made: now().timeIntervalSince1970, summary: summary, provisional: []
        )
        do { try await store.append(record, of: user.rawValue) } catch { throw .storeUnavailable("\(error)") }
    }

    /// Notes what write `key` made on the replica that the server gives anew, or never: the
    /// expense, and its lines of activity.
    public func made(_ provisional: [SyncEntity], by key: String, for user: UserID) async throws(SyncError) {
        guard var record = try await records(of: user).first(where: { $0.key == key }) else { return }
        record.provisional = provisional.map(\.text)
        do { try await store.update(record) } catch { throw .storeUnavailable("\(error)") }
    }

    /// Forgets write `key`: one the server refused, which its author drops, or one that could
    /// not be applied on the replica (so made nothing there). False, and kept, for one that waits
    /// for the server after it was applied here: what it made is the server's to answer.
    @discardableResult
    public func drop(_ key: String, for user: UserID) async throws(SyncError) -> Bool {
        guard let record = try await records(of: user).first(where: { $0.key == key }) else { return false }
        guard record.outcome != nil || record.provisional.isEmpty else { return false }
        do { try await store.remove(key) } catch { throw .storeUnavailable("\(error)") }
        return true
    }

    /// Sends `user`'s waiting writes to `server`, oldest first, and keeps its answers: one
    /// applied leaves the queue (the pull that follows brings it as the server keeps it); one
    /// refused or in conflict stays with its reason, and the server is asked to send again what
    /// it made on the replica, so that the pull puts it back as the server keeps it (an expense
    /// it added, which the server never had, goes). The writes after the first the server did
    /// not answer wait for the next push; a server that cannot be reached throws.
    public func push(for user: UserID, to server: any SyncService) async throws(SyncError) -> PushReport {
        // What an earlier push had refused and could not have sent again (the server went away).
        try await resendRefused(for: user, to: server)
        var report = PushReport()
        var waiting = try await records(of: user).filter { $0.outcome == nil }
        while !waiting.isEmpty {
            let batch = Array(waiting.prefix(SyncOperation.largestPush))
            let outcomes = try await server.push(batch.map(Self.operation), by: user)
            for (record, outcome) in zip(batch, outcomes) where outcome.key == record.key {
                // Its lines of activity go either way: the server's come with the pull.
                try await forgetLines(record.provisional)
                switch outcome.kind {
                case .applied:
                    do { try await store.remove(record.key) } catch { throw .storeUnavailable("\(error)") }
                    report.pushed += 1
                case .refused, .conflict:
                    // Kept with its reason; what it made, to be sent again (below).
                    var refused = record
                    refused.provisional = record.provisional.filter { SyncEntity($0).map { $0.kind != .activity } ?? false }
                    refused.outcome = outcome.kind.rawValue
                    refused.status = outcome.status
                    refused.reason = operations.reason(of: outcome) ?? "The server answered \(outcome.status)."
                    do { try await store.update(refused) } catch { throw .storeUnavailable("\(error)") }
                    if outcome.kind == .refused { report.refused += 1 } else { report.conflicts += 1 }
                }
            }
            guard outcomes.count == batch.count else { break }
            waiting.removeFirst(batch.count)
        }
        try await resendRefused(for: user, to: server)
        report.waiting = try await records(of: user).count { $0.outcome == nil }
        return report
    }

    /// Asks the server to send again, with the next pull, what the writes it refused made on the
    /// replica, then notes them sent.
    private func resendRefused(for user: UserID, to server: any SyncService) async throws(SyncError) {
        let refused = try await records(of: user).filter { $0.outcome != nil && !$0.provisional.isEmpty }
        guard !refused.isEmpty else { return }
        var unique = Set<SyncEntity>()
        let entities = refused.flatMap { $0.provisional.compactMap(SyncEntity.init) }.filter { unique.insert($0).inserted }
        for start in stride(from: 0, to: entities.count, by: SyncEntity.largestResend) {
            try await server.resend(Array(entities[start..<min(start + SyncEntity.largestResend, entities.count)]), for: user)
        }
        for var record in refused {
            record.provisional = []
            do { try await store.update(record) } catch { throw .storeUnavailable("\(error)") }
        }
    }

    /// The conflict `write` stands for (an edit the server found made from an older version),
    /// as the replica has the expense now, with who changed it meanwhile (`Bob Stone`); nil for
    /// any other write, or when the replica no longer has the expense or the version it was made
    /// from.
    public func conflict(of write: QueuedWrite, in reads: ReplicaReads, for user: UserID) async -> (conflict: EditConflict, who: String)? {
        guard write.refusal?.kind == .conflict, let edit = operations.edit(in: write.operation),
            let theirs = try? await reads.expenses.expense(edit.id, for: user),
            let history = try? await reads.expenses.history(of: edit.id, for: user),
            let base = history.last(where: { $0.expense?.version == edit.version })?.expense
        else { return nil }
        let changers = Set(history.filter { ($0.expense?.version ?? 0) > edit.version }.map(\.by))
        let names = (try? await reads.friends.names(of: changers, for: user)) ?? [:]
        let who = changers.map { $0 == user ? "You" : names[$0]?.value ?? "Someone" }.sorted().joined(separator: " and ")
        return (EditConflict(base: base, theirs: theirs, mine: edit.draft), who.isEmpty ? "Someone" : who)
    }

    // MARK: - Helpers

    private func records(of user: UserID) async throws(SyncError) -> [QueuedWriteRecord] {
        do { return try await store.writes(of: user.rawValue) } catch { throw .storeUnavailable("\(error)") }
    }

    /// Forgets on the replica the lines of activity a write made there: the server's come with
    /// the pull (the entities it made are put as the server keeps them, or removed, by the pull).
    private func forgetLines(_ provisional: [String]) async throws(SyncError) {
        for line in provisional.compactMap(SyncEntity.init) where line.kind == .activity {
            guard let (subject, id) = Change.activityParts(of: line.id) else { continue }
            do throws(ExpensesError) {
                try await writers.expenses.removeLine(id, of: ExpenseID(rawValue: subject))
            } catch {
                throw .storeUnavailable(error.message)
            }
        }
    }

    private static func operation(_ record: QueuedWriteRecord) -> SyncOperation {
        SyncOperation(key: record.key, operation: record.operation, path: record.path, query: record.query, body: record.body, version: record.version)
    }

    private static func write(_ record: QueuedWriteRecord) -> QueuedWrite {
        let refusal = record.outcome.flatMap(SyncOutcome.Kind.init(rawValue:)).map { kind in
            QueuedWrite.Refusal(kind: kind, status: record.status ?? 0, reason: record.reason ?? "")
        }
        return QueuedWrite(operation: operation(record), made: Date(timeIntervalSince1970: record.made), summary: record.summary, refusal: refusal)
    }
}
