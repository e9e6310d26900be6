import Accounts
import AccountsData
import AppFlow
import Expenses
import FlowKit
import FlowsWire
import FlowWeb
import FlowsServices
import Foundation
import Friends
import Groups
import HTTPTypes
import Hummingbird
import Preferences
import Primitives
import Rates
import RatesECB
import ServiceLifecycle

/// The app's flows as web pages (FlowWeb), at `/` on the server's port: every browser session
/// runs its own ``AppFlow`` on the server's services, signed in with a session of its own.
enum ServerWeb {
    /// The browser sessions of a server on `services`.
    /// Signing up and in, password checks and look-ups count against the same limits as over
    /// the API, by the address of the browser's latest request. A write through this server
    /// that moves someone's balances, or changes their friendships, requests, blocks or groups,
    /// tells their open pages (a write through another server
    /// sharing the database shows when the page next reads).
    static func sessions(_ services: ServerServices, limits: RequestLimits, configuration: WebSessions.Configuration) -> WebSessions {
        let rates = ECBRatesService()
        let sessions = WebSessions(configuration: configuration) {
            let page = WebPageSettings()
            let accounts = LimitedAccounts(base: services.sessions(InMemorySessionTokenStore()), limits: limits, page: page)
            return WebAppSession(
                settings: page,
                run: { router, page in
                    let container = WebContainer(services: services, accounts: accounts, rates: rates, page: page)
                    _ = await AppFlow(dependencies: container, router: router).perform()
                    return nil
                },
                end: { try? await accounts.signOut() }
            )
        }
        for changes in [services.balanceChanges, services.friendshipChanges, services.groupChanges] {
            changes.observe { people in
                Task { await sessions.changed(for: Set(people.map(\.rawValue))) }
            }
        }
        return sessions
    }

    /// Serves the pages, their two files and their stream of changes with `sessions`.
    static func route(_ router: Router<ServerRequestContext>, to sessions: WebSessions) {
        let handler: @Sendable (Request, ServerRequestContext) async throws -> Response = { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: 256 << 10)
            let answer = await sessions.handle(WebRequest(
                method: request.method.rawValue, path: request.uri.path, cookie: request.headers[.cookie],
                host: request.head.authority, origin: request.headers[.origin],
                contentType: request.headers[.contentType], body: Array(buffer: body), client: RequestScope.origin?.limitKey
            ))
            var headers = HTTPFields()
            for (name, value) in answer.headers {
                if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
            }
            return Response(
                status: HTTPResponse.Status(code: answer.status), headers: headers,
                body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
            )
        }
        for path in ["/", "/web/style.css", "/web/flows.js"] {
            router.get(RouterPath(path), use: handler)
            router.head(RouterPath(path), use: handler)
        }
        router.post("/", use: handler)
        router.get("/web/events", use: handler)
    }
}

/// Ends browser sessions idle too long, every minute, and every session when the server stops.
struct WebSessionSweep: Service {
    let sessions: WebSessions

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(60))
                await sessions.sweep()
            }
        }
        await sessions.endAll()
    }
}

/// What the app's flows need, for one browser session on the server's services.
struct WebContainer: AppFlow.Dependencies {
    let accounts: any AccountsService
    let expenses: any ExpensesService
    let friends: any FriendsService
    let groups: any GroupsService
    /// The areas built from the list, each also a property of its own (ServerServices+Areas.swift).
    let areas: AreaServices
    let rates: any RatesService
    let themes: any ThemeManager
    /// A browser's user names no files on the server: a picture is not taken this way.
    let files: any UserFiles = NoServerFiles()
    private let now: @Sendable () -> Date
    /// The days are the server's, in UTC, as its rounds of repeating expenses are.
    let timeZone = TimeZone(identifier: "UTC") ?? .gmt
    var today: Day { Day.today(at: now(), in: timeZone) }
    var recurring: (any RecurringExpenses)? { expenses as? any RecurringExpenses }

    init(services: ServerServices, accounts: any AccountsService, rates: any RatesService, page: WebPageSettings) {
        self.accounts = accounts
        expenses = services.expenses
        friends = services.friends
        groups = services.groups
        areas = services.areas
        self.rates = rates
        now = services.now
        themes = WebThemes(preferences: services.preferences, page: page)
    }
}

/// Gives a session's pages the theme of the user signed in there, and tells them who that is.
struct WebThemes: ThemeManager {
    let preferences: any PreferencesService
    let page: WebPageSettings

