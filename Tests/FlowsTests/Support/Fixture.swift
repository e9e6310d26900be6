import Accounts
import AccountsData
import AccountsLive
import AppFlow
import Expenses
import Friends
import FlowsServices
import Foundation
import GRDB
import LocalStore
import Preferences
import Primitives
import Synchronization

/// What every flow needs, on a private in-memory store, and a way to look into the store: the
/// app's own wiring (`LocalServices.inMemory`), so that the tests' world is the app's.
///
/// A test that needs one service to fail replaces it on a copy (`broken.expenses =
/// UnavailableExpenses()`): being every flow's dependencies, one fixture serves any flow, and a
/// service a flow starts needing is added here only.
struct Fixture: AppFlow.Dependencies {
    let tokens = InMemorySessionTokenStore()
    let database: LocalDatabase
    var accounts: any AccountsService
    var expenses: any ExpensesService
    var friends: any FriendsService
    var preferences: any PreferencesService
    let files: any UserFiles = LocalUserFiles()
    /// The day forms start on: a Sunday.
    var today: Day { Fixture.sunday }
    var timeZone: TimeZone { .gmt }
    static let sunday = (try? Day("2026-11-22")) ?? Day.today(at: Date(timeIntervalSince1970: 0), in: .gmt)
    /// Whom the flows told the ThemeManager to follow.
    let followed = FollowedThemes()
    var themes: any ThemeManager { followed }

    init() {
        let services = LocalServices.inMemory(sessionTokens: tokens)
        // inMemory always has its store; the fallback is never taken.
        database = services.database ?? LocalDatabase(.memory, migrations: LocalServices.registerMigrations)
        accounts = services.accounts
        expenses = services.expenses
        friends = services.friends
        preferences = services.preferences
    }

    /// The same world with `change` made to a copy: a service replaced.
    func with(_ change: (inout Fixture) -> Void) -> Fixture {
        var copy = self
        change(&copy)
        return copy
    }

    /// An account made before the test starts; signed out unless `signedIn`.
    @discardableResult
    func existingUser(signedIn: Bool = false) async throws -> User {
        let user = try await accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        if !signedIn { try await accounts.signOut() }
        return user
    }

    /// Ada signed in, and Bob (an account) her friend.
    func adaAndBob() async throws -> (ada: User, bob: Friend) {
        _ = try await accounts.signUp(email: "bob@example.com", displayName: "Bob Stone", password: "correct horse")
        let ada = try await existingUser(signedIn: true)
        return (ada, try await friends.add(.email("bob@example.com"), by: ada.id))
    }

    /// Rows in the users and sessions tables, to show what a path wrote.
    func rows() throws -> (users: Int, sessions: Int) {
        try database.writer().read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM user") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM session") ?? -1)
        }
    }
}

extension Fixture {
    /// What every flow needs, with the accounts' and the preferences' store unavailable (the
    /// other areas working, on a store of their own).
    static func unavailable() -> Fixture {
        Fixture().with {
            $0.accounts = UnavailableAccounts()
            $0.preferences = UnavailablePreferences()
        }
    }
}

/// An expenses service whose store is unavailable.
struct UnavailableExpenses: ExpensesService {
    private var failure: ExpensesError { .storeUnavailable("disk on fire") }
    func add(_ draft: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> Expense { throw failure }
    func edit(_ id: ExpenseID, to draft: ExpenseDraft, by user: UserID) async throws(ExpensesError) -> Expense { throw failure }
    func delete(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) { throw failure }
    func restore(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) -> Expense { throw failure }
    func deletedExpenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] { throw failure }
    func expense(_ id: ExpenseID, for user: UserID) async throws(ExpensesError) -> Expense? { throw failure }
    func settle(from: UserID, to: UserID, amount: Money, day: Day, by user: UserID) async throws(ExpensesError) -> Settlement { throw failure }
    func balances(of user: UserID) async throws(ExpensesError) -> [Balance] { throw failure }
    func suggestedPayments(for user: UserID, in currency: Currency) async throws(ExpensesError) -> [SuggestedPayment] { throw failure }
    func activity(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Activity] { throw failure }
    func spending(of user: UserID, from first: Day?, through last: Day?) async throws(ExpensesError) -> SpendingReport { throw failure }
    func expenses(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] { throw failure }
    func expenses(of user: UserID, sharedWith other: UserID, page: PageRequest) async throws(ExpensesError) -> [Expense] { throw failure }
    func recentPeople(of user: UserID) async throws(ExpensesError) -> [UserID] { throw failure }
    func settlements(of user: UserID, page: PageRequest) async throws(ExpensesError) -> [Settlement] { throw failure }
    func currencies(of user: UserID) async throws(ExpensesError) -> [Currency] { throw failure }
    func undoSettlement(_ id: ExpenseID, by user: UserID) async throws(ExpensesError) { throw failure }
}

/// A preferences service whose store is unavailable.
struct UnavailablePreferences: PreferencesService {
    func preferences(of user: UserID) async throws(PreferencesError) -> Preferences { throw .storeUnavailable("disk on fire") }
    func update(_ preferences: Preferences, of user: UserID) async throws(PreferencesError) { throw .storeUnavailable("disk on fire") }
    func changes(of user: UserID) -> AsyncStream<Preferences> { AsyncStream { $0.finish() } }
}

/// A ThemeManager that remembers whom it was told to follow, in order.
final class FollowedThemes: ThemeManager {
    private let followed = Mutex<[UserID?]>([])

    private let shownThemes = Mutex<[Theme]>([])

    func follow(_ user: UserID?) async { followed.withLock { $0.append(user) } }
    func show(_ theme: Theme) async { shownThemes.withLock { $0.append(theme) } }

    var users: [UserID?] { followed.withLock { $0 } }
    /// The themes flows asked to show at once, in order.
    var shown: [Theme] { shownThemes.withLock { $0 } }
}

/// An accounts service whose store is unavailable.
struct UnavailableAccounts: AccountsService {
    func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User { throw .storeUnavailable("disk on fire") }
    func signIn(email: String, password: String) async throws(AccountsError) -> User { throw .storeUnavailable("disk on fire") }
    func signOut() async throws(AccountsError) { throw .storeUnavailable("disk on fire") }
    func storedSession() async throws(AccountsError) -> StoredSession { throw .storeUnavailable("disk on fire") }
    func existing(among people: Set<UserID>) async throws(AccountsError) -> Set<UserID> { throw .storeUnavailable("disk on fire") }
    func users(_ people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [User] { throw .storeUnavailable("disk on fire") }
    func user(withFriendCode code: FriendCode, for user: UserID) async throws(AccountsError) -> User? { throw .storeUnavailable("disk on fire") }
    func user(withEmail email: String, for user: UserID) async throws(AccountsError) -> User? { throw .storeUnavailable("disk on fire") }
    func changeDisplayName(to name: String, of user: UserID) async throws(AccountsError) -> User { throw .storeUnavailable("disk on fire") }
    func changeEmail(to email: String, password: String, of user: UserID) async throws(AccountsError) -> User { throw .storeUnavailable("disk on fire") }
    func changePassword(from current: String, to new: String, of user: UserID) async throws(AccountsError) { throw .storeUnavailable("disk on fire") }
    func avatar(of person: UserID, for user: UserID) async throws(AccountsError) -> Avatar { throw .storeUnavailable("disk on fire") }
    func avatar(of user: UserID) async throws(AccountsError) -> Avatar { throw .storeUnavailable("disk on fire") }
    func changeAvatar(to avatar: Avatar, of user: UserID) async throws(AccountsError) { throw .storeUnavailable("disk on fire") }
}
