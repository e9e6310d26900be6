/// A write made on a replica for the server (docs/sync.md), as its replica's store keeps it:
/// the contract operation it stands for, waiting to be pushed, or the server's refusal of it.
public struct QueuedWriteRecord: Equatable, Sendable {
    /// The operation's idempotency key: one write, however many times it is pushed.
    public var key: String
    /// The contract's `operationId`.
    public var operation: String
    public var path: [String: String]
    public var query: [String: String]
    public var body: [UInt8]?
    /// The version it was made from (`If-Match`), for a change to something versioned.
    public var version: Int?
    /// When it was made (seconds since 1970).
    public var made: Double
    /// What it was, in the words the user is told ("Dinner, 30.00 EUR").
    public var summary: String
    /// What it made on the replica that the server gives anew once it applied it, or never
    /// (`expense:ID`, `activity:SUBJECT/LINE`).
    public var provisional: [String]
    /// Nil while it waits; `refused` or `conflict` once the server answered so.
    public var outcome: String?
    /// The status the server's route answered, once answered.
    public var status: Int?
    /// Why the server refused it, in its words.
    public var reason: String?

    public init(
        key: String, operation: String, path: [String: String], query: [String: String], body: [UInt8]?, version: Int?, made: Double,
        summary: String, provisional: [String], outcome: String? = nil, status: Int? = nil, reason: String? = nil
    ) {
        self.key = key
        self.operation = operation
        self.path = path
        self.query = query
        self.body = body
        self.version = version
        self.made = made
        self.summary = summary
        self.provisional = provisional
        self.outcome = outcome
        self.status = status
        self.reason = reason
    }
}

/// Where a replica keeps its person's writes for the server, in the order they were made.
public protocol WriteQueueStore: Sendable {
    /// Adds `write` after every other of `person`'s.
    func append(_ write: QueuedWriteRecord, of person: String) async throws
    /// `person`'s writes, oldest first: those waiting (no outcome) and those the server refused.
    func writes(of person: String) async throws -> [QueuedWriteRecord]
    /// Replaces what is kept of write `key` (its provisional entities, its outcome).
    func update(_ write: QueuedWriteRecord) async throws
    /// Forgets write `key` (applied, or dropped by its author).
    func remove(_ key: String) async throws
}
