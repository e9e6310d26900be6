/// How far a replica has pulled from its server (docs/sync.md), kept in the replica's own store.
public struct ReplicaState: Equatable, Sendable {
    /// The cursor of the last page written, as the server gave it.
    public var cursor: String
    /// When that page was written (seconds since 1970, UTC).
    public var pulledAt: Double
    /// Whether a pull has reached the server's last page since the replica began (or began
    /// again): until then it holds only part of what the user sees, and is not to be shown.
    public var caughtUp: Bool

    public init(cursor: String, pulledAt: Double, caughtUp: Bool) {
        self.cursor = cursor
        self.pulledAt = pulledAt
        self.caughtUp = caughtUp
    }
}

/// Where a replica keeps its ``ReplicaState``, one for the person whose view it holds.
public protocol ReplicaStateStore: Sendable {
    /// How far `person`'s replica has pulled; nil before its first page.
    func state(of person: String) async throws -> ReplicaState?
    /// Records a page written for `person`; a cursor behind the one kept (a pull that ended after
    /// a later one) is left out: cursors only grow.
    func save(_ state: ReplicaState, of person: String) async throws
    /// Empties the replica, every area's rows and its state, for a pull that starts again
    /// without a cursor (the server no longer keeps what followed it); its writes still to push
    /// stay.
    func erase() async throws
}
