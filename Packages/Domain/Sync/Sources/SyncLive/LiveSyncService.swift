import Accounts
import DataChanges
import Expenses
import Friends
import Groups
import Preferences
import Primitives
import Sync

/// The pull of docs/sync.md on a server's stores: what the change log holds for the person
/// since their cursor, each entity read as they see it now through its area's own service, so
/// that a pull shows nothing the person may not see (what they may no longer see comes as
/// removed).
///
/// A first pull (no cursor) logs, for the person, every entity they see now, then reads the log
/// from a horizon taken before it looked: one way of reading, whether the entity was there
/// before or changed since, and no row from before the horizon, whose change the entities as
/// read already hold.
public struct LiveSyncService: SyncService {
    private let log: any ChangeLogStore
    private let expenses: any ExpensesService
    private let lines: any ExpensesSyncSource
    private let friends: any FriendsService
    private let groups: any GroupsService
    private let accounts: any AccountsService
    private let names: any AccountNames
    private let preferences: any PreferencesService
    private let operations: any OperationApplier

    /// - Parameter operations: applies a pushed operation through its own route (the server's).
    public init(
        log: any ChangeLogStore, expenses: any ExpensesService, lines: any ExpensesSyncSource, friends: any FriendsService, groups: any GroupsService,
        accounts: any AccountsService, names: any AccountNames, preferences: any PreferencesService, operations: any OperationApplier
    ) {
        self.log = log
        self.accounts = accounts
        self.names = names
        self.preferences = preferences
        self.expenses = expenses
        self.lines = lines
        self.friends = friends
        self.groups = groups
        self.operations = operations
    }

    public func push(_ pushed: [SyncOperation], by user: UserID) async throws(SyncError) -> [SyncOutcome] {
        guard pushed.count <= SyncOperation.largestPush else { throw .tooManyOperations(limit: SyncOperation.largestPush) }
        var outcomes: [SyncOutcome] = []
        for operation in pushed {
            guard let outcome = await operations.apply(operation, by: user) else { break }
            outcomes.append(outcome)
        }
        return outcomes
    }

    public func resend(_ entities: [SyncEntity], for user: UserID) async throws(SyncError) {
        guard entities.count <= SyncEntity.largestResend else { throw .tooManyOperations(limit: SyncEntity.largestResend) }
        // Only logged: the pull reads each as the user sees it then, and what they do not see
        // (or what is not there) comes removed.
        let changes = entities.compactMap { entity in
            Change.Kind(rawValue: entity.kind.rawValue).map { Change(kind: $0, id: entity.id, person: user.rawValue) }
        }
        do { try await log.log(changes) } catch { throw .storeUnavailable("\(error)") }
    }

