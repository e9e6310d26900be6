import Synchronization

/// Told, after a write to a store, whom it concerns: the people whose balances, friendships or
/// groups it changed (never nobody). A server passes it on to their open pages and caches.
public typealias PeopleChanged = @Sendable (_ people: Set<String>) -> Void

/// The people a write concerns, noted by a store while the write runs. Each area says whom
/// each of its writes concerns; this keeps the note and tells it.
///
/// A write that is run again adds each attempt's people; one that fails still tells whom it
/// tried to change (nothing may have changed: telling too many is harmless, too few is not).
public final class ChangedPeople: Sendable {
    private let people = Mutex<Set<String>>([])

    public init() {}

    /// Notes that the write concerns each of `some`.
    public func note(_ some: String...) { note(some) }

    /// Notes that the write concerns each of `some`.
    public func note(_ some: some Sequence<String>) { people.withLock { $0.formUnion(some) } }

    /// Everyone noted so far.
    public var all: Set<String> { people.withLock { $0 } }

    /// Runs `write` with a fresh note when someone is told of changes, and tells them
    /// afterwards whom it concerned, whether the write went through or not.
    public static func watching<T>(_ observer: PeopleChanged?, _ write: (ChangedPeople?) async throws -> T) async throws -> T {
        guard let observer else { return try await write(nil) }
        let noted = ChangedPeople()
        defer {
            let people = noted.all
            if !people.isEmpty { observer(people) }
        }
        return try await write(noted)
    }
}
