import Accounts
import Expenses
import Friends
import Groups
import Preferences

/// What a pull writes with: each area's replica interface on the replica's own stores, which
/// puts what the server sent the way the service's own writes leave it (docs/sync.md).
public struct ReplicaWriters: Sendable {
    public let accounts: any AccountsReplica
    public let friends: any FriendsReplica
    public let expenses: any ExpensesReplica
    public let groups: any GroupsReplica
    /// Preferences are put as they are: the user's own, by the service's own update.
    public let preferences: any PreferencesService

    public init(
        accounts: any AccountsReplica, friends: any FriendsReplica, expenses: any ExpensesReplica, groups: any GroupsReplica,
        preferences: any PreferencesService
    ) {
        self.accounts = accounts
        self.friends = friends
        self.expenses = expenses
        self.groups = groups
        self.preferences = preferences
    }
}

/// What one pull into a replica did.
public struct PullReport: Equatable, Sendable {
    /// Pages written.
    public var pages = 0
    /// Changes written (an entity put or removed), profiles aside.
    public var changes = 0
    /// Whether the pull began without a cursor: the replica's first, or one started again once
    /// the server no longer knew its cursor (the replica was emptied first).
    public var fromScratch = false

    public init(pages: Int = 0, changes: Int = 0, fromScratch: Bool = false) {
        self.pages = pages
        self.changes = changes
        self.fromScratch = fromScratch
    }
}
