import FlowKit
import FlowTesting
import Foundation

/// A browser's request, as the HTTP server that carries it hands it over.
public struct WebRequest: Sendable {
    public var method: String
    public var path: String
    /// The `Cookie` header.
    public var cookie: String?
    /// The `Host` header, and the `Origin` header a browser sends with a post.
    public var host: String?
    public var origin: String?
    public var contentType: String?
    public var body: [UInt8]
    /// Whether the request came over TLS (directly, or from a proxy trusted to say so).
    public var isSecure: Bool
    /// Who the client is, as the server's per-address limits count it (``WebPageSettings/client``).
    public var client: String?

    public init(
        method: String, path: String, cookie: String? = nil, host: String? = nil, origin: String? = nil, contentType: String? = nil,
        body: [UInt8] = [], isSecure: Bool = false, client: String? = nil
    ) {
        self.client = client
        self.method = method
        self.path = path
        self.cookie = cookie
        self.host = host
        self.origin = origin
        self.contentType = contentType
        self.body = body
        self.isSecure = isSecure
    }
}

/// The answer to a ``WebRequest``.
public struct WebResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    public static func == (left: WebResponse, right: WebResponse) -> Bool {
        left.status == right.status && left.body == right.body
            && left.headers.map(\.name) == right.headers.map(\.name) && left.headers.map(\.value) == right.headers.map(\.value)
    }
}

/// What one browser session runs: the app, from its first screen, each time it starts, and what
/// to do when the session ends.
public struct WebAppSession: Sendable {
    /// What the session's pages and its app tell each other (``run`` is given it too).
    public let settings: WebPageSettings
    /// Runs the app until the user leaves it, drawing through the router. It answers nil to
    /// start again (the whole app: leaving it shows its first screen), or the words of a last
    /// page to stay on (a single flow, which has a result).
    public let run: @Sendable (AppRouter, WebPageSettings) async -> String?
    /// Called once, when the browser session ends (idle too long, or pushed out): signs out.
    public let end: @Sendable () async -> Void

    public init(
        settings: WebPageSettings = WebPageSettings(), run: @escaping @Sendable (AppRouter, WebPageSettings) async -> String?,
        end: @escaping @Sendable () async -> Void = {}
    ) {
        self.settings = settings
        self.run = run
        self.end = end
    }
}

/// What a session's app and its pages tell each other besides screens: the user's theme, who
/// is signed in, and who the browser is now.
public actor WebPageSettings {
    /// `light`, `dark`, `high-contrast` or `no-colour`; nil follows the browser's setting.
    public private(set) var theme: String?
    /// The user signed in on the session (an account's identifier), whose changes made
    /// elsewhere reach its open page (``WebSessions/changed(for:)``); nil when signed out.
    public private(set) var user: String?
    /// The client of the session's latest request (its address, as the server counts
    /// attempts by): a sign-in is counted against where it was sent from.
    public private(set) var client: String?

    public init() {}

    public func setTheme(_ theme: String?) { self.theme = theme }

    public func signedIn(_ user: String?) { self.user = user }

    func heard(from client: String?) { self.client = client }
}

