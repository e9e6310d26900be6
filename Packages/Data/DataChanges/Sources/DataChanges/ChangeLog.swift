/// A place in a change log: the writing transaction's number, then the row's within the log.
/// Positions only grow, so a reader that has read up to one never needs a row before it again.
///
/// On SQLite, where one write runs at a time, the transaction is always 0 and the row's number
/// is the commit order. On PostgreSQL, where many writes run at once, the transaction is its id
/// (`pg_current_xact_id()`); a reader reads only the rows of transactions older than every one
/// still running, so a transaction that commits late never lands behind a reader's position.
public struct LogPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let transaction: Int64
    public let sequence: Int64

    /// Before every row.
    public static let start = LogPosition(transaction: 0, sequence: 0)

    public init(transaction: Int64, sequence: Int64) {
        self.transaction = transaction
        self.sequence = sequence
    }

    /// The position written as `transaction.sequence`, both decimal.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let transaction = Int64(parts[0]), let sequence = Int64(parts[1]), transaction >= 0, sequence >= 0 else {
            return nil
        }
        self.init(transaction: transaction, sequence: sequence)
    }

    public var description: String { "\(transaction).\(sequence)" }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.transaction, lhs.sequence) < (rhs.transaction, rhs.sequence)
    }
}

/// A row of the change log as read back: where it is, and what changed.
public struct LoggedChange: Equatable, Sendable {
    public let position: LogPosition
    /// nil for a kind this build does not know (written by a newer server on the same database).
    public let kind: Change.Kind?
    public let id: String

    public init(position: LogPosition, kind: Change.Kind?, id: String) {
        self.position = position
        self.kind = kind
        self.id = id
    }
}

/// The change log the stores of a server write, in the same transaction as each change, and a
/// pull reads (docs/sync.md).
public protocol ChangeLogStore: Sendable {
    /// The rows logged for any of `audience` (a person, and the audiences of their groups:
    /// ``Change/audience(ofGroup:)``) after `position`, oldest first, at most `limit`: only rows
    /// that no write still running can come before. A position before rows that were pruned
    /// (other than ``LogPosition/start``) is ``ChangeLogError/expired``: what came after it is
    /// no longer all there; one past any this log has given is ``ChangeLogError/ahead``.
    func changes(for audience: [String], after position: LogPosition, limit: Int) async throws -> [LoggedChange]
    /// Logs `changes` in a write of their own: what a person starts to see that was there
    /// already (their first pull).
    func log(_ changes: [Change]) async throws
    /// A position that every write still running, or begun later, logs after: what a reader
    /// reads from after it has read the stores' own state (a first pull, reading everything
    /// the person sees, needs no row from before it).
    func horizon() async throws -> LogPosition
    /// The position of the newest row logged for `person`, whoever's transaction wrote it and
    /// whether or not a reader may read it yet; nil for none. What a reader compares, before and
    /// after reading the stores' state a page at a time, to know that nothing of the person's
    /// changed in between.
    func newest(for person: String) async throws -> LogPosition?
    /// Deletes the rows logged before `cutoff` (seconds since 1970, UTC), and answers how many;
    /// a reader's position among them is ``ChangeLogError/expired`` from then on.
    func prune(before cutoff: Double) async throws -> Int
}

extension ChangeLogStore {
    /// The rows logged for `person` alone after `position`: ``changes(for:after:limit:)-([String],_,_)``.
    public func changes(for person: String, after position: LogPosition, limit: Int) async throws -> [LoggedChange] {
        try await changes(for: [person], after: position, limit: limit)
    }
}

/// Why the change log did not answer.
public enum ChangeLogError: Error, Equatable, Sendable {
    /// The position is before rows that were pruned.
    case expired
    /// The position is past any this log has given: it comes from another log (a database
    /// restored from an older copy, another server's), and nothing after it would ever come.
    case ahead
}
