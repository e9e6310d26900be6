import Synchronization

/// Whose balances a write changed: the people on either side of every pair it moved, kept by a
/// store while the write runs, for whoever keeps answers made from balances (a server's cache).
///
/// A write that is run again adds each attempt's pairs; one that fails still reports what it
/// tried to change (nothing may have changed: telling too many is harmless, too few is not).
public final class ChangedBalances: Sendable {
    private let people = Mutex<Set<String>>([])

    public init() {}

    /// Notes that the balance of `low` and `high` changed.
    public func record(_ low: String, _ high: String) {
        people.withLock {
            $0.insert(low)
            $0.insert(high)
        }
    }

    /// Everyone noted so far.
    public var changed: Set<String> { people.withLock { $0 } }
}

/// Told, after a write to an Expenses store, whose balances it changed (never with nobody).
public typealias BalancesChanged = @Sendable (_ people: Set<String>) -> Void

extension ChangedBalances {
    /// Runs `write` with a fresh record when someone is told of changes, and tells them
    /// afterwards, whether the write went through or not.
    public static func watching<T>(
        _ observer: BalancesChanged?, _ write: (ChangedBalances?) async throws -> T
    ) async throws -> T {
        guard let observer else { return try await write(nil) }
        let changes = ChangedBalances()
        defer {
            let people = changes.changed
            if !people.isEmpty { observer(people) }
        }
        return try await write(changes)
    }
}
