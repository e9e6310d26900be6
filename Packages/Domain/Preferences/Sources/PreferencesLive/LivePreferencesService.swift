import Preferences
import PreferencesData
import Primitives
import Synchronization

/// The preferences service of the app, on top of a ``PreferencesStore``.
///
/// Watchers hear of a change made through this service at once, and of one made by another
/// process on the same store at their next look (SQLite tells no other connection of a
/// commit, so a watcher reads the user's row every `pollInterval`: one look-up by key).
public struct LivePreferencesService: PreferencesService {
    private let store: any PreferencesStore
    private let pollInterval: Duration
    private let watchers = Watchers()

    public init(store: any PreferencesStore, pollInterval: Duration = changePollInterval) {
        self.store = store
        self.pollInterval = pollInterval
    }

    public func preferences(of user: UserID) async throws(PreferencesError) -> Preferences {
        let record: PreferencesRecord?
        do {
            record = try await store.read { try $0.preferences(userID: user.rawValue) }
        } catch {
            throw .storeUnavailable("\(error)")
        }
        guard let record else { return .standard }
        do {
            return Preferences(
                theme: try SaveFormatter.value(Theme.self, from: record.theme),
                defaultCurrency: try SaveFormatter.value(Currency.self, from: record.defaultCurrency)
            )
        } catch {
            throw .storeUnavailable("the stored preferences of \(user) are damaged: \(error)")
        }
    }

    public func update(_ preferences: Preferences, of user: UserID) async throws(PreferencesError) {
        let record = PreferencesRecord(
            userID: user.rawValue, theme: SaveFormatter.text(preferences.theme), defaultCurrency: SaveFormatter.text(preferences.defaultCurrency)
        )
        do {
            try await store.write { try $0.save(record) }
        } catch {
            throw .storeUnavailable("\(error)")
        }
        watchers.tell(user, preferences)
    }

    public func changes(of user: UserID) -> AsyncStream<Preferences> {
        AsyncStream { continuation in
            let watcher = Watcher(user: user, continuation: continuation)
            watchers.add(watcher)
            let service = self
            let task = Task {
                while !Task.isCancelled {
                    // A store that cannot be read now is looked at again next time. A look that
                    // a change through this service overtook is stale: the next one reads anew.
                    let told = watcher.told
                    if let current = try? await service.preferences(of: user) { watcher.offer(current, unlessToldSince: told) }
                    try? await Task.sleep(for: service.pollInterval)
                }
            }
            continuation.onTermination = { [watchers] _ in
                task.cancel()
                watchers.remove(watcher)
            }
        }
    }
}

/// Everyone watching someone's preferences in this process.
private final class Watchers: Sendable {
    private let all = Mutex<[ObjectIdentifier: Watcher]>([:])

    func add(_ watcher: Watcher) { all.withLock { $0[ObjectIdentifier(watcher)] = watcher } }
    func remove(_ watcher: Watcher) { _ = all.withLock { $0.removeValue(forKey: ObjectIdentifier(watcher)) } }

    func tell(_ user: UserID, _ preferences: Preferences) {
        for watcher in all.withLock({ Array($0.values) }) where watcher.user == user {
            watcher.tell(preferences)
        }
    }
}

/// One stream of a user's preferences: each value once, only when it differs from the last; a
/// value read before a change this process told of is not heard after it.
private final class Watcher: Sendable {
    let user: UserID
    private let continuation: AsyncStream<Preferences>.Continuation
    private let state = Mutex<(last: Preferences?, told: Int)>((nil, 0))

    init(user: UserID, continuation: AsyncStream<Preferences>.Continuation) {
        self.user = user
        self.continuation = continuation
    }

    /// How many changes through this service it was told of.
    var told: Int { state.withLock { $0.told } }

    /// A change made through this service.
    func tell(_ preferences: Preferences) {
        state.withLock { state in
            state.told += 1
            yield(preferences, after: &state.last)
        }
    }

    /// A value read from the store, heard unless a change was told of since `told`.
    func offer(_ preferences: Preferences, unlessToldSince told: Int) {
        state.withLock { state in
            guard state.told == told else { return }
            yield(preferences, after: &state.last)
        }
    }

    private func yield(_ preferences: Preferences, after last: inout Preferences?) {
        guard last != preferences else { return }
        last = preferences
        continuation.yield(preferences)
    }
}