    public func changes(for user: UserID, after cursor: SyncCursor?, limit: Int) async throws(SyncError) -> SyncPage {
        let limit = min(max(limit, 1), SyncPage.largestPage)
        let position: LogPosition
        if let cursor {
            guard let given = LogPosition(cursor.text) else { throw .invalidCursor }
            position = given
        } else {
            // Every write that might be missing from what is read now logs after the horizon.
            do { position = try await log.horizon() } catch { throw .storeUnavailable("\(error)") }
            try await logEverything(seenBy: user)
        }
        // The user's rows, and their groups': what is filed under a group goes to its members.
        let groupList = try await reading(GroupsError.self, Self.failure) { () async throws(GroupsError) in try await groups.everyGroup(of: user) }
        let audience = [user.rawValue] + groupList.map { Change.audience(ofGroup: $0.id.rawValue) }
        let rows: [LoggedChange]
        do { rows = try await log.changes(for: audience, after: position, limit: limit) } catch ChangeLogError.expired {
            throw .cursorExpired
        } catch ChangeLogError.ahead {
            throw .invalidCursor
        } catch {
            throw .storeUnavailable("\(error)")
        }
        // An entity that changed several times comes once, where it last changed.
        var last: [Key: Int] = [:]
        for (index, row) in rows.enumerated() {
            guard let kind = row.kind.flatMap({ SyncKind(rawValue: $0.rawValue) }) else { continue }
            last[Key(kind: kind, id: row.id)] = index
        }
        let keys = last.sorted(by: { $0.value < $1.value }).map(\.key)
        // Expenses and lines of activity, most of a page, are read together.
        let read = try await reading(ExpensesError.self, Self.failure) { () async throws(ExpensesError) in
            try await lines.pullRead(
                expenses: keys.filter { $0.kind == .expense }.map { ExpenseID(rawValue: $0.id) },
                lines: keys.filter { $0.kind == .activity }.compactMap { key in
                    Change.activityParts(of: key.id).map { (subject: ExpenseID(rawValue: $0.subject), id: $0.line) }
                },
                for: user
            )
        }
        let shown = Dictionary(read.lines.map { (Change.activityID(subject: $0.activity.subject.rawValue, line: $0.id), $0) }) { first, _ in first }
        var changes: [SyncChange] = []
        changes.reserveCapacity(keys.count)
        for key in keys {
            let value: SyncValue? =
                switch key.kind {
                case .expense:
                    read.expenses[ExpenseID(rawValue: key.id)].map {
                        .expense(SyncedExpense($0.expense, history: $0.history, comments: $0.comments, deleted: $0.deleted, lines: $0.untold))
                    }
                case .activity: shown[key.id].map(SyncValue.activity)
                default: try await value(of: key, for: user)
                }
            changes.append(SyncChange(kind: key.kind, id: key.id, value: value))
        }
        // A group joined or left: its whole ledger, logged for the user after this page, comes
        // in the pages after it, each read as the user sees it then.
        var ledgers: [Change] = []
        for group in Set(rows.lazy.filter { $0.kind == .ledger }.map(\.id)).sorted() {
            let ids = try await reading(ExpensesError.self, Self.failure) { () async throws(ExpensesError) in try await lines.ledgerIDs(of: GroupID(rawValue: group)) }
            ledgers += ids.expenses.map { Change(kind: .expense, id: $0.rawValue, person: user.rawValue) }
            ledgers += ids.payments.map { Change(kind: .payment, id: $0.rawValue, person: user.rawValue) }
        }
        do { try await log.log(ledgers) } catch { throw .storeUnavailable("\(error)") }
        return SyncPage(
            changes: changes, profiles: try await profiles(namedIn: changes, for: user), cursor: SyncCursor((rows.last?.position ?? position).description),
            more: rows.count == limit || !ledgers.isEmpty
        )
    }

