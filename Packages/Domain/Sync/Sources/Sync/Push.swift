import Accounts
import Expenses
import Foundation
import Groups
import Preferences
import Primitives

/// A write made on a replica, queued as the contract operation it stands for (docs/sync.md):
/// sent again under the same key, it is applied once.
public struct SyncOperation: Equatable, Sendable {
    /// The most operations one push takes.
    public static let largestPush = 100

    /// Made on the client (a UUID will do): the operation's `Idempotency-Key`.
    public let key: String
    /// The contract's `operationId` (`addExpense`, `editExpense`, ...).
    public let operation: String
    /// Its path parameters, by name, as the contract writes them.
    public let path: [String: String]
    /// Its query parameters, by name.
    public let query: [String: String]
    /// Its JSON body, as the contract writes it; nil for none.
    public let body: [UInt8]?
    /// For a change to something versioned, the version it was made from (`If-Match`).
    public let version: Int?

    public init(key: String, operation: String, path: [String: String] = [:], query: [String: String] = [:], body: [UInt8]? = nil, version: Int? = nil) {
        self.key = key
        self.operation = operation
        self.path = path
        self.query = query
        self.body = body
        self.version = version
    }
}

/// What became of one pushed operation.
public struct SyncOutcome: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// It went through, now or under its key before: `answer` is what its route answers.
        case applied
        /// A rule refused it: `problem` says which. It stays with its author until they drop or
        /// change it.
        case refused
        /// It was made from a version that is no longer current (`changed-since`).
        case conflict
    }

    /// The operation's key.
    public let key: String
    public let kind: Kind
    /// The status its route answered.
    public let status: Int
    /// The route's answer (JSON), when applied; its Problem (JSON), when not.
    public let answer: [UInt8]?

    public init(key: String, kind: Kind, status: Int, answer: [UInt8]?) {
        self.key = key
        self.kind = kind
        self.status = status
        self.answer = answer
    }
}

/// Applies one pushed operation as the user, through the same handler as its own route: what
/// a server gives its sync service.
public protocol OperationApplier: Sendable {
    /// The operation's outcome; nil when it was not answered (the store failed, the server is
    /// stopping): it and those after it wait for the next push.
    func apply(_ operation: SyncOperation, by user: UserID) async -> SyncOutcome?
}

/// A write made on a replica while the server could not take it (docs/sync.md): applied there
/// at once, and queued as the contract operation it stands for, until a push has the server's
/// answer. One the server refused stays, with its reason, until its author drops it.
public struct QueuedWrite: Equatable, Sendable {
    public let operation: SyncOperation
    /// When it was made.
    public let made: Date
    /// What it was, in the words the user is told ("Dinner, 30.00 EUR").
    public let summary: String
    /// Nil while it waits for the server; the server's answer once it refused it.
    public let refusal: Refusal?

    /// Why the server did not apply a write.
    public struct Refusal: Equatable, Sendable {
        /// `refused` or `conflict`.
        public let kind: SyncOutcome.Kind
        /// The status its route answered.
        public let status: Int
        /// The server's reason, in its words.
        public let reason: String

        public init(kind: SyncOutcome.Kind, status: Int, reason: String) {
            self.kind = kind
            self.status = status
            self.reason = reason
        }
    }

    public init(operation: SyncOperation, made: Date, summary: String, refusal: Refusal?) {
        self.operation = operation
        self.made = made
        self.summary = summary
        self.refusal = refusal
    }
}

/// The key a change is sent to the server under (its `Idempotency-Key`), when the one sending
/// it may send it again as a queued operation: a replica sends a change to what exists under
/// the key it would queue it with, so that a change the server took whose answer was lost is,
/// pushed again, the same change (answered as the first time), never a conflict with itself.
/// Nil: the connection's own.
public enum WriteKey {
    @TaskLocal public static var current: String?
}

