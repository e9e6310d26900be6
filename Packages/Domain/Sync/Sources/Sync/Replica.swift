import Accounts
import Expenses
import Friends
import Groups
import Foundation
import Preferences
import Primitives

/// What a pull writes with: each area's replica interface on the replica's own stores, which
/// puts what the server sent the way the service's own writes leave it (docs/sync.md).
public struct ReplicaWriters: Sendable {
    public let accounts: any AccountsReplica
    public let friends: any FriendsReplica
    public let expenses: any ExpensesReplica
    public let groups: any GroupsReplica
    /// Preferences are put as they are: the user's own, by the service's own update.
    public let preferences: any PreferencesService

    public init(
        accounts: any AccountsReplica, friends: any FriendsReplica, expenses: any ExpensesReplica, groups: any GroupsReplica,
        preferences: any PreferencesService
    ) {
        self.accounts = accounts
        self.friends = friends
        self.expenses = expenses
        self.groups = groups
        self.preferences = preferences
    }
}

/// What one pull into a replica did.
public struct PullReport: Equatable, Sendable {
    /// Pages written.
    public var pages = 0
    /// Changes written (an entity put or removed), profiles aside.
    public var changes = 0
    /// Whether the pull began without a cursor: the replica's first, or one started again once
    /// the server no longer knew its cursor (the replica was emptied first).
    public var fromScratch = false

    public init(pages: Int = 0, changes: Int = 0, fromScratch: Bool = false) {
        self.pages = pages
        self.changes = changes
        self.fromScratch = fromScratch
    }
}

/// How up to date a replica is, for the screens to tell (docs/sync.md).
public struct ReplicaStatus: Equatable, Sendable {
    /// When its last page was written; nil before its first.
    public var lastSynced: Date?
    /// Since when the server could not be reached, while it cannot; nil while it answers.
    public var offlineSince: Date?
    /// Why the last pull failed otherwise (the server refused it, the replica's own store), in
    /// words; nil once one works.
    public var failure: String?
    /// Writes made on the replica that wait for the server.
    public var waiting: Int
    /// Writes the server refused, kept for their author.
    public var notSynced: Int

    public init(lastSynced: Date?, offlineSince: Date?, failure: String? = nil, waiting: Int = 0, notSynced: Int = 0) {
        self.lastSynced = lastSynced
        self.offlineSince = offlineSince
        self.failure = failure
        self.waiting = waiting
        self.notSynced = notSynced
    }

    /// What the screens say while the server cannot be reached, times of day in `timeZone`:
    /// `Offline since 14:02: this is what was synced at 13:58; your changes wait
    /// for the server, but for new friends, who need it.`; or why the replica could not be brought
    /// up to date; nil while all is well.
    public func offlineNotice(in timeZone: TimeZone) -> String? {
        let refused = notSynced == 0 ? nil : "\(Self.changes(notSynced)) not synced: the server did not take \(notSynced == 1 ? "it" : "them") (Sync, on the home, says why)."
        if offlineSince == nil, let failure { return "What you see may be out of date: bringing it up to date failed: \(failure)" }
        guard let offlineSince else {
            if waiting > 0 { return "\(Self.changes(waiting)) waiting for the server." + (refused.map { " " + $0 } ?? "") }
            return refused
        }
        let time = { (date: Date) -> String in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.hour, .minute], from: date)
            return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        }
        let synced = lastSynced.map { "this is what was synced at \(time($0))" } ?? "nothing was synced yet"
        guard waiting == 0 else {
            return "\(Self.changes(waiting)) waiting (offline since \(time(offlineSince))): \(synced), with yours." + (refused.map { " " + $0 } ?? "")
        }
        return "Offline since \(time(offlineSince)): \(synced); your changes wait for the server, but for new friends, who need it."
    }

    /// "1 change", "3 changes".
    private static func changes(_ count: Int) -> String { count == 1 ? "1 change" : "\(count) changes" }
}

/// Where the screens learn how up to date the replica they read is.
public protocol ReplicaStatusSource: Sendable {
    /// The status of `user`'s replica; nil where there is none (the embedded store).
    func status(of user: UserID) async -> ReplicaStatus?
}

/// A write made on this machine that the server has not applied, as its author is told of it
/// (`flows sync --status`, the app's Sync screen).
public struct PendingWrite: Equatable, Sendable {
    /// Its `Idempotency-Key`: what names it to drop it or make it again.
    public let key: String
    /// The contract's `operationId` it is queued as.
    public let operation: String
    /// What it was, in words (`change Team dinner, 30.00 EUR`).
    public let summary: String
    /// When it was made.
    public let made: Date
    /// Nil while it waits for the server; `refused` or `conflict` once the server did not apply it.
    public let outcome: SyncOutcome.Kind?
    /// The server's reason, with each person it names by id named as the replica knows them.
    public let reason: String?
    /// For an edit made from a version someone changed meanwhile, both changes in words (`Ada
    /// Lovelace changed Dinner while you were offline: …. Yours: ….`): the one write that can be
    /// made again on top of theirs.
    public let explanation: String?

    public init(key: String, operation: String, summary: String, made: Date, outcome: SyncOutcome.Kind?, reason: String?, explanation: String?) {
        self.key = key
        self.operation = operation
        self.summary = summary
        self.made = made
        self.outcome = outcome
        self.reason = reason
        self.explanation = explanation
    }
}

/// The writes made on this machine for a server, as their author deals with them
/// (docs/sync.md): listed, synced, dropped once refused, or made again on top of the change
/// they met.
public protocol ReplicaChanges: ReplicaStatusSource {
    /// `user`'s writes the server has not applied, oldest first; asks no server.
    func writes(of user: UserID) async throws(SyncError) -> [PendingWrite]
    /// A sync of `user`'s replica: what waits pushed, then what changed pulled.
    func sync(for user: UserID) async -> Result<SyncReport, SyncError>
    /// Forgets write `key`, one the server refused or found in conflict (keeping theirs); what
    /// it made on the replica comes back as the server keeps it at the next pull. False when it
    /// still waits for the server, which answers it at the next sync.
    func drop(_ key: String, for user: UserID) async throws(SyncError) -> Bool
    /// Makes the author's side of conflict `key` again on top of the expense as it is now, as a
    /// new edit from its current version, and forgets the conflict; nil when `key` is no
    /// conflict of `user`'s.
    func applyMine(_ key: String, for user: UserID) async throws(ExpensesError) -> Expense?
}
