import AppFlow
import Accounts
import AccountsData
import Expenses
import FlowsServices
import Foundation
import Friends
import LocalStore
import Preferences
import Primitives

/// The composition root: the one place (with the tests) that knows which implementation serves
/// each abstraction.
///
/// It gives every flow what the flow declares it needs: `AppFlow.Dependencies` is composed of
/// every flow's needs, so a service a flow starts needing is added here and in that flow only.
public struct AppContainer: AppFlow.Dependencies {
    public let accounts: any AccountsService
    public let expenses: any ExpensesService
    public let friends: any FriendsService
    public let preferences: any PreferencesService
    /// Colours the screens with the signed-in user's theme once the launcher attaches a renderer.
    public let terminalThemes: TerminalThemeManager
    public var themes: any ThemeManager { terminalThemes }
    /// Files the user names at a prompt (an avatar picture).
    public let files: any UserFiles = LocalUserFiles()
    /// The recount of the whole ledger (`flows verify`), when the container has one.
    public let verifier: (any LedgerVerifier)?
    /// The store under the services, when the container was built on the embedded one.
    public private(set) var database: LocalDatabase?
    /// The clock and the time zone that say what day it is for the user.
    private let now: @Sendable () -> Date
    /// The user's time zone: what day it is, and the day a change is shown on.
    public let timeZone: TimeZone
    public var today: Day { Day.today(at: now(), in: timeZone) }

    public init(
        accounts: any AccountsService, expenses: any ExpensesService, friends: any FriendsService, preferences: any PreferencesService,
        now: @escaping @Sendable () -> Date = Date.init, timeZone: TimeZone = .current, verifier: (any LedgerVerifier)? = nil
    ) {
        self.verifier = verifier
        self.now = now
        self.timeZone = timeZone
        self.accounts = accounts
        self.expenses = expenses
        self.friends = friends
        self.preferences = preferences
        terminalThemes = TerminalThemeManager(preferences: preferences)
    }

    /// The app on the embedded store in `location`, opened on first use.
    public static func live(location: StoreLocation) -> AppContainer {
        AppContainer(LocalServices.open(location))
    }

    /// The app on a private in-memory store of the same implementation, with seeded randomness
    /// and a fixed clock (in UTC), so that every run is identical. bcrypt runs at its lowest cost.
    public static func inMemory(
        seed: UInt64 = 1,
        now: Date = Date(timeIntervalSince1970: 1_800_000_000),
        sessionTokens: any SessionTokenStore = InMemorySessionTokenStore()
    ) -> AppContainer {
        AppContainer(LocalServices.inMemory(seed: seed, now: now, sessionTokens: sessionTokens), now: { now }, timeZone: .gmt)
    }

    private init(_ services: LocalServices, now: @escaping @Sendable () -> Date = Date.init, timeZone: TimeZone = .current) {
        self.init(
            accounts: services.accounts, expenses: services.expenses, friends: services.friends, preferences: services.preferences,
            now: now, timeZone: timeZone, verifier: services.verifier
        )
        database = services.database
    }
}