/// The contract operations a replica queues its writes as, written as the server takes them:
/// a client's wire form (the Remote modules' endpoints).
public protocol QueuedOperations: Sendable {
    /// Adding `draft` as expense `id`, under idempotency key `key`.
    func addExpense(_ draft: ExpenseDraft, as id: ExpenseID, key: String) throws -> SyncOperation
    /// Replacing expense `id` with `draft`, made from `version`.
    func editExpense(_ id: ExpenseID, to draft: ExpenseDraft, from version: Int, key: String) throws -> SyncOperation
    /// Deleting expense `id`, seen at `version`.
    func deleteExpense(_ id: ExpenseID, from version: Int, key: String) throws -> SyncOperation
    /// Adding `text` to expense `expense`'s thread as comment `id`.
    func addComment(_ text: String, on expense: ExpenseID, as id: CommentID, key: String) throws -> SyncOperation
    /// Deleting comment `id` on expense `expense`.
    func deleteComment(_ id: CommentID, on expense: ExpenseID, key: String) throws -> SyncOperation
    /// Converting `user`'s balance with `other` (as they read it) at `rate`, as payment `id`.
    func convertBalance(
        _ balance: Money, with other: UserID, at rate: ExchangeRate, source: String, day: Day, in group: GroupID?, as id: ExpenseID, key: String
    ) throws -> SyncOperation
    /// Adding a contact named `name` (with `email`, or none) as `id`.
    func addContact(name: String, email: String?, as id: UserID, key: String) throws -> SyncOperation
    /// Renaming the user `name`.
    func changeDisplayName(to name: String, key: String) throws -> SyncOperation
    /// Changing the user's avatar to `avatar`.
    func changeAvatar(to avatar: Avatar, key: String) throws -> SyncOperation
    /// Storing `preferences` as the user's.
    func updatePreferences(_ preferences: Preferences, key: String) throws -> SyncOperation
    /// Restoring deleted expense `id`.
    func restoreExpense(_ id: ExpenseID, key: String) throws -> SyncOperation
    /// Taking payment `id` back.
    func undoSettlement(_ id: ExpenseID, key: String) throws -> SyncOperation
    /// Recording that `from` paid `to` (`user`, one of the two, records it) as payment `id`.
    func settleUp(from: UserID, to: UserID, amount: Money, day: Day, in group: GroupID?, as id: ExpenseID, by user: UserID, key: String) throws
        -> SyncOperation
    /// Declining or withdrawing the friend request between the user and `person`.
    func dropRequest(with person: UserID, key: String) throws -> SyncOperation
    /// Blocking `person`.
    func block(_ person: UserID, key: String) throws -> SyncOperation
    /// Unblocking `person`.
    func unblock(_ person: UserID, key: String) throws -> SyncOperation
    /// Renaming contact `contact` `name`.
    func renameContact(_ contact: UserID, to name: String, key: String) throws -> SyncOperation
    /// Removing friend or contact `friend`.
    func removeFriend(_ friend: UserID, key: String) throws -> SyncOperation
    /// Making expense `id` the first of series `series`, repeating `frequency` until `end`.
    func repeatExpense(_ id: ExpenseID, every frequency: Recurrence.Frequency, until end: Recurrence.End?, as series: SeriesID, key: String) throws
        -> SyncOperation
    /// Changing what series `id`'s later occurrences copy to `template`.
    func editSeries(_ id: SeriesID, to template: ExpenseDraft, key: String) throws -> SyncOperation
    /// Ending series `id` after `day`.
    func stopSeries(_ id: SeriesID, after day: Day, key: String) throws -> SyncOperation
    /// Making a group of `draft` as group `id`.
    func createGroup(_ draft: GroupDraft, as id: GroupID, key: String) throws -> SyncOperation
    /// Changing group `id`'s settings to `settings`.
    func updateGroup(_ id: GroupID, to settings: GroupSettings, key: String) throws -> SyncOperation
    /// Adding `people` to group `id`.
    func addGroupMembers(_ people: [UserID], to id: GroupID, key: String) throws -> SyncOperation
    /// Taking `member` (the user, to leave) out of group `id`.
    func removeGroupMember(_ member: UserID, from id: GroupID, key: String) throws -> SyncOperation
    /// Archiving group `id`, or bringing it back.
    func setGroupArchived(_ archived: Bool, _ id: GroupID, key: String) throws -> SyncOperation
    /// The edit `operation` stands for (one ``editExpense(_:to:from:key:)`` wrote); nil for any
    /// other.
    func edit(in operation: SyncOperation) -> (id: ExpenseID, draft: ExpenseDraft, version: Int)?
    /// Why the server did not apply an operation, in its words (its refusal's message); nil when
    /// its answer says none.
    func reason(of outcome: SyncOutcome) -> String?
}

/// What one push of a replica's queue did.
public struct PushReport: Equatable, Sendable {
    /// Writes the server applied.
    public var pushed = 0
    /// Writes it refused (kept for their author, with the reason).
    public var refused = 0
    /// Writes made from a version that is no longer current.
    public var conflicts = 0
    /// Writes still waiting (the server stopped answering part way).
    public var waiting = 0

    public init(pushed: Int = 0, refused: Int = 0, conflicts: Int = 0, waiting: Int = 0) {
        self.pushed = pushed
        self.refused = refused
        self.conflicts = conflicts
        self.waiting = waiting
    }
}

/// What one sync did: its push, then its pull (none while writes still waited).
public struct SyncReport: Equatable, Sendable {
    public var push = PushReport()
    public var pull = PullReport()

    public init(push: PushReport = PushReport(), pull: PullReport = PullReport()) {
        self.push = push
        self.pull = pull
    }
}