    /// The people `changes` name, by their accounts' names; with avatars for those that come as
    /// friends, and for the person's own account.
    private func profiles(namedIn changes: [SyncChange], for user: UserID) async throws(SyncError) -> [SyncProfile] {
        var named: Set<UserID> = []
        var pictured: Set<UserID> = []
        for change in changes {
            switch change.value {
            case .expense(let synced)?:
                named.formUnion(synced.expense.people)
                named.formUnion(synced.history.map(\.by))
                // Who was in it then, as its lines tell (its history no longer carries them).
                for line in synced.lines {
                    named.insert(line.activity.actor)
                    if let then = line.expense { named.formUnion(then.people) }
                }
                named.formUnion(synced.comments.map(\.author))
            case .payment(let synced)?:
                named.formUnion([synced.payment.from, synced.payment.to] + synced.payment.through + synced.history.map(\.by))
            case .group(let group)?:
                named.formUnion(group.members + [group.createdBy])
            case .friend(let friend)?:
                if !friend.isContact { pictured.insert(friend.id) }
            case .account(let account)?:
                pictured.insert(account.id)
            case .activity(let line)?:
                named.insert(line.activity.actor)
                if let then = line.expense { named.formUnion(then.people) }
            case .series(let kept)?:
                named.formUnion(kept.template.people + [kept.series.createdBy])
            case .requests, .preferences, nil:
                break
            }
        }
        named.formUnion(pictured)
        guard !named.isEmpty else { return [] }
        let found = try await reading(AccountsError.self, Self.failure) { () async throws(AccountsError) -> [UserID: DisplayName] in
            try await names.displayNames(of: named, for: user)
        }
        var profiles: [SyncProfile] = []
        profiles.reserveCapacity(found.count)
        for (id, name) in found.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            var avatar: Avatar?
            if pictured.contains(id) {
                avatar = try await reading(AccountsError.self, Self.failure) { () async throws(AccountsError) -> Avatar in
                    try await accounts.avatar(of: id, for: user)
                }
            }
            profiles.append(SyncProfile(PublicProfile(id: id, name: name), avatar: avatar))
        }
        return profiles
    }

    /// An entity, by kind and id.
    private struct Key: Hashable {
        let kind: SyncKind
        let id: String
    }

    /// The entity as `user` sees it now; nil when they do not. (Expenses and lines of activity
    /// are read a page at a time, in ``changes(for:after:limit:)``.)
    private func value(of key: Key, for user: UserID) async throws(SyncError) -> SyncValue? {
        switch key.kind {
        case .expense, .activity:
            nil
        case .payment:
            try await reading(ExpensesError.self, Self.failure) { () async throws(ExpensesError) -> SyncValue? in
                let id = ExpenseID(rawValue: key.id)
                // One it passed through is the user's too: it moved their balances; so is one
                // in a group of theirs, in the group's ledger.
                guard let pulled = try await lines.payment(id, for: user) else { return nil }
                return .payment(SyncedPayment(pulled.payment, history: pulled.history))
            }
        case .friend:
            try await reading(FriendsError.self, Self.failure) { () async throws(FriendsError) in
                try await friends.friend(UserID(rawValue: key.id), of: user).map(SyncValue.friend)
            }
        case .requests:
            // Only the person's own requests are theirs to see.
            key.id == user.rawValue
                ? try await reading(FriendsError.self, Self.failure) { () async throws(FriendsError) in .requests(try await friends.requests(of: user)) }
                : nil
        case .group:
            try await reading(GroupsError.self, Self.failure) { () async throws(GroupsError) in
                try await groups.group(GroupID(rawValue: key.id), for: user).map(SyncValue.group)
            }
        // Only the person's own account and preferences are theirs to see.
        case .account:
            key.id == user.rawValue
                ? try await reading(AccountsError.self, Self.failure) { () async throws(AccountsError) in
                    try await accounts.users([user], for: user).first { $0.id == user }.map(SyncValue.account)
                }
                : nil
        case .preferences:
            key.id == user.rawValue
                ? try await reading(PreferencesError.self, Self.failure) { () async throws(PreferencesError) in
                    .preferences(try await preferences.preferences(of: user))
                }
                : nil
        case .series:
            try await reading(ExpensesError.self, Self.failure) { () async throws(ExpensesError) in
                try await lines.keptSeries(SeriesID(rawValue: key.id), for: user).map(SyncValue.series)
            }
        }
    }

    /// Logs, for `user`, every entity they see now: their account and preferences, their
    /// friends and contacts, their requests, their groups and what is filed under each, the
    /// expenses and payments they are in, the deleted expenses they may restore, the series they
    /// are in, and the lines of their activity.
    private func logEverything(seenBy user: UserID) async throws(SyncError) {
        // The lists are read a page at a time: something of the user's deleted or moved between
        // two pages would shift the rest, and one entity could be passed over. Each such change
        // logs a row for the user, so the lists are read again while one came meanwhile.
        var seen: [Change] = []
        for _ in 0..<3 {
            let before = try await newest(for: user)
            seen = try await everything(seenBy: user)
            if try await newest(for: user) == before { break }
        }
        do { try await log.log(seen) } catch { throw .storeUnavailable("\(error)") }
    }

    private func newest(for user: UserID) async throws(SyncError) -> LogPosition? {
        do { return try await log.newest(for: user.rawValue) } catch { throw .storeUnavailable("\(error)") }
    }

    /// Every entity `user` sees now, as rows of the log.
    private func everything(seenBy user: UserID) async throws(SyncError) -> [Change] {
        var seen: [Change] = []
        func note(_ kind: Change.Kind, _ ids: some Sequence<String>) {
            seen.append(contentsOf: ids.map { Change(kind: kind, id: $0, person: user.rawValue) })
        }
        note(.account, [user.rawValue])
        note(.preferences, [user.rawValue])
        note(.requests, [user.rawValue])
        let friendList = try await reading(FriendsError.self, Self.failure) { () async throws(FriendsError) in try await friends.friends(of: user) }
        note(.friend, friendList.map(\.id.rawValue))
        let groupList = try await reading(GroupsError.self, Self.failure) { () async throws(GroupsError) in try await groups.everyGroup(of: user) }
        note(.group, groupList.map(\.id.rawValue))
        for group in groupList {
            let ledger = try await reading(ExpensesError.self, Self.failure) { () async throws(ExpensesError) in try await lines.ledgerIDs(of: group.id) }
            note(.expense, ledger.expenses.map(\.rawValue))
            note(.payment, ledger.payments.map(\.rawValue))
        }
        let expenseIDs = try await reading(ExpensesError.self, Self.failure) { () async throws(ExpensesError) in try await lines.expenseIDs(of: user) }
        note(.expense, (expenseIDs.current + expenseIDs.deleted).map(\.rawValue))
        var page = PageRequest(limit: 1_000)
        while true {
            let found = try await reading(ExpensesError.self, Self.failure) { [page] () async throws(ExpensesError) in
                try await expenses.settlements(of: user, page: page)
            }
            note(.payment, found.map(\.id.rawValue))
            guard found.count == page.limit else { break }
            page = page.next
        }
        // Oldest first, as a replica keeps them: the order the activity shows lines of the same
        // moment in.
        let series = try await reading(ExpensesError.self, Self.failure) { () async throws(ExpensesError) in try await lines.seriesIDs(of: user) }
        note(.series, series.map(\.rawValue))
        let activity = try await reading(ExpensesError.self, Self.failure) { () async throws(ExpensesError) in try await lines.activityLines(of: user) }
        note(.activity, activity.map { Change.activityID(subject: $0.subject.rawValue, line: $0.id) })
        // A payment that passed through the user (it moved their balances, and their activity
        // tells of it) is not in their list: its subject is among their lines' (any other
        // subject is read as no payment of theirs, and comes removed).
        var listed = Set(seen.lazy.filter { $0.kind == .expense || $0.kind == .payment }.map(\.id))
        note(.payment, activity.lazy.map(\.subject.rawValue).filter { listed.insert($0).inserted })
        return seen
    }

    /// `work`'s answer; its area's failure as a pull's.
    private func reading<T, Failure: Error>(
        _: Failure.Type, _ failure: (Failure) -> SyncError, _ work: () async throws(Failure) -> T
    ) async throws(SyncError) -> T {
        do { return try await work() } catch { throw failure(error) }
    }

    private static func failure(_ error: ExpensesError) -> SyncError {
        switch error {
        case .storeUnavailable(let reason): .storeUnavailable(reason)
        case .serverUnreachable(let reason): .serverUnreachable(reason)
        case .signedOut: .signedOut
        default: .storeUnavailable(error.message)
        }
    }

    private static func failure(_ error: FriendsError) -> SyncError {
        switch error {
        case .storeUnavailable(let reason): .storeUnavailable(reason)
        case .serverUnreachable(let reason): .serverUnreachable(reason)
        case .signedOut: .signedOut
        default: .storeUnavailable(error.message)
        }
    }

    private static func failure(_ error: AccountsError) -> SyncError {
        switch error {
        case .storeUnavailable(let reason): .storeUnavailable(reason)
        case .serverUnreachable(let reason): .serverUnreachable(reason)
        case .signedOut: .signedOut
        default: .storeUnavailable(error.message)
        }
    }

    private static func failure(_ error: PreferencesError) -> SyncError {
        switch error {
        case .storeUnavailable(let reason): .storeUnavailable(reason)
        case .serverUnreachable(let reason): .serverUnreachable(reason)
        case .signedOut: .signedOut
        }
    }

    private static func failure(_ error: GroupsError) -> SyncError {
        switch error {
        case .storeUnavailable(let reason): .storeUnavailable(reason)
        case .serverUnreachable(let reason): .serverUnreachable(reason)
        case .signedOut: .signedOut
        default: .storeUnavailable(error.message)
        }
    }
}
