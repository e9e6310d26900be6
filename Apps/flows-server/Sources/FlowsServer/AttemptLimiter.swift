import Foundation
import PostgresStore
import Synchronization

/// How many attempts the server allows before it answers `429 rate-limited`.
public struct RateLimits: Sendable, Equatable {
    /// Failed password checks per account from one client address (sign-in), or per account
    /// from its own sessions (changing the email or the password).
    public var failuresPerAccount: Int
    /// Failed sign-ins per account from every address it has not signed in from in the last
    /// ``knownAddressDays``, all together: a slower limit on guessing from many addresses, which
    /// never locks the owner out of the addresses they use.
    public var failuresPerAccountFromNewAddresses: Int
    /// Failed sign-ins per client address, whichever accounts they tried.
    public var failuresPerAddress: Int
    /// New accounts per client address (each costs a bcrypt hash).
    public var signUpsPerAddress: Int
    /// Look-ups of accounts by friend code or email (finding, adding, linking, a contact's
    /// email) per user.
    public var lookupsPerUser: Int
    /// The same per client address, whichever users ask.
    public var lookupsPerAddress: Int
    /// Pulls without a cursor per user (each logs everything the user sees again, docs/sync.md).
    public var firstPullsPerUser: Int
    /// The window the counts above are kept for.
    public var window: Duration

    /// How long an address an account signed in from stays one it is known at.
    public static let knownAddressDays = 30

    public init(
        failuresPerAccount: Int = 10, failuresPerAccountFromNewAddresses: Int = 100, failuresPerAddress: Int = 50, signUpsPerAddress: Int = 20,
        lookupsPerUser: Int = 100, lookupsPerAddress: Int = 300, firstPullsPerUser: Int = 20, window: Duration = .seconds(15 * 60)
    ) {
        self.firstPullsPerUser = firstPullsPerUser
        self.failuresPerAccount = failuresPerAccount
        self.failuresPerAccountFromNewAddresses = failuresPerAccountFromNewAddresses
        self.failuresPerAddress = failuresPerAddress
        self.signUpsPerAddress = signUpsPerAddress
        self.lookupsPerUser = lookupsPerUser
        self.lookupsPerAddress = lookupsPerAddress
        self.window = window
    }

    /// The defaults, in any 15 minutes: 10 failures per account from one address and 100 from
    /// new addresses together, 50 per address; 20 sign-ups per address; 100 look-ups per user and
    /// 300 per address; 20 pulls without a cursor per user.
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

    /// Whether `key` has an attempt in the window.
    func contains(_ key: String) -> Bool {
        let since = now() - window
        return state.withLock { $0.attempts[key]?.contains { $0.time > since } ?? false }
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

/// The server's limits together: in the database every server shares, when there is one
/// (PostgreSQL), or else in this process's memory.
struct RequestLimits: Sendable {
    /// Failed password checks per account and address (and per account, from its sessions).
    let accounts: any AttemptCounts
    /// Failed sign-ins per account from addresses it is not known at.
    let newAddresses: any AttemptCounts
    /// The addresses each account signed in from lately (one entry per account and address).
    let knownAddresses: any AttemptCounts
    let addresses: any AttemptCounts
    let signUps: any AttemptCounts
    let lookupsByUser: any AttemptCounts
    let lookupsByAddress: any AttemptCounts
    let firstPulls: any AttemptCounts

    init(_ limits: RateLimits, shared database: ServerDatabase? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        let seconds: @Sendable () -> Double = { now().timeIntervalSince1970 }
        let known = Duration.seconds(RateLimits.knownAddressDays * 24 * 60 * 60)
        func counts(_ kind: String, _ limit: Int, _ window: Duration = limits.window) -> any AttemptCounts {
            if let database { SharedAttemptLimiter(kind: kind, limit: limit, window: window, database: database, now: now) }
            else { AttemptLimiter(limit: limit, window: window, now: seconds) }
        }
        accounts = counts("account", limits.failuresPerAccount)
        newAddresses = counts("account-from-new-address", limits.failuresPerAccountFromNewAddresses)
        knownAddresses = counts("known-address", 1, known)
        addresses = counts("address", limits.failuresPerAddress)
        signUps = counts("sign-up", limits.signUpsPerAddress)
        lookupsByUser = counts("lookup-by-user", limits.lookupsPerUser)
        lookupsByAddress = counts("lookup-by-address", limits.lookupsPerAddress)
        firstPulls = counts("first-pull-by-user", limits.firstPullsPerUser)
    }
}
