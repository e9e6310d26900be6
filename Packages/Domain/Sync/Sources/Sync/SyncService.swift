import Accounts
import Expenses
import Friends
import Groups
import Preferences
import Primitives

/// What changed for a person on a server since they last asked: the pull of docs/sync.md, which
/// keeps their replica up to date.
public protocol SyncService: Sendable {
    /// The changes `user` may see since `cursor`, oldest first, at most `limit` (1 to
    /// ``SyncPage/largestPage``): each entity whole as `user` sees it now, or removed when they
    /// no longer see it. Without a cursor: everything `user` sees, then what changes after.
    func changes(for user: UserID, after cursor: SyncCursor?, limit: Int) async throws(SyncError) -> SyncPage
    /// Applies `operations` (at most ``SyncOperation/largestPush``) in order as `user`, each
    /// through its own route, in its own transaction and under its own key, and answers each
    /// one's outcome: one refused or in conflict does not stop those after it. The answer stops
    /// at the first operation that was not answered; it and the rest wait.
    func push(_ operations: [SyncOperation], by user: UserID) async throws(SyncError) -> [SyncOutcome]
    /// Has `user`'s next pull bring `entities` again (at most ``SyncEntity/largestResend``), each
    /// whole as they see it now, or removed: what a replica made of writes the server refused
    /// is put back as the server keeps it.
    func resend(_ entities: [SyncEntity], for user: UserID) async throws(SyncError)
}

/// An entity as a pull names it: a change's kind and id.
public struct SyncEntity: Hashable, Sendable {
    /// The most one ``SyncService/resend(_:for:)`` takes.
    public static let largestResend = 100

    public let kind: SyncKind
    public let id: String

    public init(kind: SyncKind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// `kind:id`, as a replica's queue writes it; nil for anything else.
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), let kind = SyncKind(rawValue: String(text[..<colon])) else { return nil }
        self.init(kind: kind, id: String(text[text.index(after: colon)...]))
    }

    /// `kind:id`.
    public var text: String { "\(kind.rawValue):\(id)" }
}

/// Where a pull stopped: opaque to a client, which sends it back for the changes after it.
/// Cursors only grow.
public struct SyncCursor: Hashable, Sendable, CustomStringConvertible {
    /// The cursor as the server wrote it.
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public var description: String { text }
}

/// A page of changes, and where to ask again.
public struct SyncPage: Equatable, Sendable {
    /// The most changes a page holds.
    public static let largestPage = 500

    public let changes: [SyncChange]
    /// The people the page's changes name, as the person pulling is shown them: a replica
    /// shows their names where the changes show their ids.
    public let profiles: [SyncProfile]
    /// Send it back for the changes after this page.
    public let cursor: SyncCursor
    /// Whether more changes may be waiting already: ask again at once.
    public let more: Bool

    public init(changes: [SyncChange], profiles: [SyncProfile] = [], cursor: SyncCursor, more: Bool) {
        self.changes = changes
        self.profiles = profiles
        self.cursor = cursor
        self.more = more
    }
}

/// Someone a page's changes name (in an expense, a payment, a group, a history or a comment),
/// by the name their account goes by; with their avatar where the page brings them as a
/// friend, or as the person's own account. Contacts come as friends, with the names their owner
/// gave them; someone else's contacts have no name for the person, and come not at all.
public struct SyncProfile: Equatable, Sendable {
    public let profile: PublicProfile
    /// Nil where the page does not bring it (the person is no friend of the one pulling).
    public let avatar: Avatar?

    public init(_ profile: PublicProfile, avatar: Avatar? = nil) {
        self.profile = profile
        self.avatar = avatar
    }
}

/// One entity that changed for the person pulling: as they see it now, or removed (deleted, or
/// no longer theirs to see).
public struct SyncChange: Equatable, Sendable {
    public let kind: SyncKind
    /// The entity's id: an expense's or a payment's, a friend's or a contact's, a group's; for
    /// ``SyncKind/requests``, the person's own.
    public let id: String
    /// The entity now; nil when it is removed.
    public let value: SyncValue?

