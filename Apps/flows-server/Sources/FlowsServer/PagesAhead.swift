import Foundation
import Primitives
import Sync
import Synchronization

/// The next page of each pull under way, read and written out while the page before it travels
/// and is written on the client (docs/sync.md, "What a first pull costs").
///
/// A pull is a chain of requests, each after the cursor the one before answered, so the server
/// would otherwise sit idle while a client reads and stores a page, and the client while the
/// server reads and writes out the next. When a page with more after it is answered, the page
/// after its cursor is made at once; the request for it takes it, and starts the one after.
///
/// What is made ahead is what the request would have been answered a moment earlier: a page is
/// changes after a cursor as the store holds them then, and anything that changes meanwhile is
/// logged after it, for the page after. A page made ahead that fails is made again when asked
/// for, so the request answers its own error. One page a user is kept, for a short while, and
/// for at most ``capacity`` users at once; past either, a request reads its page itself.
final class PagesAhead: Sendable {
    /// A page as it is answered: its bytes, and where the pull goes on from.
    struct Written: Sendable {
        let bytes: Data
        let cursor: SyncCursor
        let more: Bool
    }

    private struct Key: Hashable {
        let cursor: String
        let limit: Int
    }

    private struct Entry {
        let key: Key
        let made: Date
        let task: Task<Written?, Never>
    }

    /// How long a page made ahead waits for its request.
    let lifetime: TimeInterval
    let capacity: Int
    private let entries = Mutex<[UserID: Entry]>([:])
    private let now: @Sendable () -> Date

    init(lifetime: TimeInterval = 30, capacity: Int = 64, now: @escaping @Sendable () -> Date = Date.init) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
    }

    /// The page of `user`'s pull after `cursor`: the one made ahead when there is one for it,
    /// read and written by `make` when not; either way the page after it is started.
    func page(
        for user: UserID, after cursor: SyncCursor?, limit: Int, make: @escaping @Sendable (SyncCursor?) async throws -> Written
    ) async throws -> Written {
        let ahead = cursor.flatMap { take(Key(cursor: $0.text, limit: limit), of: user) }
        let page: Written
        if let made = await ahead?.value {
            page = made
        } else {
            page = try await make(cursor)
        }
        if page.more, page.cursor != cursor { start(Key(cursor: page.cursor.text, limit: limit), of: user, make: make) }
        return page
    }

    /// How many users have a page waiting or being made (for tests).
    var count: Int { entries.withLock { $0.count } }

    private func take(_ key: Key, of user: UserID) -> Task<Written?, Never>? {
        let moment = now()
        return entries.withLock { entries in
            guard let entry = entries[user] else { return nil }
            entries[user] = nil
            guard entry.key == key, moment.timeIntervalSince(entry.made) < lifetime else {
                entry.task.cancel()
                return nil
            }
            return entry.task
        }
    }

    private func start(_ key: Key, of user: UserID, make: @escaping @Sendable (SyncCursor?) async throws -> Written) {
        let moment = now()
        entries.withLock { entries in
            let lifetime = lifetime
            for (owner, entry) in entries where moment.timeIntervalSince(entry.made) >= lifetime {
                entry.task.cancel()
                entries[owner] = nil
            }
            entries[user]?.task.cancel()
            guard entries[user] != nil || entries.count < capacity else { return }
            let cursor = SyncCursor(key.cursor)
            entries[user] = Entry(key: key, made: moment, task: Task.detached { try? await make(cursor) })
        }
    }
}
