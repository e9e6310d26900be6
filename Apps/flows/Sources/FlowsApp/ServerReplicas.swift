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
    private let tokens: any SessionTokenStore
    private let now: @Sendable () -> Date
    /// Each user's replica once opened, with whether it has been pulled into.
    private let opened = Mutex<[UserID: (replica: LocalReplica, pulled: Bool)]>([:])
    /// The session's user, kept beside the session's token (in memory for tests).
    private let keptFile: PrivateFile?
    private let keptInMemory = Mutex<User?>(nil)
    /// Since when the server could not be reached, while it cannot.
    private let offlineSince = Mutex<Date?>(nil)

    init(place: Place, sync: any SyncService, tokens: any SessionTokenStore, keptUser: PrivateFile?, now: @escaping @Sendable () -> Date) {
        self.place = place
        self.sync = sync
        self.tokens = tokens
        keptFile = keptUser
        self.now = now
    }

    /// `user`'s replica, opened once; nil when its folder cannot be made.
    func replica(of user: UserID) -> LocalReplica? {
        if let known = opened.withLock({ $0[user]?.replica }) { return known }
        let replica: LocalReplica
        switch place {
        case .memory:
            replica = LocalReplica.open(.memory, now: now)
        case .folder(let folder):
            guard (try? folder.prepare()) != nil else { return nil }
            replica = LocalReplica.open(.file(folder.directory.appendingPathComponent("\(Self.fileName(user.rawValue)).sqlite")), now: now)
        }
        return opened.withLock { opened in
            if let known = opened[user] { return known.replica }
            opened[user] = (replica, false)
            return replica
        }
    }

    func reads(for user: UserID) async -> ReplicaReads? {
        guard let replica = replica(of: user) else { return nil }
        if opened.withLock({ $0[user]?.pulled }) != true {
            // A replica never pulled into holds nothing yet: the server answers until it has.
            guard (try? await replica.state(of: user)) != nil else { return nil }
            opened.withLock { $0[user]?.pulled = true }
        }
        let services = replica.services
        return ReplicaReads(
            accounts: services.accounts, friends: services.friends, expenses: services.expenses, groups: services.groups, preferences: services.preferences
        )
    }

    func pull(for user: UserID) async {
        guard let replica = replica(of: user) else { return }
        do throws(SyncError) {
            _ = try await replica.pull(for: user, from: sync)
            opened.withLock { $0[user]?.pulled = true }
            offlineSince.withLock { $0 = nil }
        } catch .serverUnreachable {
            wentOffline()
        } catch {
            // Another failure (a refusal, the replica's own store): the replica shows what it had.
        }
    }

    func wentOffline() {
        let now = now()
        offlineSince.withLock { $0 = $0 ?? now }
    }

    func status(of user: UserID) async -> ReplicaStatus? {
        let pulledAt = try? await replica(of: user)?.state(of: user)?.pulledAt
        return ReplicaStatus(lastSynced: pulledAt.map { Date(timeIntervalSince1970: $0) }, offlineSince: offlineSince.withLock { $0 })
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
