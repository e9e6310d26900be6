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
