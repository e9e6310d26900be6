import Accounts
import AccountsRemote
import Expenses
import ExpensesRemote
import FlowsAPI
import FlowsWire
import Foundation
import FriendsRemote
import Groups
import GroupsRemote
import Preferences
import PreferencesRemote
import Primitives
import Sync

/// The writes a replica queues, as the contract operations the server takes: each written by
/// its area's own endpoint, as its Remote service sends it.
public struct RemoteQueuedOperations: QueuedOperations {
    public init() {}

    public func addExpense(_ draft: ExpenseDraft, as id: ExpenseID, key: String) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.addExpense, (draft, id), key: key)
    }

    public func editExpense(_ id: ExpenseID, to draft: ExpenseDraft, from version: Int, key: String) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.editExpense, ((id, draft), version), key: key)
    }

    public func deleteExpense(_ id: ExpenseID, from version: Int, key: String) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.deleteExpense, (id, version), key: key)
    }

    public func addComment(_ text: String, on expense: ExpenseID, as id: CommentID, key: String) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.addComment, ((expense, text), id), key: key)
    }

    public func deleteComment(_ id: CommentID, on expense: ExpenseID, key: String) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.deleteComment, (expense, id), key: key)
    }

    public func convertBalance(
        _ balance: Money, with other: UserID, at rate: ExchangeRate, source: String, day: Day, in group: GroupID?, as id: ExpenseID, key: String
    ) throws -> SyncOperation {
        let draft = ExpensesAPI.ConversionDraft(counterparty: other, balance: balance, rate: rate, source: source, day: day, group: group)
        return try SyncOperation(ExpensesAPI.convertBalance, (draft, id), key: key)
    }

    public func addContact(name: String, email: String?, as id: UserID, key: String) throws -> SyncOperation {
        try SyncOperation(FriendsAPI.addContact, ((name, email), id), key: key)
    }

    public func changeDisplayName(to name: String, key: String) throws -> SyncOperation {
        try SyncOperation(AccountsAPI.changeDisplayName, name, key: key)
    }

    public func changeAvatar(to avatar: Avatar, key: String) throws -> SyncOperation {
        try SyncOperation(AccountsAPI.changeAvatar, avatar, key: key)
    }

    public func updatePreferences(_ preferences: Preferences, key: String) throws -> SyncOperation {
        try SyncOperation(PreferencesAPI.updatePreferences, preferences, key: key)
    }

    public func restoreExpense(_ id: ExpenseID, key: String) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.restoreExpense, id, key: key)
    }

    public func undoSettlement(_ id: ExpenseID, key: String) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.undoSettlement, id, key: key)
    }

    public func settleUp(
        from: UserID, to: UserID, amount: Money, day: Day, in group: GroupID?, as id: ExpenseID, by user: UserID, key: String
    ) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.settleUp, (try ExpensesAPI.PaymentDraft(from: from, to: to, amount: amount, day: day, group: group, by: user), id), key: key)
    }

    public func dropRequest(with person: UserID, key: String) throws -> SyncOperation {
        try SyncOperation(FriendsAPI.dropFriendRequest, person, key: key)
    }

    public func block(_ person: UserID, key: String) throws -> SyncOperation {
        try SyncOperation(FriendsAPI.blockPerson, person, key: key)
    }

    public func unblock(_ person: UserID, key: String) throws -> SyncOperation {
        try SyncOperation(FriendsAPI.unblockPerson, person, key: key)
    }

    public func renameContact(_ contact: UserID, to name: String, key: String) throws -> SyncOperation {
        try SyncOperation(FriendsAPI.renameContact, (contact, name), key: key)
    }

    public func removeFriend(_ friend: UserID, key: String) throws -> SyncOperation {
        try SyncOperation(FriendsAPI.removeFriend, friend, key: key)
    }

    public func repeatExpense(
        _ id: ExpenseID, every frequency: Recurrence.Frequency, until end: Recurrence.End?, as series: SeriesID, key: String
    ) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.repeatExpense, ((id, .init(frequency: frequency, end: end)), series), key: key)
    }

    public func editSeries(_ id: SeriesID, to template: ExpenseDraft, key: String) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.editSeries, (id, template), key: key)
    }

    public func stopSeries(_ id: SeriesID, after day: Day, key: String) throws -> SyncOperation {
        try SyncOperation(ExpensesAPI.stopSeries, (id, day), key: key)
    }

    public func createGroup(_ draft: GroupDraft, as id: GroupID, key: String) throws -> SyncOperation {
        try SyncOperation(GroupsAPI.createGroup, (draft, id), key: key)
    }

    public func updateGroup(_ id: GroupID, to settings: GroupSettings, key: String) throws -> SyncOperation {
        try SyncOperation(GroupsAPI.updateGroup, (id, settings), key: key)
    }

    public func addGroupMembers(_ people: [UserID], to id: GroupID, key: String) throws -> SyncOperation {
        try SyncOperation(GroupsAPI.addGroupMembers, (id, Set(people)), key: key)
    }

    public func removeGroupMember(_ member: UserID, from id: GroupID, key: String) throws -> SyncOperation {
        try SyncOperation(GroupsAPI.removeGroupMember, (id, member), key: key)
    }

    public func setGroupArchived(_ archived: Bool, _ id: GroupID, key: String) throws -> SyncOperation {
        try SyncOperation(GroupsAPI.setGroupArchived, (id, archived), key: key)
    }

    public func edit(in operation: SyncOperation) -> (id: ExpenseID, draft: ExpenseDraft, version: Int)? {
        guard operation.operation == ExpensesAPI.editExpense.id, let version = operation.version else { return nil }
        let request = WireRequest(
            path: operation.path, query: operation.query, body: operation.body.map { Data($0) }, headers: ["If-Match": "\"\(version)\""]
        )
        guard let ((id, draft), _) = try? ExpensesAPI.editExpense.request.read(request) else { return nil }
        return (id, draft, version)
    }

    public func reason(of outcome: SyncOutcome) -> String? {
        outcome.answer.flatMap { try? WireJSON.decoder.decode(Components.Schemas.Problem.self, from: Data($0)).message }
    }
}

extension SyncOperation {
    /// `endpoint` called with `input`, as an operation to push under `key`: its request's parts
    /// as the endpoint writes them, and the version it names (`If-Match`).
    init<Input, Output, Failure>(_ endpoint: Endpoint<Input, Output, Failure>, _ input: Input, key: String) throws {
        let request = try endpoint.request.write(input)
        let version = request.headers["If-Match"].flatMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "\"W/"))) }
        self.init(
            key: key, operation: endpoint.id, path: request.path, query: request.query, body: request.body.map { [UInt8]($0) }, version: version
        )
    }
}
