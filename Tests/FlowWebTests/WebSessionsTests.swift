import FlowKit
import Foundation
import Synchronization
import Testing

@testable import FlowWeb

/// Browser sessions: a page's form becomes the flow's events, and nothing else does: no post
/// without the session's cookie and its page's token, none from another site, none twice.
@Suite struct WebSessionsTests {
    @Test func firstVisitOpensASessionWithASafeCookie() async throws {
        let sessions = WebSessions(newSession: NameForm.session)
        var browser = Browser(sessions)
        let page = await browser.get()
        #expect(page.status == 200)
        #expect(page.text.contains("<h1>Your name</h1>"))
        let cookie = try #require(page.header("Set-Cookie"))
        #expect(cookie.hasPrefix("flows-session="))
        #expect(cookie.hasSuffix("; Path=/; HttpOnly; SameSite=Lax"))
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(page.header("Cache-Control") == "no-store")
        #expect(await sessions.count == 1)
        // The same browser keeps its session.
        #expect(await browser.get().header("Set-Cookie") == nil)
        #expect(await sessions.count == 1)

        var configuration = WebSessions.Configuration()
        configuration.secureCookies = true
        var secure = Browser(WebSessions(configuration: configuration, newSession: NameForm.session))
        #expect(await secure.get().header("Set-Cookie")?.hasSuffix("; Secure") == true)
    }

    @Test func aPostIsTheFieldsThenTheButton() async {
        var browser = Browser(WebSessions(newSession: NameForm.session))
        _ = await browser.get()
        let answer = await browser.post([("f:name", "Ada Lovelace"), ("do", "save")])
        #expect(answer.status == 303)
        #expect(answer.header("Location") == "/")
        let page = await browser.get().text
        #expect(page.contains(#"value="Ada Lovelace""#))
        #expect(page.contains("Saved Ada Lovelace."))
    }

    @Test func aPostWithoutTheTokenOrTheCookieIsRefused() async {
        let sessions = WebSessions(newSession: NameForm.session)
        var ada = Browser(sessions)
        var eve = Browser(sessions)
        _ = await ada.get()
        _ = await eve.get()

        #expect(await ada.post([("f:name", "Eve"), ("do", "save")], csrf: .none).status == 403)
        #expect(await ada.post([("f:name", "Eve"), ("do", "save")], csrf: .given("forged")).status == 403)
        // Eve's own session's token does not pass with Ada's cookie, nor Ada's with Eve's.
        #expect(await ada.post([("f:name", "Eve"), ("do", "save")], csrf: .given(eve.csrf)).status == 403)
        #expect(await eve.post([("f:name", "Eve"), ("do", "save")], csrf: .given(ada.csrf)).status == 403)
        // No cookie, or one of no session: refused.
        var stranger = Browser(sessions)
        stranger.csrf = ada.csrf
        stranger.version = "1"
        #expect(await stranger.post([("f:name", "Eve"), ("do", "save")]).status == 403)
        stranger.cookie = "made-up"
        #expect(await stranger.post([("f:name", "Eve"), ("do", "save")]).status == 403)
        // From another site, even with the right token.
        #expect(await ada.post([("f:name", "Eve"), ("do", "save")], origin: "http://evil.example").status == 403)

        let page = await ada.get().text
        #expect(!page.contains("Eve"))
        #expect(page.contains(#"value="""#))
    }

    @Test func aPostFromAnOlderPageIsNotSentAgain() async {
        var browser = Browser(WebSessions(newSession: NameForm.session))
        _ = await browser.get()
        let (csrf, version) = (browser.csrf, browser.version)
        #expect(await browser.post([("f:name", "Ada"), ("do", "save")]).status == 303)
        // The same post again (a replay, or a second click), then one from the page before.
        browser.csrf = csrf
        browser.version = version
        #expect(await browser.post([("f:name", "Eve"), ("do", "save")]).status == 303)
        let page = await browser.get().text
        #expect(page.contains(#"value="Ada""#))
        #expect(!page.contains("Eve"))
        #expect(page.contains("That page was out of date"))
        // The notice is said once.
        #expect(!(await browser.get().text.contains("That page was out of date")))
    }

