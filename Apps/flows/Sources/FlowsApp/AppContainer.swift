import AppFlow
import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsRemote
import Expenses
import ExpensesRemote
import FlowsAPIClient
import FlowsServices
import Foundation
import Friends
import FriendsRemote
import Groups
import GroupsRemote
import LocalStore
import Preferences
import PreferencesRemote
import Primitives
import Rates
import RatesECB
import Sync
import SyncRemote

/// The composition root: the one place (with the tests) that knows which implementation serves
/// each abstraction.
///
/// It gives every flow what the flow declares it needs: `AppFlow.Dependencies` is composed of
/// every flow's needs, so a service a flow starts needing is added here and in that flow only.
public struct AppContainer: AppFlow.Dependencies {
    public let accounts: any AccountsService
    public let expenses: any ExpensesService
    public let friends: any FriendsService
    public let groups: any GroupsService
    public let preferences: any PreferencesService
    /// The ECB's reference rates: those shipped, or a newer table kept with the store.
    public let rates: any RatesService
    /// Series of repeating expenses: the embedded store's service, or the server's through the contract.
    public var recurring: (any RecurringExpenses)? { expenses as? any RecurringExpenses }
    /// Colours the screens with the signed-in user's theme once the launcher attaches a renderer.
    public let terminalThemes: TerminalThemeManager
    public var themes: any ThemeManager { terminalThemes }
    /// Files the user names at a prompt (an avatar picture).
    public let files: any UserFiles = LocalUserFiles()
    /// The recount of the whole ledger (`flows verify`), when the container has one.
    public let verifier: (any LedgerVerifier)?
    /// The server's pull and push, when the container is a server's (docs/sync.md).
    public private(set) var sync: (any SyncService)?
    /// Where the replicas of this server's users are kept (one store each), when the container
    /// is a server's on this machine's folder.
    public private(set) var replicas: StoreLocation?
    /// The store under the services, when the container was built on the embedded one.
    public private(set) var database: LocalDatabase?
    /// The services on the embedded store, when the container was built on them.
    private var local: LocalServices?
    /// The clock and the time zone that say what day it is for the user.
    private let now: @Sendable () -> Date
    /// The time zone given; nil for this machine's, read when first needed (reading it costs
    /// 0.7 ms, a tenth of a start, and most first screens show no day).
    private let givenTimeZone: TimeZone?
    /// The user's time zone: what day it is, and the day a change is shown on.
    public var timeZone: TimeZone { givenTimeZone ?? .current }
    public var today: Day { Day.today(at: now(), in: timeZone) }

    public init(
        accounts: any AccountsService, expenses: any ExpensesService, friends: any FriendsService, groups: any GroupsService,
        preferences: any PreferencesService, rates: any RatesService = ECBRatesService(), now: @escaping @Sendable () -> Date = Date.init,
        timeZone: TimeZone? = nil, verifier: (any LedgerVerifier)? = nil
    ) {
        self.rates = rates
        self.groups = groups
        self.verifier = verifier
        self.now = now
        givenTimeZone = timeZone
        self.accounts = accounts
        self.expenses = expenses
        self.friends = friends
        self.preferences = preferences
        terminalThemes = TerminalThemeManager(preferences: preferences)
    }

    /// The app on the embedded store in `location`, opened on first use.
    public static func live(location: StoreLocation) -> AppContainer {
        AppContainer(LocalServices.open(location), rates: ECBRatesService(directory: location.directory))
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

    /// The app on the flows-server at `server`: every service over HTTP, for the user signed
    /// in there. The session's token is kept in a private file of its own per server, beside
    /// the embedded store in `location` (which is not opened).
    public static func remote(server: URL, location: StoreLocation) -> AppContainer {
        let servers = StoreLocation(directory: location.directory.appendingPathComponent("servers"))
        let sessions = StoreLocation(directory: servers.directory.appendingPathComponent(serverFolder(server)))
        let tokens = FileSessionTokenStore(location: sessions)
        // Private folders, each; one that cannot be made is reported when a session is kept.
        try? servers.prepare()
        try? sessions.prepare()
        var container = remote(server: server, tokens: tokens, rates: ECBRatesService(directory: location.directory))
        container.replicas = StoreLocation(directory: sessions.directory.appendingPathComponent("replicas"))
        return container
    }

    /// The replica of `user`'s view of this container's server, in its own store (opened on
    /// first use); nil for a container that is not a server's on this machine.
    public func replica(of user: UserID) throws -> LocalReplica? {
        guard let replicas else { return nil }
        try replicas.prepare()
        return LocalReplica.open(.file(replicas.directory.appendingPathComponent("\(Self.fileName(user.rawValue)).sqlite")), now: now)
    }

    /// A user id as a file's name: the characters any file system takes.
    static func fileName(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    /// The app on the flows-server at `server`, keeping the session's token in `tokens`.
    public static func remote(
        server: URL, tokens: any SessionTokenStore, rates: any RatesService = ECBRatesService(), now: @escaping @Sendable () -> Date = Date.init,
        timeZone: TimeZone? = nil
    ) -> AppContainer {
        let connection = APIConnection(server: server, token: { try? tokens.load() }, userAgent: "flows/\(FlowsCLI.version) (command line)")
        var container = AppContainer(
            accounts: RemoteAccountsService(connection: connection, tokens: tokens),
            expenses: RemoteExpensesService(connection: connection),
            friends: RemoteFriendsService(connection: connection),
            groups: RemoteGroupsService(connection: connection),
            preferences: RemotePreferencesService(connection: connection),
            rates: rates,
            now: now,
            timeZone: timeZone
        )
        container.sync = RemoteSyncService(connection: connection)
        return container
    }

    /// A folder name for a server: its host and port, in characters any file system takes.
    static func serverFolder(_ server: URL) -> String {
        let name = "\(server.host ?? "server")-\(server.port ?? (server.scheme == "https" ? 443 : 80))"
        return String(name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
    }

    private init(
        _ services: LocalServices, rates: any RatesService = ECBRatesService(), now: @escaping @Sendable () -> Date = Date.init, timeZone: TimeZone? = nil
    ) {
        self.init(
            accounts: services.accounts, expenses: services.expenses, friends: services.friends, groups: services.groups,
            preferences: services.preferences, rates: rates, now: now, timeZone: timeZone, verifier: services.verifier
        )
        database = services.database
        local = services
    }

    /// Where an in-memory container is (``LocalServices/snapshot()``); nil for any other.
    public func snapshot() throws -> LocalServices.Snapshot? {
        try local?.snapshot()
    }

    /// Puts a fresh in-memory container where `snapshot` was taken (``LocalServices/restore(_:)``).
    public func restore(_ snapshot: LocalServices.Snapshot) throws {
        try local?.restore(snapshot)
    }
}
