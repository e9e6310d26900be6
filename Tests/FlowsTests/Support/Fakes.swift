import Accounts
import Expenses
import Foundation
import Groups
import Preferences
import Primitives
import Testing

// Fakes of the services, for a test that needs answers of its own: each operation is a closure
// the test may give, and an operation it did not give fails loudly (it records an issue and
// throws). `down` stands for a store that cannot be reached: every operation throws, quietly.
// A new operation in a service adds one closure and one method here, and nothing to a test.

/// What a fake does for an operation the test did not give.
protocol Fake: Sendable {
    associatedtype Failure: Error
    /// Given the operation's name: records an issue and throws, or (for `down`) only throws.
    var otherwise: @Sendable (String) throws(Failure) -> Never { get }
}

extension Fake {
    /// The operation named `operation`, as `otherwise` answers it.
    func missing<each Argument, Value>(_ operation: String) -> @Sendable (repeat each Argument) async throws(Failure) -> Value {
        let otherwise = self.otherwise
        return { (_: repeat each Argument) async throws(Failure) -> Value in try otherwise(operation) }
    }

    /// Records that a test called an operation its fake does not give.
    static func unexpected(_ operation: String) {
        Issue.record("\(operation) was called, but this test's \(Self.self) does not give it")
    }
}

struct FakeAccounts: AccountsService, Fake {
    var signUp: (@Sendable (String, String, String) async throws(AccountsError) -> User)?
    var signIn: (@Sendable (String, String) async throws(AccountsError) -> User)?
    var signOut: (@Sendable () async throws(AccountsError) -> Void)?
    var storedSession: (@Sendable () async throws(AccountsError) -> StoredSession)?
    var existing: (@Sendable (Set<UserID>) async throws(AccountsError) -> Set<UserID>)?
    var users: (@Sendable (Set<UserID>, UserID) async throws(AccountsError) -> [User])?
    var profileWithFriendCode: (@Sendable (FriendCode, UserID) async throws(AccountsError) -> PublicProfile?)?
    var profileWithEmail: (@Sendable (String, UserID) async throws(AccountsError) -> PublicProfile?)?
    var avatarFor: (@Sendable (UserID, UserID) async throws(AccountsError) -> Avatar)?
    var changeDisplayName: (@Sendable (String, UserID) async throws(AccountsError) -> User)?
    var changeEmail: (@Sendable (String, String, UserID) async throws(AccountsError) -> User)?
    var changePassword: (@Sendable (String, String, UserID) async throws(AccountsError) -> Void)?
    var avatar: (@Sendable (UserID) async throws(AccountsError) -> Avatar)?
    var changeAvatar: (@Sendable (Avatar, UserID) async throws(AccountsError) -> Void)?
    var sessions: (@Sendable (UserID) async throws(AccountsError) -> [SessionSummary])?
    var endSession: (@Sendable (SessionSummary.ID, UserID) async throws(AccountsError) -> Void)?
    var endOtherSessions: (@Sendable (UserID) async throws(AccountsError) -> Int)?
    var sendVerificationCode: (@Sendable (UserID) async throws(AccountsError) -> Void)?
    var verifyEmail: (@Sendable (String, UserID) async throws(AccountsError) -> User)?
    var otherwise: @Sendable (String) throws(AccountsError) -> Never = { operation throws(AccountsError) in
        unexpected(operation)
        throw .storeUnavailable("\(operation) is not part of this fake")
    }

    /// Accounts whose store is unavailable.
    static let down = FakeAccounts(otherwise: { _ throws(AccountsError) in throw .storeUnavailable("disk on fire") })