    @Test func aLivePostPreviewsWhatIsTypedAndPressesNothing() async {
        var browser = Browser(WebSessions(newSession: NameForm.session))
        _ = await browser.get()
        #expect(await browser.post([("f:name", "Ad"), ("live", "1"), ("do", "save")]).status == 303)
        let page = await browser.get().text
        #expect(page.contains("Typing Ad"))
        #expect(!page.contains("Saved"))
        #expect(page.contains(#"value="""#))
    }

    @Test func onlyWhatTheScreenOffersIsSent() async {
        var browser = Browser(WebSessions(newSession: NameForm.session))
        _ = await browser.get()
        #expect(await browser.post([("f:nickname", "Ada"), ("do", "delete-everything")]).status == 303)
        let page = await browser.get().text
        #expect(page.contains("<h1>Your name</h1>"))
        #expect(!page.contains("Saved"))
    }

    @Test func scriptTypedIntoAFieldIsShownAsText() async {
        var browser = Browser(WebSessions(newSession: NameForm.session))
        _ = await browser.get()
        _ = await browser.post([("f:name", #""><script>alert(1)</script>"#), ("do", "save")])
        let page = await browser.get().text
        #expect(!page.contains("<script>alert"))
        #expect(page.contains(#"value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;""#))
    }

    @Test func leavingTheAppShowsItsLastPage() async {
        var browser = Browser(WebSessions(newSession: NameForm.session))
        _ = await browser.get()
        _ = await browser.post([("f:name", "Ada"), ("do", "cancel")])
        let page = await browser.get().text
        #expect(page.contains("Left with Ada."))
    }

    @Test func theUsersThemeColoursThePages() async {
        var browser = Browser(WebSessions(newSession: NameForm.session))
        #expect(await browser.get().text.contains(#"data-theme="auto""#))
        _ = await browser.post([("f:name", "dark"), ("do", "save")])
        #expect(await browser.get().text.contains(#"data-theme="dark""#))
    }

    @Test func idleSessionsEndAndSignOut() async {
        let clock = TestClock()
        let ends = Mutex(0)
        let sessions = WebSessions(now: clock.now) {
            WebAppSession(run: NameForm.session().run, end: { ends.withLock { $0 += 1 } })
        }
        var browser = Browser(sessions)
        _ = await browser.get()
        let first = browser.cookie
        clock.advance(by: .seconds(29 * 60))
        #expect(await sessions.sweep() == 0)
        _ = await browser.get()
        clock.advance(by: .seconds(29 * 60))
        #expect(await sessions.sweep() == 0)
        clock.advance(by: .seconds(2 * 60))
        #expect(await sessions.sweep() == 1)
        #expect(await sessions.count == 0)
        #expect(ends.withLock { $0 } == 1)
        // Its cookie opens a new session, and a post from its old page is refused.
        #expect(await browser.post([("f:name", "Ada"), ("do", "save")]).status == 403)
        _ = await browser.get()
        #expect(browser.cookie != first)
    }

    @Test func theOldestSessionMakesRoom() async {
        let clock = TestClock()
        var configuration = WebSessions.Configuration()
        configuration.maximumSessions = 2
        let sessions = WebSessions(configuration: configuration, now: clock.now, newSession: NameForm.session)
        var (first, second, third) = (Browser(sessions), Browser(sessions), Browser(sessions))
        _ = await first.get()
        clock.advance(by: .seconds(1))
        _ = await second.get()
        clock.advance(by: .seconds(1))
        _ = await third.get()
        #expect(await sessions.count == 2)
        #expect(await first.post([("do", "save")]).status == 403)
        #expect(await second.post([("do", "save")]).status == 303)
    }

    @Test func anotherPersonsChangeReachesTheOpenPage() async throws {
        let balance = Balance(10)
        var configuration = WebSessions.Configuration()
        configuration.eventWait = .milliseconds(50)
        let sessions = WebSessions(configuration: configuration) { Ledger.session(balance) }
        var (ada, bob) = (Browser(sessions), Browser(sessions))
        _ = await ada.get()
        _ = await ada.post([("f:user", "ada"), ("do", "sign-in")])
        #expect(await ada.get().text.contains("Balance 10"))
        _ = await bob.get()
        _ = await bob.post([("f:user", "bob"), ("do", "sign-in")])
        _ = await bob.get()

        // Nothing changed: the wait ends without an event, and the browser asks again.
        let quiet = await ada.events()
        #expect(quiet.status == 200)
        #expect(quiet.header("Content-Type") == "text/event-stream; charset=utf-8")
        #expect(quiet.text == "retry: 1000\n: no change\n\n")

        // Someone's write moves Ada's balances while her page waits: the page hears of it.
        balance.amount = 25
        async let heard = ada.events()
        await sessions.changed(for: ["ada", "carol"])
        #expect(await heard.text == "retry: 1000\nevent: change\ndata: balances\n\n")
        // Bob's page is not told; Ada's hears it again until it reads again.
        #expect(await bob.events().text == "retry: 1000\n: no change\n\n")
        #expect(await ada.events().text.contains("event: change"))
        #expect(await ada.get().text.contains("Balance 10"))

        let before = try #require(ada.version)
        #expect(await ada.post([("do", ":refresh")]).status == 303)
        #expect(await ada.get().text.contains("Balance 25"))
        #expect(ada.version != before)
        #expect(await ada.events().text == "retry: 1000\n: no change\n\n")

        // Reading again to the same screen keeps the page's version: a form filled in meanwhile
        // is not refused as out of date.
        let same = ada.version
        _ = await ada.post([("do", ":refresh")])
        _ = await ada.get()
        #expect(ada.version == same)
        // A stale page's refresh sends nothing, and says nothing of being out of date.
        ada.version = before
        _ = await ada.post([("do", ":refresh")])
        let page = await ada.get().text
        #expect(!page.contains("out of date"))

        // Signed out, Ada's session hears of her changes no more.
        _ = await ada.post([("f:user", ""), ("do", "sign-in")])
        _ = await ada.get()
        await sessions.changed(for: ["ada"])
        #expect(await ada.events().text == "retry: 1000\n: no change\n\n")
    }

    @Test func eventsOfNoSessionStopTheBrowserAsking() async {
        let sessions = WebSessions(newSession: NameForm.session)
        #expect(await sessions.handle(WebRequest(method: "GET", path: "/web/events")).status == 204)
        var stranger = Browser(sessions)
        stranger.cookie = "made-up"
        #expect(await stranger.events().status == 204)
        #expect(await sessions.count == 0)
    }

    @Test func aSessionThatEndsAnswersItsWaitingEvents() async {
        var configuration = WebSessions.Configuration()
        configuration.eventWait = .seconds(60)
        let sessions = WebSessions(configuration: configuration) { Ledger.session(Balance(0)) }
        var ada = Browser(sessions)
        _ = await ada.get()
        async let waiting = ada.events()
        // Once the request waits (not after a guess of how long that takes on a busy machine).
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while await sessions.waitingEvents == 0, clock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(await sessions.waitingEvents == 1)
        await sessions.endAll()
        #expect(await waiting.text == "retry: 1000\n: no change\n\n")
    }

    @Test func formsAreReadAsBrowsersSendThem() {
        let form = WebForm(urlencoded: Array("f%3Aname=Ada+L%C3%B6velace&do=save&empty=&flag".utf8))
        #expect(form?.value("f:name") == "Ada Lövelace")
        #expect(form?.value("do") == "save")
        #expect(form?.value("empty") == "")
        #expect(form?.value("flag") == "")
        #expect(WebForm(urlencoded: Array("a=%G1".utf8)) == nil)
        #expect(WebForm(urlencoded: Array("a=%4".utf8)) == nil)
        #expect(WebForm(urlencoded: Array("a=%FF".utf8)) == nil)
        #expect(WebForm(urlencoded: Array(String(repeating: "a=1&", count: 2_001).utf8)) == nil)
    }

    @Test func otherAddressesAndMethods() async {
        let sessions = WebSessions(newSession: NameForm.session)
        #expect(await sessions.handle(WebRequest(method: "GET", path: "/admin")).status == 404)
        #expect(await sessions.handle(WebRequest(method: "DELETE", path: "/")).status == 405)
        let style = await sessions.handle(WebRequest(method: "GET", path: "/web/style.css"))
        #expect(style.status == 200)
        #expect(style.header("Content-Type") == "text/css; charset=utf-8")
        #expect(await sessions.handle(WebRequest(method: "GET", path: "/web/flows.js")).header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(await sessions.count == 0)
    }
}

/// A one-field form: Save shows what was typed (and `dark` as the theme); Cancel leaves.
enum NameForm {
    static func session() -> WebAppSession {
        WebAppSession(run: { router, page in
            var (name, status): (String, ScreenStatus?) = ("", nil)
            while true {
                await router.update(Screen(
                    id: "name", title: "Your name", fields: [Field(id: "name", label: "Name", input: .text(name))],
                    actions: [Action(id: "save", label: "Save", role: .primary), .cancel], status: status
                ))
                switch await router.nextEvent(on: "name") {
                case .fill(_, let text): name = text
                case .edit(_, let text): status = .notice("Typing \(text)")
                case .tap("save"):
                    status = .notice("Saved \(name).")
                    if name == "dark" { await page.setTheme("dark") }
                case .tap(.cancel), .cancel, .back: return "Left with \(name)."
                default: break
                }
            }
        })
    }
}

/// A balance someone else may change: the page shows it as read when it opens, and again on
/// refresh; `sign-in` says who is signed in (nobody, for an empty name).
enum Ledger {
    static func session(_ balance: Balance) -> WebAppSession {
        WebAppSession(run: { router, page in
            var (user, shown) = ("", balance.amount)
            while true {
                await router.update(Screen(
                    id: "ledger", title: "Ledger", fields: [Field(id: "user", label: "User", input: .text(user))],
                    actions: [Action(id: "sign-in", label: "Sign in", role: .primary)], status: .notice("Balance \(shown)")
                ))
                switch await router.nextEvent(on: "ledger") {
                case .fill(_, let text): user = text
                case .tap("sign-in"): await page.signedIn(user.isEmpty ? nil : user)
                case .refresh: shown = balance.amount
                case .cancel: return "Left."
                default: break
                }
            }
        })
    }
}

/// The balance a ``Ledger`` reads.
final class Balance: Sendable {
    private let value: Mutex<Int>

    init(_ amount: Int) { value = Mutex(amount) }

    var amount: Int {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// A browser: it keeps its cookie and the last page's token and version, and posts forms.
struct Browser {
    let sessions: WebSessions
    var cookie: String?
    var csrf: String?
    var version: String?

    init(_ sessions: WebSessions) {
        self.sessions = sessions
    }

    mutating func get() async -> WebResponse {
        let page = await sessions.handle(WebRequest(method: "GET", path: "/", cookie: cookie.map { "theme=x; flows-session=\($0)" }, host: "localhost:8080"))
        if let set = page.header("Set-Cookie"), let value = set.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last {
            cookie = String(value)
        }
        csrf = Self.hidden("csrf", in: page.text) ?? csrf
        version = Self.hidden("version", in: page.text) ?? version
        return page
    }

    /// Which token a post carries: its page's, none, or another.
    enum Token {
        case page
        case none
        case given(String?)
    }

    func post(_ pairs: [(String, String)], csrf: Token = .page, origin: String = "http://localhost:8080") async -> WebResponse {
        let token: String? = switch csrf {
        case .page: self.csrf
        case .none: nil
        case .given(let token): token
        }
        let all = (token.map { [("csrf", $0)] } ?? []) + (version.map { [("version", $0)] } ?? []) + pairs
        let body = all.map { "\(Self.encoded($0.0))=\(Self.encoded($0.1))" }.joined(separator: "&")
        return await sessions.handle(WebRequest(
            method: "POST", path: "/", cookie: cookie.map { "flows-session=\($0)" }, host: "localhost:8080", origin: origin,
            contentType: "application/x-www-form-urlencoded", body: Array(body.utf8)
        ))
    }

    /// The page's request for server-sent events: one event, or none in time.
    func events() async -> WebResponse {
        await sessions.handle(WebRequest(method: "GET", path: "/web/events", cookie: cookie.map { "flows-session=\($0)" }, host: "localhost:8080"))
    }

    static func hidden(_ name: String, in page: String) -> String? {
        guard let range = page.range(of: #"name="\#(name)" value=""#) else { return nil }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

/// A clock a test moves.
final class TestClock: Sendable {
    private let start = ContinuousClock.now
    private let offset = Mutex(Duration.zero)

    var now: @Sendable () -> ContinuousClock.Instant {
        { [self] in start + offset.withLock { $0 } }
    }

    func advance(by duration: Duration) {
        offset.withLock { $0 += duration }
    }
}
