import Accounts
import AccountsData
import AccountsLive
import AppFlow
import Expenses
import Friends
import FlowsServices
import Foundation
import GRDB
import Groups
import LocalStore
import Preferences
import Primitives
import Rates
import RatesECB
import Sync
import Synchronization

/// What every flow needs, on a private in-memory store, and a way to look into the store: the
/// app's own wiring (`LocalServices.inMemory`), so that the tests' world is the app's.
///
/// A test that needs a service to answer its own way replaces it on a copy: `fixture.with {
/// $0.expenses = FakeExpenses.down }`, or a fake that gives only the answers the test needs
/// (Fakes.swift). Being every flow's dependencies, one fixture serves any flow, and a service a
/// flow starts needing is added here only.
struct Fixture: AppFlow.Dependencies {
    let tokens = InMemorySessionTokenStore()
    let database: LocalDatabase
    var accounts: any AccountsService
    var expenses: any ExpensesService
    var friends: any FriendsService
    var groups: any GroupsService
    /// The areas built from the list, each also a property of its own (Fixture+Areas.swift).
    var areas: AreaServices
    var rates: any RatesService = ECBRatesService()
    var recurring: (any RecurringExpenses)? { expenses as? any RecurringExpenses }
    let files: any UserFiles = LocalUserFiles()
    /// The day forms start on: a Sunday.
    var today: Day { Fixture.sunday }
    var timeZone: TimeZone { .gmt }
    static let sunday = (try? Day("2026-11-22")) ?? Day.today(at: Date(timeIntervalSince1970: 0), in: .gmt)
    /// Whom the flows told the ThemeManager to follow.
    let followed = FollowedThemes()
    var themes: any ThemeManager { followed }
    /// A server's replica and the writes made on it; none (the embedded store) unless a test gives one.
    var replicaChanges: (any ReplicaChanges)?

    init() {
        let services = LocalServices.inMemory(sessionTokens: tokens)
        // inMemory always has its store; the fallback is never taken.
        database = services.database ?? LocalDatabase(.memory, migrations: LocalServices.registerMigrations)
        accounts = services.accounts
        expenses = services.expenses
        friends = services.friends
        groups = services.groups
        areas = services.areas
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
        return (ada, try await friends.befriend(.email("bob@example.com"), by: ada.id))
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
            $0.accounts = FakeAccounts.down
            $0.preferences = FakePreferences.down
        }
    }
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