/// The browser sessions of one server, each running its own app's flows, and the answers to
/// their requests.
///
/// - `GET /` draws the screen the session's flow waits on.
/// - `POST /` takes a page's form: it must carry the session's cookie, its token against forged
///   posts, and the version of the screen it shows; its fields and button become the flow's
///   events, then the browser is sent to `GET /` (so reload and back never post twice).
/// - `GET /web/events` is the page's stream of server-sent events: `change` once another
///   person's write moved the balances of the user signed in there (``changed(for:)``). Each
///   answer carries one event, or none after ``Configuration/eventWait``, and the browser's
///   `EventSource` asks again. The page's script then posts `do=:refresh`, and the screen reads
///   again (``UserEvent/refresh``).
/// - `/web/style.css` and `/web/flows.js` are the page's only other files.
///
/// A session idle for `idleLimit` ends, its flows are cancelled and its sign-in ended. An open
/// page listening for changes does not keep its session alive.
public actor WebSessions {
    public struct Configuration: Sendable {
        /// How long a session lives without a request: 30 minutes.
        public var idleLimit: Duration = .seconds(30 * 60)
        /// The most sessions kept: past it, the one idle longest ends.
        public var maximumSessions = 10_000
        /// How long a request waits for the flow to settle before the page says it is at work.
        public var settleLimit: Duration = .seconds(5)
        /// How long `GET /web/events` waits for a change before it answers with none (within
        /// the time proxies keep a quiet request open).
        public var eventWait: Duration = .seconds(25)
        /// Cookies only over TLS, even when a request does not say it came over TLS (a server
        /// behind a proxy that ends TLS).
        public var secureCookies = false

        public init() {}
    }

    public static let cookieName = "flows-session"

    private let newSession: @Sendable () -> WebAppSession
    private let configuration: Configuration
    private let now: @Sendable () -> ContinuousClock.Instant
    private var sessions: [String: WebSession] = [:]
    /// When each session's browser was last heard from, by its token: kept here, beside the
    /// sessions, so that finding the idle ones asks none of them.
    private var lastUsed: [String: ContinuousClock.Instant] = [:]
    /// Who is signed in on each session, by its token, and each user's sessions.
    private var users: [String: String] = [:]
    private var sessionsOf: [String: Set<String>] = [:]
    /// The sessions told of a change their page has not asked to show yet.
    private var unseen: Set<String> = []
    /// The event requests waiting for a change, by session, each by a number of its own.
    private var listeners: [String: [Int: CheckedContinuation<Bool, Never>]] = [:]
    private var listenerCount = 0

    public init(
        configuration: Configuration = Configuration(), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        newSession: @escaping @Sendable () -> WebAppSession
    ) {
        self.configuration = configuration
        self.now = now
        self.newSession = newSession
    }

    /// How many browser sessions are open.
    public var count: Int { sessions.count }

    /// How many event requests wait for a change, over every session.
    var waitingEvents: Int { listeners.values.reduce(0) { $0 + $1.count } }

    /// Answers a browser.
    public func handle(_ request: WebRequest) async -> WebResponse {
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"): return await show(request)
        case ("POST", "/"): return await post(request)
        case ("GET", "/web/events"): return await events(request)
        case ("GET", "/web/style.css"), ("HEAD", "/web/style.css"): return WebAssets.response(WebAssets.style, type: "text/css; charset=utf-8")
        case ("GET", "/web/flows.js"), ("HEAD", "/web/flows.js"): return WebAssets.response(WebAssets.script, type: "text/javascript; charset=utf-8")
        case (_, "/"), (_, "/web/style.css"), (_, "/web/flows.js"):
            var response = Self.message(status: 405, title: "Not here", text: "This address takes GET and POST only.")
            response.headers.append(("Allow", request.path == "/" ? "GET, HEAD, POST" : "GET, HEAD"))
            return response
        default: return Self.message(status: 404, title: "Not found", text: "There is no page at this address.")
        }
    }

    /// Ends every session idle longer than the limit; how many ended.
    @discardableResult
    public func sweep() async -> Int {
        let cutoff = now() - configuration.idleLimit
        let idle = lastUsed.filter { $0.value < cutoff }.map(\.key)
        for token in idle { await close(token) }
        return idle.count
    }

    /// Ends every session (the server stops).
    public func endAll() async {
        let all = sessions.values
        sessions = [:]
        lastUsed = [:]
        (users, sessionsOf, unseen) = ([:], [:], [])
        for token in Array(listeners.keys) { wake(token, changed: false) }
        for session in all { await session.end() }
    }

    /// Another person's write moved the balances of `people` (accounts' identifiers): the open
    /// pages of the sessions they are signed in on are told, and read again.
    public func changed(for people: Set<String>) {
        for person in people {
            for token in sessionsOf[person] ?? [] {
                unseen.insert(token)
                wake(token, changed: true)
            }
        }
    }

    // MARK: - Requests

    private func show(_ request: WebRequest) async -> WebResponse {
        var cookie: String?
        let session: WebSession
        if let known = await self.session(for: request) {
            session = known
        } else {
            session = await open()
            cookie = setCookie(session.token, secure: request.isSecure)
        }
        var response = await session.page(settleLimit: configuration.settleLimit, from: request.client)
        await note(session)
        if let cookie { response.headers.append(("Set-Cookie", cookie)) }
        return response
    }

    /// One event (`change`), or none once ``Configuration/eventWait`` has passed; a session
    /// that has ended answers 204, which stops the browser asking.
    private func events(_ request: WebRequest) async -> WebResponse {
        guard let token = Self.cookie(Self.cookieName, in: request.cookie), sessions[token] != nil, let used = lastUsed[token],
              used >= now() - configuration.idleLimit
        else { return WebResponse(status: 204, headers: [("Cache-Control", "no-store")]) }
        let changed = unseen.contains(token) ? true : await change(of: token)
        let event = changed ? "event: change\ndata: balances\n\n" : ": no change\n\n"
        return WebResponse(
            status: 200,
            headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")],
            body: Array(("retry: \(Self.eventRetry)\n" + event).utf8)
        )
    }

    /// How long, in milliseconds, a browser waits before it asks for events again.
    static let eventRetry = 1_000

    /// Waits for a change to reach session `token`: true, or false once the wait is over (or the
    /// session ended, or the request went away).
    private func change(of token: String) async -> Bool {
        listenerCount += 1
        let number = listenerCount
        let wait = configuration.eventWait
        let timer = Task { [weak self] in
            try? await Task.sleep(for: wait)
            await self?.stopListening(token, number)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                listeners[token, default: [:]][number] = continuation
            }
        } onCancel: {
            Task { await self.stopListening(token, number) }
        }
    }

    private func stopListening(_ token: String, _ number: Int) {
        listeners[token]?.removeValue(forKey: number)?.resume(returning: false)
        if listeners[token]?.isEmpty == true { listeners[token] = nil }
    }

    /// Answers every event request of session `token`.
    private func wake(_ token: String, changed: Bool) {
        for continuation in (listeners.removeValue(forKey: token) ?? [:]).values { continuation.resume(returning: changed) }
    }

    /// Keeps who is signed in on `session` (its app says, after each request).
    private func note(_ session: WebSession) async {
        let user = await session.signedIn
        let token = session.token
        guard users[token] != user else { return }
        if let before = users[token] {
            sessionsOf[before]?.remove(token)
            if sessionsOf[before]?.isEmpty == true { sessionsOf[before] = nil }
        }
        users[token] = user
        if let user { sessionsOf[user, default: []].insert(token) }
    }

    private func post(_ request: WebRequest) async -> WebResponse {
        guard Self.sameOrigin(request) else {
            return Self.message(status: 403, title: "Refused", text: "This form was sent from another site.")
        }
        guard let session = await session(for: request) else {
            return Self.message(status: 403, title: "Your session has ended", text: "Pages are kept 30 minutes without use. Open Flows again to go on.")
        }
        guard let form = WebForm(urlencoded: request.body), Self.isForm(request.contentType) else {
            return Self.message(status: 400, title: "Not a form", text: "This address takes the page's form only.")
        }
        guard let token = form.value(WebPage.Name.csrf), session.accepts(csrf: token) else {
            return Self.message(status: 403, title: "Refused", text: "This form did not come from this session's page. Open Flows again to go on.")
        }
        if form.value(WebPage.Name.action) == WebPage.Name.refresh {
            unseen.remove(session.token)
            await session.refresh(form, settleLimit: configuration.settleLimit)
        } else {
            await session.post(form, settleLimit: configuration.settleLimit, from: request.client)
        }
        await note(session)
        return WebResponse(status: 303, headers: [("Location", "/"), ("Cache-Control", "no-store")])
    }

    /// The session a request's cookie names, if it is open.
    private func session(for request: WebRequest) async -> WebSession? {
        guard let token = Self.cookie(Self.cookieName, in: request.cookie), let session = sessions[token], let used = lastUsed[token] else { return nil }
        let now = now()
        guard used >= now - configuration.idleLimit else {
            await close(token)
            return nil
        }
        lastUsed[token] = now
        return session
    }

    /// Ends the session `token` names, and forgets it.
    private func close(_ token: String) async {
        lastUsed[token] = nil
        unseen.remove(token)
        if let user = users.removeValue(forKey: token) {
            sessionsOf[user]?.remove(token)
            if sessionsOf[user]?.isEmpty == true { sessionsOf[user] = nil }
        }
        wake(token, changed: false)
        await sessions.removeValue(forKey: token)?.end()
    }

    private func open() async -> WebSession {
        if sessions.count >= configuration.maximumSessions {
            // The one idle longest makes room.
            if let oldest = lastUsed.min(by: { $0.value < $1.value })?.key { await close(oldest) }
        }
        let session = WebSession(app: newSession())
        sessions[session.token] = session
        lastUsed[session.token] = now()
        return session
    }

    private func setCookie(_ token: String, secure: Bool) -> String {
        "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Lax" + (secure || configuration.secureCookies ? "; Secure" : "")
    }

    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == name { return pair[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// A post whose `Origin` is given must come from this server's own pages.
    static func sameOrigin(_ request: WebRequest) -> Bool {
        guard let origin = request.origin else { return true }
        guard let host = request.host, let components = URLComponents(string: origin), let originHost = components.host else { return false }
        let originAuthority = components.port.map { "\(originHost):\($0)" } ?? originHost
        return originAuthority.lowercased() == host.lowercased()
    }

    static func isForm(_ contentType: String?) -> Bool {
        contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
    }

    static func message(status: Int, title: String, text: String) -> WebResponse {
        WebResponse(status: status, headers: WebAssets.pageHeaders, body: Array(WebPage.message(title: title, text: text).utf8))
    }
}

/// One browser session: its flows' host, its tokens, and the version of the screen it shows.
actor WebSession {
    /// The cookie that names the session, and the token its pages' forms carry.
    nonisolated let token: String
    private nonisolated let csrf: String
    private let app: WebAppSession
    private let settings: WebPageSettings
    private var host = ScriptedHost()
    private var task: Task<Void, Never>?
    /// Counts the screens shown: each page carries it, and a post from any other is stale.
    private var version = 1
    /// A message for the next page (the post was stale, the app started again).
    private var notice: String?
    /// The last page's words, once a run has ended for good.
    private var closing: String?
    private var ended = false

    init(app: WebAppSession) {
        token = Self.randomToken()
        csrf = Self.randomToken()
        self.app = app
        settings = app.settings
    }

    nonisolated func accepts(csrf posted: String) -> Bool {
        // Every byte compared, whatever the first difference: the time says nothing of the token.
        let (expected, given) = (Array(csrf.utf8), Array(posted.utf8))
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The page of the screen the flow waits on (the app starts, or starts again, first).
    func page(settleLimit: Duration, from client: String?) async -> WebResponse {
        await settings.heard(from: client)
        startIfNeeded()
        var settled = await host.idleScreen(within: settleLimit)
        if case .screen(nil) = settled {
            if let closing {
                return WebSessions.message(status: 200, title: "Done", text: closing)
            }
            // The user left the app: it starts again, signed in as before.
            notice = "You left Flows; here it is again."
            startAgain()
            settled = await host.idleScreen(within: settleLimit)
        }
        let theme = await settings.theme
        let stamp = WebPage.Stamp(csrf: csrf, version: version)
        let html: String
        switch settled {
        case .screen(let screen?):
            html = WebPage.html(for: screen, stamp: stamp, theme: theme, notice: notice)
            notice = nil
        case .screen(nil), .timedOut:
            // Still at work: the page says so and looks again in a second.
            let screen = await host.shown ?? Screen(id: "starting", title: "Flows", status: .busy("Starting"))
            html = WebPage.html(for: screen, stamp: stamp, theme: theme, notice: notice, refresh: 1)
        }
        return WebResponse(status: 200, headers: WebAssets.pageHeaders, body: Array(html.utf8))
    }

    /// Hands a posted form to the flow: nothing from a page of another version, and nothing the
    /// screen it reaches no longer offers.
    func post(_ form: WebForm, settleLimit: Duration, from client: String?) async {
        await settings.heard(from: client)
        startIfNeeded()
        guard form.value(WebPage.Name.version) == String(version) else {
            notice = "That page was out of date, so nothing was sent from it: this is where you are now."
            return
        }
        guard case .screen(let screen?) = await host.idleScreen(within: settleLimit) else {
            notice = "Flows was still at work on your last step: nothing was sent. Try again."
            return
        }
        version += 1
        for event in form.events(on: screen) {
            // Each event on the screen it was meant for: once the flow has moved to another,
            // the rest of the form was not about it.
            guard case .screen(let current?) = await host.idleScreen(within: settleLimit), current.id == screen.id else { break }
            guard WebForm.applies(event, to: current) else { continue }
            _ = await host.send(event)
        }
    }

    /// Tells the screen the page shows that what it shows may have changed elsewhere. The page
    /// keeps its version when the screen stays as it was, so a form being filled in meanwhile is
    /// not refused as out of date.
    func refresh(_ form: WebForm, settleLimit: Duration) async {
        guard task != nil, form.value(WebPage.Name.version) == String(version),
              case .screen(let screen?) = await host.idleScreen(within: settleLimit) else { return }
        _ = await host.send(.refresh)
        if case .screen(let now?) = await host.idleScreen(within: settleLimit), now == screen { return }
        version += 1
    }

    /// The account signed in on the session, as its app last said.
    var signedIn: String? {
        get async { await settings.user }
    }

    /// Cancels the session's flows and ends its sign-in.
    func end() async {
        guard !ended else { return }
        ended = true
        task?.cancel()
        // A flow that waits for its user is cancelled screen by screen, as Esc would.
        for _ in 0..<64 {
            guard case .screen(_?) = await host.idleScreen(within: .seconds(1)) else { break }
            _ = await host.send(.cancel)
        }
        await host.finish()
        task = nil
        await app.end()
    }

    private func startIfNeeded() {
        guard task == nil, !ended else { return }
        let (host, settings, app) = (self.host, self.settings, self.app)
        task = Task {
            let closing = await app.run(AppRouter(host: host), settings)
            self.close(with: closing)
            await host.finish()
        }
    }

    private func close(with text: String?) {
        closing = text
    }

    private func startAgain() {
        host = ScriptedHost()
        task = nil
        version += 1
        startIfNeeded()
    }

    /// 256 random bits, as URL-safe text.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
