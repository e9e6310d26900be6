import Foundation
import Primitives
import Synchronization

/// Values this server made from the database, each belonging to one user, kept for a short
/// while so that the next requests need not ask the database again.
///
/// A value is dropped when it is older than ``lifetime``, and at once when its owner's data
/// changes through this server (``invalidate(_:)``). A change made through another server that
/// shares the database is seen once the value is older than the lifetime.
///
/// A value read from the database before an invalidation of its owner but offered after it
/// (a read racing a write) is not kept: ``begin()`` marks when the read started, and
/// ``store(_:for:owner:since:)`` refuses what an invalidation has overtaken.
///
/// ``value(for:read:)`` reads a missing value once for everyone asking at the same time (when a
/// popular value runs out, one request reads it again, not every request under way); a request
/// that comes after an invalidation never waits for a read begun before it.
final class ShortLivedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let lifetime: TimeInterval
    let capacity: Int
    private let state: Mutex<State>
    private let now: @Sendable () -> Date

    private struct Entry {
        let value: Value
        let owner: UserID
        let made: Date
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var keys: [UserID: Set<Key>] = [:]
        /// Counts invalidations; a read remembers it when it starts.
        var tick: UInt64 = 0
        /// When each owner was last invalidated (a tick), for reads under way.
        var invalidated: [UserID: UInt64] = [:]
        /// Reads that started before this tick keep nothing (``invalidated`` was cleared).
        var floor: UInt64 = 0
        /// The reads under way, which later requests for the same key wait for.
        var reads: [Key: Flight] = [:]
    }

    /// - Parameters:
    ///   - lifetime: how long a value is served after it was read from the database.
    ///   - capacity: how many values are kept at most (past it, the cache starts over).
    ///   - now: the server's clock (the one its sessions are timed by); a value is served only
    ///     while this clock says it is younger than the lifetime.
    init(lifetime: TimeInterval, capacity: Int = 10_000, now: @escaping @Sendable () -> Date) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
        self.now = now
        state = Mutex(State())
    }

    /// The value kept for `key`, if it is younger than the lifetime.
    func value(for key: Key) -> Value? {
        let now = now()
        return state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            // A clock set back serves nothing made "in the future".
            let age = now.timeIntervalSince(entry.made)
            guard age >= 0, age < lifetime else {
                Self.remove(key, owner: entry.owner, from: &state)
                return nil
            }
            return entry.value
        }
    }

    /// The value kept for `key`; or else what `read` answers, read once for every request that
    /// asks meanwhile, and kept when it names an owner (a refusal, say, names none). A request
    /// that waited for a read that failed reads for itself.
    func value(for key: Key, read: () async throws -> (value: Value, owner: UserID?)) async throws -> Value {
        if let kept = value(for: key) { return kept }
        let (flight, start): (Flight, UInt64?) = state.withLock { state in
            if let under = state.reads[key] { return (under, nil) }
            let flight = Flight()
            state.reads[key] = flight
            return (flight, state.tick)
        }
        guard let start else {
            if case .success(let read) = await flight.wait() { return read.value }
            return try await read().value
        }
        let result: Result<(value: Value, owner: UserID?), any Error>
        do { result = .success(try await read()) } catch { result = .failure(error) }
        state.withLock { state in
            // An invalidation may have let a newer read begin meanwhile: that one stays.
            if state.reads[key] === flight { state.reads.removeValue(forKey: key) }
        }
        flight.finish(result)
        let (value, owner) = try result.get()
        if let owner { store(value, for: key, owner: owner, since: start) }
        return value
    }

    /// A read under way, and the requests waiting for it.
    private final class Flight: Sendable {
        private let state = Mutex<(result: Result<(value: Value, owner: UserID?), any Error>?, waiting: [CheckedContinuation<Result<(value: Value, owner: UserID?), any Error>, Never>])>((nil, []))

        func wait() async -> Result<(value: Value, owner: UserID?), any Error> {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if state.result == nil { state.waiting.append(continuation) }
                    return state.result
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }

        func finish(_ result: Result<(value: Value, owner: UserID?), any Error>) {
            let waiting = state.withLock { state in
                state.result = result
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume(returning: result) }
        }
    }

    /// Marks the start of a read from the database, whose result may be kept with
    /// ``store(_:for:owner:since:)``.
    func begin() -> UInt64 {
        state.withLock { $0.tick }
    }

    /// Keeps `value`, read from the database since `start` (``begin()``), unless an invalidation
    /// of `owner` came after `start`.
    func store(_ value: Value, for key: Key, owner: UserID, since start: UInt64) {
        guard lifetime > 0 else { return }
        let now = now()
        state.withLock { state in
            guard start >= state.floor, (state.invalidated[owner] ?? 0) <= start else { return }
            if state.entries.count >= capacity, state.entries[key] == nil {
                state.entries.removeAll(keepingCapacity: true)
                state.keys.removeAll(keepingCapacity: true)
            }
            state.entries[key] = Entry(value: value, owner: owner, made: now)
            state.keys[owner, default: []].insert(key)
        }
    }

    /// Drops every value of these owners, and keeps none read before now. Requests from now on
    /// do not wait for reads under way (whose owners are not known until they end).
    func invalidate(_ owners: some Sequence<UserID>) {
        state.withLock { state in
            state.tick += 1
            state.reads.removeAll()
            for owner in owners {
                for key in state.keys.removeValue(forKey: owner) ?? [] { state.entries.removeValue(forKey: key) }
                state.invalidated[owner] = state.tick
            }
            if state.invalidated.count > capacity {
                state.invalidated.removeAll(keepingCapacity: true)
                state.floor = state.tick
            }
        }
    }

    /// How many values are kept (tests).
    var count: Int { state.withLock { $0.entries.count } }

    private static func remove(_ key: Key, owner: UserID, from state: inout State) {
        state.entries.removeValue(forKey: key)
        state.keys[owner]?.remove(key)
        if state.keys[owner]?.isEmpty == true { state.keys.removeValue(forKey: owner) }
    }
}