    public init(kind: SyncKind, id: String, value: SyncValue?) {
        self.kind = kind
        self.id = id
        self.value = value
    }
}

/// The kinds of entity a replica holds.
public enum SyncKind: String, Sendable, CaseIterable {
    case expense
    case payment
    case friend
    /// The person's friend requests, both ways, and the people they blocked: one entity.
    case requests
    case group
    /// The person's own account (its id the person's).
    case account
    /// The person's own preferences (its id the person's).
    case preferences
    /// A line of the person's activity (its id `SUBJECT/LINE`): an expense's history and
    /// comments, a payment's, as the activity shows them.
    case activity
    /// A series of repeating expenses the person is in.
    case series
}

/// An entity as the person pulling sees it.
public enum SyncValue: Equatable, Sendable {
    case expense(SyncedExpense)
    case payment(SyncedPayment)
    case friend(Friend)
    case requests(FriendRequests)
    case group(Group)
    case account(User)
    case preferences(Preferences)
    case activity(ActivityLine)
    case series(KeptSeries)

    public var kind: SyncKind {
        switch self {
        case .expense: .expense
        case .payment: .payment
        case .friend: .friend
        case .requests: .requests
        case .group: .group
        case .account: .account
        case .preferences: .preferences
        case .activity: .activity
        case .series: .series
        }
    }
}

/// An expense with what a replica shows beside it: how it came to be as it is (who added and
/// changed it, when), and its comments.
public struct SyncedExpense: Equatable, Sendable {
    public let expense: Expense
    /// Oldest first.
    public let history: [ExpenseChange]
    /// Oldest first.
    public let comments: [ExpenseComment]
    /// Whether it was deleted: kept among the deleted, which the person may restore; it moves
    /// no balance.
    public let deleted: Bool
    /// The lines of its history the person's activity does not show (from before they were in
    /// it), whole, oldest first; the others come as their activity.
    public let lines: [ActivityLine]

    public init(_ expense: Expense, history: [ExpenseChange], comments: [ExpenseComment], deleted: Bool = false, lines: [ActivityLine] = []) {
        self.expense = expense
        self.history = history
        self.comments = comments
        self.deleted = deleted
        self.lines = lines
    }
}

/// A payment, and who recorded it when.
public struct SyncedPayment: Equatable, Sendable {
    public let payment: Settlement
    /// Oldest first.
    public let history: [PaymentChange]

    public init(_ payment: Settlement, history: [PaymentChange]) {
        self.payment = payment
        self.history = history
    }
}

/// Why a pull did not happen.
public enum SyncError: Error, Equatable, Sendable {
    /// The cursor is not one this server wrote: not one at all, or past any it gave (another
    /// server's, or a database restored from an older copy).
    case invalidCursor
    /// The cursor is older than the changes the server keeps: pull again without one.
    case cursorExpired
    /// More operations than one push takes.
    case tooManyOperations(limit: Int)
    /// Too many pulls without a cursor lately: try again in `seconds`.
    case tooManyFirstPulls(seconds: Int)
    case storeUnavailable(String)
    case signedOut
    case serverUnreachable(String)

    public var message: String {
        switch self {
        case .invalidCursor: "That cursor is not one this server gave; pull again without one."
        case .cursorExpired: "That cursor is older than the changes the server keeps; pull again without one."
        case .tooManyOperations(let limit): "A push takes at most \(limit) operations; send the rest in the next."
        case .tooManyFirstPulls(let seconds): "Too many pulls of everything lately; try again in \(max(1, (seconds + 59) / 60)) min."
        case .storeUnavailable(let reason): "The local store is unavailable: \(reason)"
        case .signedOut: ServerMessages.signedOut
        case .serverUnreachable(let reason): ServerMessages.unreachable(reason)
        }
    }
}
