import Accounts
import AccountsData
import AppFlow
import Expenses
import FlowKit
import FlowWeb
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
    static func sessions(_ services: ServerServices, configuration: WebSessions.Configuration) -> WebSessions {
        let rates = ECBRatesService()
        return WebSessions(configuration: configuration) {
            let accounts = services.sessions(InMemorySessionTokenStore())
            return WebAppSession(
                run: { router, page in
                    let container = WebContainer(services: services, accounts: accounts, rates: rates, page: page)
                    _ = await AppFlow(dependencies: container, router: router).perform()
                    return nil
                },
                end: { try? await accounts.signOut() }
            )
        }
    }

    /// Serves the pages and their two files with `sessions`.
    static func route(_ router: Router<ServerRequestContext>, to sessions: WebSessions) {
        let handler: @Sendable (Request, ServerRequestContext) async throws -> Response = { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: 256 << 10)
            let answer = await sessions.handle(WebRequest(
                method: request.method.rawValue, path: request.uri.path, cookie: request.headers[.cookie],
                host: request.head.authority, origin: request.headers[.origin],
                contentType: request.headers[.contentType], body: Array(buffer: body)
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
    let preferences: any PreferencesService
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
        preferences = services.preferences
        self.rates = rates
        now = services.now
        themes = WebThemes(preferences: services.preferences, page: page)
    }
}

/// Gives a session's pages the theme of the user signed in there.
struct WebThemes: ThemeManager {
    let preferences: any PreferencesService
    let page: WebPageSettings

    func follow(_ user: UserID?) async {
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