    func follow(_ user: UserID?) async {
        await page.signedIn(user?.rawValue)
        guard let user else { return await page.setTheme(nil) }
        await page.setTheme((try? await preferences.preferences(of: user))?.theme.rawValue)
    }

    func show(_ theme: Theme) async {
        await page.setTheme(theme.rawValue)
    }
}

/// Files named on a server's pages: none are read.
struct NoServerFiles: UserFiles {
    func contents(of path: String, atMost limit: Int) throws(UserFileProblem) -> [UInt8] {
        throw .unreadable(path, reason: "a picture cannot be taken from a file on the server")
    }
}

/// A browser session's accounts service, counted as the API counts: sign-up per address; sign-in
/// per address and account; the current password per account; look-ups per user and address.
/// A refusal is the domain's `tooManyAttempts`, which the forms show.
struct LimitedAccounts: AccountsService {
    let base: any AccountsService
    let limits: RequestLimits
    /// Where the session's latest request came from.
    let page: WebPageSettings

    private var address: String {
        get async { await page.client ?? "unknown" }
    }

    func signUp(email: String, displayName: String, password: String) async throws(AccountsError) -> User {
        let address = await address
        return try await counted { try await limits.signUp((email, displayName, password), from: address, with: base) }
    }

    func signIn(email: String, password: String) async throws(AccountsError) -> User {
        let address = await address
        return try await counted { try await limits.signIn((email, password), from: address, with: base) }
    }

    func changeEmail(to email: String, password: String, of user: UserID) async throws(AccountsError) -> User {
        try await counted {
            try await limits.checkingPassword(of: user) { () async throws(AccountsError) in try await base.changeEmail(to: email, password: password, of: user) }
        }
    }

    func changePassword(from current: String, to new: String, of user: UserID) async throws(AccountsError) {
        try await counted {
            try await limits.checkingPassword(of: user) { () async throws(AccountsError) in try await base.changePassword(from: current, to: new, of: user) }
        }
    }

    func profile(withFriendCode code: FriendCode, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        let address = await address
        return try await counted {
            try await limits.lookUp(by: user, from: address)
            return try await base.profile(withFriendCode: code, for: user)
        }
    }

    func profile(withEmail email: String, for user: UserID) async throws(AccountsError) -> PublicProfile? {
        let address = await address
        return try await counted {
            try await limits.lookUp(by: user, from: address)
            return try await base.profile(withEmail: email, for: user)
        }
    }

    /// `work`'s answer; a limit's refusal as the domain's `tooManyAttempts`.
    private func counted<T>(_ work: () async throws -> T) async throws(AccountsError) -> T {
        do {
            return try await work()
        } catch let error as AccountsError {
            throw error
        } catch let problem as APIProblem {
            throw .tooManyAttempts(seconds: problem.headers[.retryAfter].flatMap { Int($0) } ?? 60)
        } catch {
            throw .storeUnavailable("\(error)")
        }
    }

    func signOut() async throws(AccountsError) { try await base.signOut() }
    func storedSession() async throws(AccountsError) -> StoredSession { try await base.storedSession() }
    func existing(among people: Set<UserID>) async throws(AccountsError) -> Set<UserID> { try await base.existing(among: people) }
    func users(_ people: Set<UserID>, for user: UserID) async throws(AccountsError) -> [User] { try await base.users(people, for: user) }
    func avatar(of person: UserID, for user: UserID) async throws(AccountsError) -> Avatar { try await base.avatar(of: person, for: user) }
    func changeDisplayName(to name: String, of user: UserID) async throws(AccountsError) -> User { try await base.changeDisplayName(to: name, of: user) }
    func sendVerificationCode(to user: UserID) async throws(AccountsError) { try await base.sendVerificationCode(to: user) }
    func verifyEmail(code: String, of user: UserID) async throws(AccountsError) -> User { try await base.verifyEmail(code: code, of: user) }
    func sessions(of user: UserID) async throws(AccountsError) -> [SessionSummary] { try await base.sessions(of: user) }
    func endSession(_ id: SessionSummary.ID, of user: UserID) async throws(AccountsError) { try await base.endSession(id, of: user) }
    func endOtherSessions(of user: UserID) async throws(AccountsError) -> Int { try await base.endOtherSessions(of: user) }
    func avatar(of user: UserID) async throws(AccountsError) -> Avatar { try await base.avatar(of: user) }
    func changeAvatar(to avatar: Avatar, of user: UserID) async throws(AccountsError) { try await base.changeAvatar(to: avatar, of: user) }
}