    func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User {
        try await (signUp ?? missing("signUp"))(email, displayName, password)
    }
    func signIn(email: String, password: String) async throws(AccountsError) -> User { try await (signIn ?? missing("signIn"))(email, password) }
    func signOut() async throws(AccountsError) { try await (signOut ?? missing("signOut"))() }
    func storedSession() async throws(AccountsError) -> StoredSession { try await (storedSession ?? missing("storedSession"))() }
    func existing(among people: Set<UserID>) async throws(AccountsError) -> Set<UserID> { try await (existing ?? missing("existing"))(people) }
    func users(_ people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [User] { try await (users ?? missing("users"))(people, user) }
    func profile(withFriendCode code: FriendCode, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        try await (profileWithFriendCode ?? missing("profile(withFriendCode:)"))(code, user)
    }
    func profile(withEmail email: String, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        try await (profileWithEmail ?? missing("profile(withEmail:)"))(email, user)
    }
    func avatar(of person: UserID, for user: UserID) async throws(AccountsError) -> Avatar { try await (avatarFor ?? missing("avatar(of:for:)"))(person, user) }
    func changeDisplayName(to name: String, of user: UserID) async throws(AccountsError) -> User {
        try await (changeDisplayName ?? missing("changeDisplayName"))(name, user)
    }
    func changeEmail(to email: String, password: String, of user: UserID) async throws(AccountsError) -> User {
        try await (changeEmail ?? missing("changeEmail"))(email, password, user)
    }
    func changePassword(from current: String, to new: String, of user: UserID) async throws(AccountsError) {
        try await (changePassword ?? missing("changePassword"))(current, new, user)
    }
    func avatar(of user: UserID) async throws(AccountsError) -> Avatar { try await (avatar ?? missing("avatar(of:)"))(user) }
    func changeAvatar(to avatar: Avatar, of user: UserID) async throws(AccountsError) { try await (changeAvatar ?? missing("changeAvatar"))(avatar, user) }
    func sessions(of user: UserID) async throws(AccountsError) -> [SessionSummary] { try await (sessions ?? missing("sessions"))(user) }
    func endSession(_ id: SessionSummary.ID, of user: UserID) async throws(AccountsError) { try await (endSession ?? missing("endSession"))(id, user) }
    func endOtherSessions(of user: UserID) async throws(AccountsError) -> Int { try await (endOtherSessions ?? missing("endOtherSessions"))(user) }
    func sendVerificationCode(to user: UserID) async throws(AccountsError) {
        try await (sendVerificationCode ?? missing("sendVerificationCode"))(user)
    }
    func verifyEmail(code: String, of user: UserID) async throws(AccountsError) -> User {
        try await (verifyEmail ?? missing("verifyEmail"))(code, user)
    }
}

struct FakeExpenses: ExpensesService, Fake {
    var add: (@Sendable (ExpenseDraft, UserID) async throws(ExpensesError) -> Expense)?
    var edit: (@Sendable (ExpenseID, ExpenseDraft, Int, UserID) async throws(ExpensesError) -> Expense)?
    var delete: (@Sendable (ExpenseID, Int, UserID) async throws(ExpensesError) -> Void)?
    var restore: (@Sendable (ExpenseID, UserID) async throws(ExpensesError) -> Expense)?
    var history: (@Sendable (ExpenseID, UserID) async throws(ExpensesError) -> [ExpenseChange])?
    var deletedExpenses: (@Sendable (UserID, PageRequest) async throws(ExpensesError) -> [Expense])?
    var expense: (@Sendable (ExpenseID, UserID) async throws(ExpensesError) -> Expense?)?
    var settle: (@Sendable (UserID, UserID, Money, Day, UserID) async throws(ExpensesError) -> Settlement)?
    var convert: (@Sendable (Money, UserID, ExchangeRate, String, Day, GroupID?, UserID) async throws(ExpensesError) -> Settlement)?
    var balances: (@Sendable (UserID) async throws(ExpensesError) -> [Balance])?
    var comments: (@Sendable (ExpenseID, UserID) async throws(ExpensesError) -> [ExpenseComment])?
    var comment: (@Sendable (String, ExpenseID, UserID) async throws(ExpensesError) -> ExpenseComment)?
    var deleteComment: (@Sendable (CommentID, ExpenseID, UserID) async throws(ExpensesError) -> Void)?
    var suggestedPayments: (@Sendable (UserID, Currency) async throws(ExpensesError) -> [SuggestedPayment])?
    var activity: (@Sendable (UserID, PageRequest) async throws(ExpensesError) -> [Activity])?
    var spending: (@Sendable (UserID, Day?, Day?) async throws(ExpensesError) -> SpendingReport)?
    var expenses: (@Sendable (UserID, PageRequest) async throws(ExpensesError) -> [Expense])?
    var expensesShared: (@Sendable (UserID, UserID, PageRequest) async throws(ExpensesError) -> [Expense])?
    var recentPeople: (@Sendable (UserID) async throws(ExpensesError) -> [UserID])?
    var settlements: (@Sendable (UserID, PageRequest) async throws(ExpensesError) -> [Settlement])?
    var settlement: (@Sendable (ExpenseID, UserID) async throws(ExpensesError) -> Settlement?)?
    var currencies: (@Sendable (UserID) async throws(ExpensesError) -> [Currency])?
    var undoSettlement: (@Sendable (ExpenseID, UserID) async throws(ExpensesError) -> Void)?
    var paymentHistory: (@Sendable (ExpenseID, UserID) async throws(ExpensesError) -> [PaymentChange])?
    /// A payment within a group (``settle`` answers the ones outside any).
    var settleInGroup: (@Sendable (UserID, UserID, Money, Day, GroupID, UserID) async throws(ExpensesError) -> Settlement)?
    var debts: (@Sendable (GroupID, UserID) async throws(ExpensesError) -> [Debt])?
    var groupSuggestedPayments: (@Sendable (GroupID, Currency, UserID) async throws(ExpensesError) -> [SuggestedPayment])?
    var groupBalances: (@Sendable (UserID) async throws(ExpensesError) -> [GroupBalance])?
    var groupExpenses: (@Sendable (GroupID, UserID, PageRequest) async throws(ExpensesError) -> [Expense])?
    var groupSettlements: (@Sendable (GroupID, UserID, PageRequest) async throws(ExpensesError) -> [Settlement])?
    var groupTotals: (@Sendable (GroupID, UserID) async throws(ExpensesError) -> GroupTotals)?
    var importEntries: (@Sendable ([ImportedEntry], UserID) async throws(ExpensesError) -> Set<String>)?
    var importedKeys: (@Sendable ([String], UserID) async throws(ExpensesError) -> Set<String>)?
    var otherwise: @Sendable (String) throws(ExpensesError) -> Never = { operation throws(ExpensesError) in
        unexpected(operation)
        throw .storeUnavailable("\(operation) is not part of this fake")
    }

