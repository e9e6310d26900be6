import Accounts
import AccountsData
import FlowsServices
import Foundation
import LocalStore
import Primitives
import Sync
import SyncReplica
import Synchronization

/// The replicas of a server's users on this machine (docs/sync.md), one store each, opened when
/// first read and pulled into through the server's `sync`; and the user of the session kept for
/// that server, so that it goes on offline.
final class ServerReplicas: Replicas, ReplicaStatusSource {
    /// Where a user's replica is kept: a file, or (for tests) memory.
    enum Place: Sendable {
        case folder(StoreLocation)
        case memory
    }

    private let place: Place
    private let sync: any SyncService
    /// How the writes made offline are written for the server.
    private let operations: any QueuedOperations
    private let tokens: any SessionTokenStore
    private let now: @Sendable () -> Date
    /// Each user's replica once opened.
    private let opened = Mutex<[UserID: LocalReplica]>([:])
    /// The users whose replica was seen caught up, so that a read does not ask the replica's
    /// state each time; told again after each pull (one that started again is not, until it
    /// reaches the end).
    private let caughtUp = Mutex<Set<UserID>>([])
    /// The pulls of this process, one after the other: two at once could each write a page the
    /// other had written newer.
    private let pulls = PullQueue()
    /// The session's user, kept beside the session's token (in memory for tests).
    private let keptFile: PrivateFile?
    private let keptInMemory = Mutex<User?>(nil)
    /// Since when the server could not be reached, while it cannot.
    private let offlineSince = Mutex<Date?>(nil)
    /// Why the last pull failed, other than the server being out of reach; nil once one works.
    private let failure = Mutex<String?>(nil)

    init(
        place: Place, sync: any SyncService, operations: any QueuedOperations, tokens: any SessionTokenStore, keptUser: PrivateFile?,
        now: @escaping @Sendable () -> Date
    ) {
        self.place = place
        self.sync = sync
        self.operations = operations
        self.tokens = tokens
        keptFile = keptUser
        self.now = now
    }

    /// `user`'s replica, opened once; nil when its folder cannot be made.
    func replica(of user: UserID) -> LocalReplica? {
        if let known = opened.withLock({ $0[user] }) { return known }
        let replica: LocalReplica
        switch place {
        case .memory:
            replica = LocalReplica.open(.memory, now: now)
        case .folder(let folder):
            guard (try? folder.prepare()) != nil else { return nil }
            replica = LocalReplica.open(.file(folder.directory.appendingPathComponent("\(Self.fileName(user.rawValue)).sqlite")), now: now)
        }
        return opened.withLock { opened in
            if let known = opened[user] { return known }
            opened[user] = replica
            return replica
        }
    }

    func reads(for user: UserID) async -> ReplicaReads? {
        // Until a pull has reached the server's last page, the replica holds only part of what
        // the user sees (the first pages of a first pull cut short): the server answers.
        guard let replica = replica(of: user) else { return nil }
        if !caughtUp.withLock({ $0.contains(user) }) {
            guard (try? await replica.state(of: user))?.caughtUp == true else { return nil }
            caughtUp.withLock { _ = $0.insert(user) }
        }
        let services = replica.services
        return ReplicaReads(
            accounts: services.accounts, friends: services.friends, expenses: services.expenses, groups: services.groups, preferences: services.preferences,
            lines: services.syncSource
        )
    }

    func pull(for user: UserID) async {
        _ = await sync(for: user)
    }

    /// A sync of `user`'s replica (docs/sync.md): the writes made offline pushed, oldest first,
    /// then, once none waits, what changed pulled. Nil when the replica cannot be opened; the
    /// server's failure is kept for the screens to tell, and thrown.
    @discardableResult
    func sync(for user: UserID) async -> Result<SyncReport, SyncError>? {
        guard let replica = replica(of: user) else { return nil }
        let (sync, queue) = (sync, replica.queue(writingAs: operations))
        return await pulls.run { [self] () async -> Result<SyncReport, SyncError> in
            do throws(SyncError) {
                var report = SyncReport()
                report.push = try await queue.push(for: user, to: sync)
                // With writes still waiting the replica keeps showing them: no pull.
                if report.push.waiting == 0 {
                    report.pull = try await replica.pull(for: user, from: sync)
                    if report.pull.fromScratch { caughtUp.withLock { _ = $0.remove(user) } }
                }
                offlineSince.withLock { $0 = nil }
                failure.withLock { $0 = nil }
                return .success(report)
            } catch .serverUnreachable(let reason) {
                // (One that had emptied the replica to start again is asked of its state anew.)
                caughtUp.withLock { _ = $0.remove(user) }
                wentOffline()
                return .failure(.serverUnreachable(reason))
            } catch {
                caughtUp.withLock { _ = $0.remove(user) }
                // The replica shows what it had; the screens say why it is not up to date.
                failure.withLock { $0 = error.message }
                return .failure(error)
            }
        }
    }

    func queue(for user: UserID) -> ReplicaQueue? {
        replica(of: user)?.queue(writingAs: operations)
    }

    func wentOffline() {
        let now = now()
        offlineSince.withLock { $0 = $0 ?? now }
    }

    func status(of user: UserID) async -> ReplicaStatus? {
        let pulledAt = try? await replica(of: user)?.state(of: user)?.pulledAt
        let writes = (try? await queue(for: user)?.writes(of: user)) ?? []
        return ReplicaStatus(
            lastSynced: pulledAt.map { Date(timeIntervalSince1970: $0) }, offlineSince: offlineSince.withLock { $0 }, failure: failure.withLock { $0 },
            waiting: writes.count { $0.refusal == nil }, notSynced: writes.count { $0.refusal != nil }
        )
    }

    func keptUser() -> User? {
        // Only while the session's token is kept: signing out, or the server ending it, forgets both.
        guard (try? tokens.load()) != nil else { return nil }
        guard let keptFile else { return keptInMemory.withLock { $0 } }
        guard let text = try? keptFile.read() else { return nil }
        return try? JSONDecoder().decode(User.self, from: Data(text.utf8))
    }

    func keep(_ user: User?) {
        guard let keptFile else { return keptInMemory.withLock { $0 = user } }
        // Not kept is only not usable offline: the server still has the session.
        if let user, let data = try? JSONEncoder().encode(user) {
            try? keptFile.write(String(decoding: data, as: UTF8.self))
        } else {
            try? keptFile.remove()
        }
    }

    /// A user id as a file's name: the characters any file system takes.
    static func fileName(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }
}

/// Runs pulls one after the other, each once those asked for before it have ended.
private actor PullQueue {
    private var last: Task<Void, Never>?

    func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let previous = last
        let task = Task {
            await previous?.value
            return await work()
        }
        last = Task { _ = await task.value }
        return await task.value
    }
}

