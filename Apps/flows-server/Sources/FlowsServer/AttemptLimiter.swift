import Foundation
import PostgresStore
import Synchronization

/// How many attempts the server allows before it answers `429 rate-limited`.
public struct RateLimits: Sendable, Equatable {
    /// Failed password checks (sign-in, changing the email or the password) per account.
    public var failuresPerAccount: Int
    /// Failed sign-ins per client address, whichever accounts they tried.
    public var failuresPerAddress: Int
    /// New accounts per client address (each costs a bcrypt hash).
    public var signUpsPerAddress: Int
    /// The window the counts above are kept for.
    public var window: Duration

    public init(failuresPerAccount: Int = 10, failuresPerAddress: Int = 50, signUpsPerAddress: Int = 20, window: Duration = .seconds(15 * 60)) {
        self.failuresPerAccount = failuresPerAccount
        self.failuresPerAddress = failuresPerAddress
        self.signUpsPerAddress = signUpsPerAddress
        self.window = window
    }

    /// The defaults: 10 failures per account and 50 per address, 20 sign-ups per address, in
    /// any 15 minutes.
    public static let standard = RateLimits()
}

/// Counts events per key over a sliding window, in memory: at most `limit` in any `window`.
///
/// For a server on its own store (SQLite, or memory); servers sharing a PostgreSQL database
/// count there together (``SharedAttemptLimiter``).
final class AttemptLimiter: Sendable {
    private let limit: Int
    private let window: Double
    private let now: @Sendable () -> Double
    /// The times of each key's events in the window, oldest first.
    private let events = Mutex<[String: [Double]]>([:])
    /// Keys seen since the last sweep of expired ones.
    private let sweep = Mutex<Int>(0)

    init(limit: Int, window: Duration, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.limit = max(1, limit)
        let (seconds, attoseconds) = window.components
        self.window = max(1, Double(seconds) + Double(attoseconds) / 1e18)
        self.now = now
    }

    /// Seconds until `key` may try again, or nil when it may now.
    func wait(for key: String) -> Int? {
        let time = now()
        let window = window
        let limit = limit
        return events.withLock { events -> Int? in
            guard var times = events[key] else { return nil }
            times.removeAll { $0 <= time - window }
            events[key] = times.isEmpty ? nil : times
            // When there are `limit` or more, the key may try again once the newest `limit` but
            // one are all that is left in the window.
            guard times.count >= limit else { return nil }
            return retryAfter(oldest: times[times.count - limit], window: window, now: time)
        }
    }

    /// Counts one event for `key`.
    func record(_ key: String) {
        let time = now()
        let window = window
        events.withLock { events in
            var times = events[key, default: []]
            times.removeAll { $0 <= time - window }
            times.append(time)
            events[key] = times
        }
        sweepExpired(at: time)
    }

    /// Forgets `key`'s events (a password that checked out).
    func reset(_ key: String) {
        _ = events.withLock { $0.removeValue(forKey: key) }
    }

    /// Every 1,000 events, drops the keys whose events have all expired, so memory stays
    /// bounded by the keys of one window.
    private func sweepExpired(at time: Double) {
        let due = sweep.withLock { count -> Bool in
            count += 1
            guard count >= 1_000 else { return false }
            count = 0
            return true
        }
        guard due else { return }
        let window = window
        events.withLock { events in
            events = events.filter { $0.value.last.map { $0 > time - window } ?? false }
        }
    }
}

/// Whole seconds until an attempt made at `oldest` leaves the window: from 1 to the window,
/// whatever the times say (a clock set back, a row written by a server whose clock is ahead).
func retryAfter(oldest: Double, window: Double, now: Double) -> Int {
    let seconds = (oldest + window - now).rounded(.up)
    guard seconds.isFinite else { return 1 }
    return Int(min(max(seconds, 1), window.rounded(.up)))
}

/// The server's three limits together: in the database every server shares, when there is
/// one (PostgreSQL), or else in this process's memory.
struct SignInLimits: Sendable {
    let accounts: any AttemptCounts
    let addresses: any AttemptCounts
    let signUps: any AttemptCounts

    init(_ limits: RateLimits, shared database: ServerDatabase? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        let seconds: @Sendable () -> Double = { now().timeIntervalSince1970 }
        if let database {
            accounts = SharedAttemptLimiter(kind: "account", limit: limits.failuresPerAccount, window: limits.window, database: database, now: now)
            addresses = SharedAttemptLimiter(kind: "address", limit: limits.failuresPerAddress, window: limits.window, database: database, now: now)
            signUps = SharedAttemptLimiter(kind: "sign-up", limit: limits.signUpsPerAddress, window: limits.window, database: database, now: now)
        } else {
            accounts = AttemptLimiter(limit: limits.failuresPerAccount, window: limits.window, now: seconds)
            addresses = AttemptLimiter(limit: limits.failuresPerAddress, window: limits.window, now: seconds)
            signUps = AttemptLimiter(limit: limits.signUpsPerAddress, window: limits.window, now: seconds)
        }
    }
}