    /// Expenses whose store is unavailable.
    static let down = FakeExpenses(otherwise: { _ throws(ExpensesError) in throw .storeUnavailable("disk on fire") })

    func add(_ draft: ExpenseDraft, as id: ExpenseID?, by user: UserID) async throws(ExpensesError) -> Expense { try await (add ?? missing("add"))(draft, user) }
    func edit(_ id: ExpenseID, to draft: ExpenseDraft, from version: Int, by user: UserID) async throws(ExpensesError) -> Expense {
        try await (edit ?? missing("edit"))(id, draft, version, user)
    }
    func delete(_ id: ExpenseID, from version: Int, by user: UserID) async throws(ExpensesError) {
        try await (delete ?? missing("delete"))(id, version, user)
    }
    func restore(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) -> Expense { try await (restore ?? missing("restore"))(id, user) }
    func history(of id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [ExpenseChange] { try await (history ?? missing("history"))(id, user) }
    func deletedExpenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        try await (deletedExpenses ?? missing("deletedExpenses"))(user, page)
    }
    func expense(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Expense? { try await (expense ?? missing("expense"))(id, user) }
    func settle(from: UserID, to: UserID, amount: Money, day: Day, in group: GroupID?, as id: ExpenseID?, by user: UserID) async throws(ExpensesError)
        -> Settlement
    {
        guard let group else { return try await (settle ?? missing("settle"))(from, to, amount, day, user) }
        return try await (settleInGroup ?? missing("settle(in:)"))(from, to, amount, day, group, user)
    }
    func convert(
        _ balance: Money, with other: UserID, at rate: ExchangeRate, source: String, day: Day, in group: GroupID?, as id: ExpenseID?, by user: UserID
    ) async throws(ExpensesError) -> Settlement {
        try await (convert ?? missing("convert"))(balance, other, rate, source, day, group, user)
    }
    func balances(of user: UserID) async throws(ExpensesError) -> [Balance] { try await (balances ?? missing("balances"))(user) }
    func comments(on id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [ExpenseComment] {
        try await (comments ?? missing("comments"))(id, user)
    }
    func comment(_ text: String, on id: ExpenseID, as comment: CommentID?, by user: UserID) async throws(ExpensesError) -> ExpenseComment {
        try await (self.comment ?? missing("comment"))(text, id, user)
    }
    func deleteComment(_ comment: CommentID, on id: ExpenseID, by user: UserID) async throws(ExpensesError) {
        try await (deleteComment ?? missing("deleteComment"))(comment, id, user)
    }
    func suggestedPayments(for user: UserID, in currency: Currency) async throws(ExpensesError) -> [SuggestedPayment] {
        try await (suggestedPayments ?? missing("suggestedPayments"))(user, currency)
    }
    func activity(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Activity] { try await (activity ?? missing("activity"))(user, page) }
    func spending(of user: UserID, from first: Day?, through last: Day?) async throws(ExpensesError) -> SpendingReport {
        try await (spending ?? missing("spending"))(user, first, last)
    }
    func expenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] { try await (expenses ?? missing("expenses"))(user, page) }
    func expenses(of user: UserID, sharedWith other: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        try await (expensesShared ?? missing("expenses(of:sharedWith:)"))(user, other, page)
    }
    func recentPeople(of user: UserID) async throws(ExpensesError) -> [UserID] { try await (recentPeople ?? missing("recentPeople"))(user) }
    func settlements(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement] {
        try await (settlements ?? missing("settlements"))(user, page)
    }
    func settlement(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Settlement? {
        try await (settlement ?? missing("settlement"))(id, user)
    }
    func currencies(of user: UserID) async throws(ExpensesError) -> [Currency] { try await (currencies ?? missing("currencies"))(user) }
    func undoSettlement(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) { try await (undoSettlement ?? missing("undoSettlement"))(id, user) }
    func paymentHistory(of id: ExpenseID, for user: UserID) async throws(ExpensesError) -> [PaymentChange] {
        try await (paymentHistory ?? missing("paymentHistory"))(id, user)
    }
    func debts(in group: GroupID, for user: UserID) async throws(ExpensesError) -> [Debt] { try await (debts ?? missing("debts"))(group, user) }
    func suggestedPayments(in group: GroupID, currency: Currency, for user: UserID) async throws(ExpensesError) -> [SuggestedPayment] {
        try await (groupSuggestedPayments ?? missing("suggestedPayments(in:)"))(group, currency, user)
    }
    func groupBalances(of user: UserID) async throws(ExpensesError) -> [GroupBalance] { try await (groupBalances ?? missing("groupBalances"))(user) }
    func expenses(in group: GroupID, for user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] {
        try await (groupExpenses ?? missing("expenses(in:)"))(group, user, page)
    }
    func settlements(in group: GroupID, for user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement] {
        try await (groupSettlements ?? missing("settlements(in:)"))(group, user, page)
    }
    func totals(in group: GroupID, for user: UserID) async throws(ExpensesError) -> GroupTotals {
        try await (groupTotals ?? missing("totals(in:)"))(group, user)
    }
    func importEntries(_ entries: [ImportedEntry], by user: UserID, progress: ImportProgress?) async throws(ExpensesError) -> Set<String> {
        try await (importEntries ?? missing("importEntries"))(entries, user)
    }
    func importedKeys(among keys: [String], by user: UserID) async throws(ExpensesError) -> Set<String> {
        try await (importedKeys ?? missing("importedKeys"))(keys, user)
    }
}

struct FakePreferences: PreferencesService, Fake {
    var preferences: (@Sendable (UserID) async throws(PreferencesError) -> Preferences)?
    var update: (@Sendable (Preferences, UserID) async throws(PreferencesError) -> Void)?
    /// The changes announced; none (a stream that ends at once) unless given.
    var changes: (@Sendable (UserID) -> AsyncStream<Preferences>)?
    var otherwise: @Sendable (String) throws(PreferencesError) -> Never = { operation throws(PreferencesError) in
        unexpected(operation)
        throw .storeUnavailable("\(operation) is not part of this fake")
    }

    /// Preferences whose store is unavailable.
    static let down = FakePreferences(otherwise: { _ throws(PreferencesError) in throw .storeUnavailable("disk on fire") })

    func preferences(of user: UserID) async throws(PreferencesError) -> Preferences { try await (preferences ?? missing("preferences"))(user) }
    func update(_ preferences: Preferences, of user: UserID) async throws(PreferencesError) { try await (update ?? missing("update"))(preferences, user) }
    func changes(of user: UserID) -> AsyncStream<Preferences> { changes?(user) ?? AsyncStream { $0.finish() } }
}

struct FakeGroups: GroupsService, Fake {
    var create: (@Sendable (GroupDraft, UserID) async throws(GroupsError) -> Group)?
    var groups: (@Sendable (UserID, Bool) async throws(GroupsError) -> [Group])?
    var group: (@Sendable (GroupID, UserID) async throws(GroupsError) -> Group?)?
    var update: (@Sendable (GroupID, GroupSettings, UserID) async throws(GroupsError) -> Group)?
    var addMembers: (@Sendable ([UserID], GroupID, UserID) async throws(GroupsError) -> Group)?
    var removeMember: (@Sendable (UserID, GroupID, UserID) async throws(GroupsError) -> Group)?
    var leave: (@Sendable (GroupID, UserID) async throws(GroupsError) -> Void)?
    var setArchived: (@Sendable (Bool, GroupID, UserID) async throws(GroupsError) -> Group)?
    var otherwise: @Sendable (String) throws(GroupsError) -> Never = { operation throws(GroupsError) in
        unexpected(operation)
        throw .storeUnavailable("\(operation) is not part of this fake")
    }

    /// Groups whose store is unavailable.
    static let down = FakeGroups(otherwise: { _ throws(GroupsError) in throw .storeUnavailable("disk on fire") })

    func create(_ draft: GroupDraft, as id: GroupID?, by user: UserID) async throws(GroupsError) -> Group { try await (create ?? missing("create"))(draft, user) }
    func groups(of user: UserID, archived: Bool) async throws(GroupsError) -> [Group] { try await (groups ?? missing("groups"))(user, archived) }
    func group(_ id: GroupID, for user: UserID) async throws(GroupsError) -> Group? { try await (group ?? missing("group"))(id, user) }
    func update(_ id: GroupID, to settings: GroupSettings, by user: UserID) async throws(GroupsError) -> Group {
        try await (update ?? missing("update"))(id, settings, user)
    }
    func addMembers(_ people: [UserID], to id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        try await (addMembers ?? missing("addMembers"))(people, id, user)
    }
    func removeMember(_ member: UserID, from id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        try await (removeMember ?? missing("removeMember"))(member, id, user)
    }
    func leave(_ id: GroupID, by user: UserID) async throws(GroupsError) { try await (leave ?? missing("leave"))(id, user) }
    func setArchived(_ archived: Bool, _ id: GroupID, by user: UserID) async throws(GroupsError) -> Group {
        try await (setArchived ?? missing("setArchived"))(archived, id, user)
    }
}
