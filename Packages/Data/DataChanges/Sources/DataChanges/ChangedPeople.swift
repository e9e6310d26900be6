import Synchronization

/// Told, after a write to a store, whom it concerns: the people whose balances, friendships or
/// groups it changed (never nobody). A server passes it on to their open pages and caches.
public typealias PeopleChanged = @Sendable (_ people: Set<String>) -> Void

/// The people a write concerns, noted by a store while the write runs, and what it changed for
/// each of them. Each area says whom each of its writes concerns; this keeps the note and tells
/// it, and a store that keeps a change log (``Change``) writes the changes into the write's own
/// transaction.
///
/// A write that is run again adds each attempt's people; one that fails still tells whom it
/// tried to change (nothing may have changed: telling too many is harmless, too few is not).
public final class ChangedPeople: Sendable {
    private let people = Mutex<Set<String>>([])
    private let changes = Mutex<[Change]>([])

    public init() {}

    /// Notes that the write concerns each of `some`.
    public func note(_ some: String...) { note(some) }

    /// Notes that the write concerns each of `some`.
    public func note(_ some: some Sequence<String>) { people.withLock { $0.formUnion(some) } }

    /// Notes that the write changed the entity `id` of `kind` for each of `viewers`: they may see
    /// it now, or see it otherwise, or no longer see it. They are concerned too.
    public func changed(_ kind: Change.Kind, _ id: String, for viewers: some Sequence<String>) {
        let viewers = Set(viewers)
        note(viewers)
        changes.withLock { changes in changes.append(contentsOf: viewers.sorted().map { Change(kind: kind, id: id, person: $0) }) }
    }

    /// Notes that the write changed the entity `id` of `kind`, an expense or a payment filed
    /// under `group`, for every member of the group (``Change/audience(ofGroup:)``): those not
    /// in it see it in the group's ledger. Nobody is told: who is in the group is the group's.
    public func changed(_ kind: Change.Kind, _ id: String, forGroup group: String) {
        changes.withLock { changes in changes.append(Change(kind: kind, id: id, person: Change.audience(ofGroup: group))) }
    }

    /// Everyone noted so far.
    public var all: Set<String> { people.withLock { $0 } }

    /// The changes noted since the last call, in the order they were noted: what one attempt of
    /// the write logs in its transaction (an attempt rolled back loses its rows with it).
    public func takeChanges() -> [Change] {
        changes.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }

    /// Runs `write` with a fresh note when someone is told of changes or the store keeps a
    /// change log (`logging`), and tells them afterwards whom it concerned, whether the write
    /// went through or not.
    public static func watching<T>(
        _ observer: PeopleChanged?, logging: Bool = false, _ write: (ChangedPeople?) async throws -> T
    ) async throws -> T {
        guard observer != nil || logging else { return try await write(nil) }
        let noted = ChangedPeople()
        defer {
            let people = noted.all
            if let observer, !people.isEmpty { observer(people) }
        }
        return try await write(noted)
    }
}

/// One row of a change log: entity `id` of `kind` changed for `person`, who may see it now, see
/// it otherwise or no longer see it. A pull reads the entity as the person sees it when asked
/// (docs/sync.md), so a row says only that something may have changed, never what.
public struct Change: Hashable, Sendable {
    /// What kind of entity changed; its id is the entity's own id in the contract.
    public enum Kind: String, Sendable, CaseIterable {
        /// An expense the person is in (its id an expense's).
        case expense
        /// A payment the person made or received, or that passed through them (its id a
        /// payment's).
        case payment
        /// A friend or a contact of the person (its id the friend's or the contact's).
        case friend
        /// The person's friend requests, both ways, and blocks: one entity a person (its id the
        /// person's own).
        case requests
        /// A group the person is in (its id the group's).
        case group
        /// The person's own account: name, email, friend code, avatar (its id the person's).
        case account
        /// The person's own preferences (its id the person's).
        case preferences
        /// A line of the person's activity (its id `SUBJECT/LINE`: the expense's or payment's id,
        /// then the line's).
        case activity
        /// A series of repeating expenses the person is in (its id the series').
        case series
        /// The whole ledger of a group the person joined or left (its id the group's): every
        /// expense and payment filed under it, which the person starts to see, or no longer
        /// sees, in the group. Never pulled as it is: a pull logs, for the person, a row for
        /// each of them, read then as the person sees it.
        case ledger
    }

    public let kind: Kind
    public let id: String
    /// Whose change it is: a person's id, or a group's audience (``audience(ofGroup:)``).
    public let person: String

    public init(kind: Kind, id: String, person: String) {
        self.kind = kind
        self.id = id
        self.person = person
    }
}

extension Change {
    /// Whom the rows of an expense or payment filed under group `id` go to, besides the people
    /// in it: every member of the group, each of whose pulls reads the group's rows too.
    /// (A person's id never holds a colon.)
    public static func audience(ofGroup id: String) -> String { "group:\(id)" }

    /// A line of activity's id as the log and the contract write it, `SUBJECT/LINE`: the
    /// expense's or payment's id, then the line's.
    public static func activityID(subject: String, line: String) -> String { "\(subject)/\(line)" }

    /// The subject and the line an activity's id (``activityID(subject:line:)``) names; nil for
    /// any other id.
    public static func activityParts(of id: String) -> (subject: String, line: String)? {
        guard let slash = id.firstIndex(of: "/") else { return nil }
        return (String(id[..<slash]), String(id[id.index(after: slash)...]))
    }
}
