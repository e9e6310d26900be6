import Accounts
import DataChanges
import Expenses
import Foundation
import Friends
import Groups
import Preferences
import Primitives
import Sync

/// Pulls what changed for a user on their server into their replica (docs/sync.md, "A sync"):
/// page after page until the server has no more, each page's changes written by the areas'
/// replica interfaces, then its cursor (the next page is fetched meanwhile). A pull stopped at any point loses nothing: a page whose
/// cursor was not saved is pulled again, and writing a change twice leaves what writing it once
/// did.
public struct ReplicaPull: Sendable {
    private let server: any SyncService
    private let replica: ReplicaWriters
    private let state: any ReplicaStateStore
    private let now: @Sendable () -> Date
    private let pageSize: Int

    public init(
        server: any SyncService, replica: ReplicaWriters, state: any ReplicaStateStore, pageSize: Int = SyncPage.largestPage,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.server = server
        self.replica = replica
        self.state = state
        self.pageSize = pageSize
        self.now = now
    }

    /// How far `user`'s replica has pulled, without asking the server; nil before its first page.
    public func state(of user: UserID) async throws(SyncError) -> ReplicaState? {
        do { return try await state.state(of: user.rawValue) } catch { throw .storeUnavailable("\(error)") }
    }

    /// Pulls every change for `user` since the replica's cursor.
    public func pull(for user: UserID) async throws(SyncError) -> PullReport {
        var report = PullReport()
        let kept = try await state(of: user)
        var cursor = kept.map { SyncCursor($0.cursor) }
        var caughtUp = kept?.caughtUp ?? false
        var restarted = false
        report.fromScratch = cursor == nil
        // The next page, asked for while the one before is written.
        var next: Task<Result<SyncPage, SyncError>, Never>?
        defer { next?.cancel() }
        while true {
            let page: SyncPage
            do {
                if let asked = next {
                    next = nil
                    page = try await asked.value.get()
                } else {
                    page = try await server.changes(for: user, after: cursor, limit: pageSize)
                }
            } catch where (error == .cursorExpired || error == .invalidCursor) && cursor != nil && !restarted {
                // The server no longer knows what followed the cursor: what the replica holds
                // may have gone without a tombstone, so it starts again from nothing (once).
                do { try await state.erase() } catch { throw .storeUnavailable("\(error)") }
                (cursor, caughtUp, restarted) = (nil, false, true)
                report.fromScratch = true
                continue
            }
            if page.more, page.cursor != cursor {
                let (server, after, limit) = (server, page.cursor, pageSize)
                next = Task {
                    do throws(SyncError) { return .success(try await server.changes(for: user, after: after, limit: limit)) } catch { return .failure(error) }
                }
            }
            try await write(page, for: user)
            caughtUp = caughtUp || !page.more
            let saved = ReplicaState(cursor: page.cursor.text, pulledAt: now().timeIntervalSince1970, caughtUp: caughtUp)
            do { try await state.save(saved, of: user.rawValue) } catch { throw .storeUnavailable("\(error)") }
            report.pages += 1
            report.changes += page.changes.count
            // A full page whose cursor did not move would be asked for again and again.
            guard page.more, page.cursor != cursor else { return report }
            cursor = page.cursor
        }
    }

    /// Writes a page: the names it brings first (the changes name those people), then each
    /// change, then the avatars (of people whose rows are there by then).
    func write(_ page: SyncPage, for user: UserID) async throws(SyncError) {
        for profile in page.profiles where profile.profile.id != user {
            try await writing { () async throws(AccountsError) in try await replica.accounts.put(profile.profile) }
        }
        // Expenses and lines of activity (most of a page) go in one write a run.
        var run: [PulledExpenses] = []
        for change in page.changes {
            if let items = Self.items(of: change, for: user) {
                run += items
            } else {
                try await put(run)
                run = []
                try await write(change, for: user)
            }
        }
        try await put(run)
        for profile in page.profiles {
            guard let avatar = profile.avatar else { continue }
            try await writing { () async throws(AccountsError) in try await replica.accounts.putAvatar(avatar, of: profile.profile.id) }
        }
    }

