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

/// Counts attempts per key over a sliding window, in memory: at most `limit` in any `window`.
///
/// For a server on its own store (SQLite, or memory); servers sharing a PostgreSQL database
/// count there together (``SharedAttemptLimiter``).
final class AttemptLimiter: Sendable {
    private struct Attempt {
        let time: Double
        let id: Int64
    }

    private struct State {
        /// The times of each key's attempts in the window, oldest first.
        var attempts: [String: [Attempt]] = [:]
        var nextID: Int64 = 0
        var sweeps = SweepSchedule()
    }

    private let limit: Int
    private let window: Double
    private let now: @Sendable () -> Double
    private let state = Mutex(State())

    init(limit: Int, window: Duration, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.limit = max(1, limit)
        self.window = windowSeconds(window)
        self.now = now
    }

    /// Counts one attempt for `key`, or refuses it when the key has had `limit` in the window:
    /// the check and the count are one step, so attempts at once cannot all pass the check.
    func claim(_ key: String) -> AttemptAdmission {
        let time = now()
        let window = window
        let limit = limit
        return state.withLock { state -> AttemptAdmission in
            var attempts = state.attempts[key, default: []]
            attempts.removeAll { $0.time <= time - window }
            defer { state.attempts[key] = attempts.isEmpty ? nil : attempts }
            // With `limit` or more, the key may try again once the newest `limit` but one are
            // all that is left in the window.
            guard attempts.count < limit else {
                return .refused(retryAfter: retryAfter(oldest: attempts[attempts.count - limit].time, window: window, now: time))
            }
            state.nextID &+= 1
            attempts.append(Attempt(time: time, id: state.nextID))
            if state.sweeps.isDue() {
                state.attempts = state.attempts.filter { $0.value.last.map { $0.time > time - window } ?? false }
            }
            return .counted(AttemptClaim(key: key, id: state.nextID))
        }
    }

    /// Takes back one counted attempt.
    func release(_ claim: AttemptClaim) {
        state.withLock { state in
            guard var attempts = state.attempts[claim.key] else { return }
            attempts.removeAll { $0.id == claim.id }
            state.attempts[claim.key] = attempts.isEmpty ? nil : attempts
        }
    }

    /// Forgets `key`'s attempts (a password that checked out).
    func reset(_ key: String) {
        _ = state.withLock { $0.attempts.removeValue(forKey: key) }
    }
}

/// A window in seconds, at least 1.
func windowSeconds(_ window: Duration) -> Double {
    let (seconds, attoseconds) = window.components
    return max(1, Double(seconds) + Double(attoseconds) / 1e18)
}

/// Says when to sweep out expired attempts: at every 1,000th attempt counted, so that what is
/// kept stays bounded by the attempts of one window.
struct SweepSchedule {
    private var counted = 0

    mutating func isDue() -> Bool {
        counted += 1
        guard counted >= 1_000 else { return false }
        counted = 0
        return true
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