    /// What `change` puts on the replica's expenses, when it is an expense or a line of
    /// activity; nil for anything else.
    private static func items(of change: SyncChange, for user: UserID) -> [PulledExpenses]? {
        switch change.value {
        case .expense(let synced)?:
            // With the lines of its history the user's own activity does not tell of (from
            // before they were in it); theirs come as activity, in the activity's order.
            [.expense(synced.expense, history: synced.history, comments: synced.comments, deleted: synced.deleted)]
                + synced.lines.filter { !$0.people.contains(user) }.map(PulledExpenses.line)
        case .activity(let line)?:
            [.line(line)]
        default:
            nil
        }
    }

    private func put(_ run: [PulledExpenses]) async throws(SyncError) {
        guard !run.isEmpty else { return }
        try await writing { () async throws(ExpensesError) in try await replica.expenses.put(run) }
    }

    private func write(_ change: SyncChange, for user: UserID) async throws(SyncError) {
        switch change.value {
        case .expense?, .activity?:
            try await put(Self.items(of: change, for: user) ?? [])
        case .payment(let synced)?:
            try await writing { () async throws(ExpensesError) in try await replica.expenses.put(synced.payment, history: synced.history) }
        case .friend(let friend)?:
            if case .account(let email, let code) = friend.kind {
                try await writing { () async throws(AccountsError) in
                    try await replica.accounts.put(User(id: friend.id, email: email, displayName: friend.name, friendCode: code))
                }
            }
            try await writing { () async throws(FriendsError) in try await replica.friends.put(friend, of: user) }
        case .requests(let requests)?:
            for person in requests.incoming.map(\.person) + requests.outgoing.map(\.person) + requests.blocked {
                try await writing { () async throws(AccountsError) in try await replica.accounts.put(person) }
            }
            try await writing { () async throws(FriendsError) in try await replica.friends.put(requests, of: user) }
        case .group(let group)?:
            try await writing { () async throws(GroupsError) in try await replica.groups.put(group) }
        case .account(let account)?:
            try await writing { () async throws(AccountsError) in try await replica.accounts.put(account) }
        case .preferences(let preferences)?:
            try await writing { () async throws(PreferencesError) in try await replica.preferences.update(preferences, of: user) }
        case .series(let kept)?:
            try await writing { () async throws(ExpensesError) in try await replica.expenses.put(kept) }
        case nil:
            try await remove(change, for: user)
        }
    }

    private func remove(_ change: SyncChange, for user: UserID) async throws(SyncError) {
        switch change.kind {
        case .expense:
            try await writing { () async throws(ExpensesError) in try await replica.expenses.removeExpense(ExpenseID(rawValue: change.id)) }
        case .payment:
            try await writing { () async throws(ExpensesError) in try await replica.expenses.removePayment(ExpenseID(rawValue: change.id)) }
        case .friend:
            try await writing { () async throws(FriendsError) in try await replica.friends.removeFriend(UserID(rawValue: change.id), of: user) }
        case .requests:
            try await writing { () async throws(FriendsError) in try await replica.friends.put(FriendRequests(), of: user) }
        case .group:
            try await writing { () async throws(GroupsError) in try await replica.groups.removeGroup(GroupID(rawValue: change.id)) }
        case .series:
            try await writing { () async throws(ExpensesError) in try await replica.expenses.removeSeries(SeriesID(rawValue: change.id), for: user) }
        // The user's own account and preferences are never theirs no longer to see; a line of
        // their activity, once theirs, stays theirs.
        case .account, .preferences, .activity:
            break
        }
    }

    /// A replica's write; its area's failure as the sync's: the replica's store is the one that
    /// failed.
    private func writing<Failure: Error>(_ work: () async throws(Failure) -> Void) async throws(SyncError) {
        do { try await work() } catch { throw .storeUnavailable(Self.message(error)) }
    }

    private static func message(_ error: any Error) -> String {
        switch error {
        case let error as AccountsError: error.message
        case let error as FriendsError: error.message
        case let error as ExpensesError: error.message
        case let error as GroupsError: error.message
        case let error as PreferencesError: error.message
        default: "\(error)"
        }
    }
}
