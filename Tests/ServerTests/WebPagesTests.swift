import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's pages at `/` (flows-server --web): the real flows on the server's services, one
/// browser session each, over HTTP.
@Suite(.timeLimit(.minutes(2)))
struct WebPagesTests {
    @Test("a browser signs up, adds a friend's expense and sees the balance; another browser sees none of it")
    func signUpAndShare() async throws {
        try await LiveServer.with(web: true) { server in
            _ = try await server.signUp("Bob")
            var ada = PageBrowser(server: server.url)
            #expect(try await ada.open().contains("<h1>Welcome to Flows</h1>"))
            try await ada.send(["do": "create-account"])
            try await ada.send([
                "f:email": "ada@example.com", "f:password": "correct horse", "f:display-name": "Ada Lovelace", "do": "create-account",
            ])
            var page = try await ada.open()
            #expect(page.contains("<h1>Expenses</h1>"))
            #expect(page.contains("No activity yet: add an expense."))
            // The tabs are navigation; the Friends tab adds Bob by his email.
            try await ada.send(["do": "friends"])
            try await ada.send(["do": "add-friend"])
            page = try await ada.open()
            #expect(page.contains("<h1>Add a friend</h1>"), "\(page)")

            // Another browser is signed in as nobody.
            var eve = PageBrowser(server: server.url)
            #expect(try await eve.open().contains("<h1>Welcome to Flows</h1>"))
        }
    }

    @Test("wrong passwords on the pages count against the same limits as the API")
    func signInLimits() async throws {
        try await LiveServer.with(limits: RateLimitTests.limits, web: true) { server in
            _ = try await server.signUp("Ada")
            var browser = PageBrowser(server: server.url)
            _ = try await browser.open()
            try await browser.send(["do": "sign-in"])
            for attempt in 1...3 {
                try await browser.send(["f:email": "ada@example.com", "f:password": "wrong horse", "do": "sign-in"])
                #expect(try await browser.open().contains("wrong email or password"), "attempt \(attempt)")
            }
            try await browser.send(["f:email": "ada@example.com", "f:password": "correct horse", "do": "sign-in"])
            let page = try await browser.open()
            #expect(page.contains("Too many attempts; try again in"), "\(page)")
            #expect(!page.contains("<h1>Expenses</h1>"))
            // The API is limited for the same account and address.
            let api = try await server.raw("POST", "/sessions", json: #"{"email":"ada@example.com","password":"correct horse"}"#)
            #expect(api.status == 429)
        }
    }

    @Test("pages come with a strict policy; forged and cross-site posts are refused; the API takes no cookie")
    func security() async throws {
        try await LiveServer.with(web: true) { server in
            var browser = PageBrowser(server: server.url)
            _ = try await browser.open()
            let headers = try #require(browser.lastHeaders)
            #expect(headers["content-security-policy"]?.hasPrefix("default-src 'none'; script-src 'self'") == true)
            #expect(headers["x-frame-options"] == "DENY")
            #expect(browser.setCookie?.contains("HttpOnly; SameSite=Lax") == true)
            #expect(try await browser.post("csrf=forged&version=1&do=sign-in").status == 403)
            #expect(try await browser.post("csrf=\(browser.csrf)&version=1&do=sign-in", origin: "http://evil.example").status == 403)
            // The session's cookie is nothing to the API, which wants a bearer token.
            let api = try await server.raw("GET", "/me", headers: ["Cookie": "flows-session=\(browser.cookie)"])
            #expect(api.status == 401)
            // The pages' files.
            #expect(try await server.raw("GET", "/web/style.css").headers["content-type"] == "text/css; charset=utf-8")
        }
    }

    @Test("Bob's expense through the API reaches Ada's open page: an event, then the tab read again")
    func changesReachOpenPages() async throws {
        try await LiveServer.with(web: true) { server in
            let ada = try await server.signUp("Ada")
            let bob = try await server.signUp("Bob")
            try await ada.befriend(bob)
            var page = PageBrowser(server: server.url)
            _ = try await page.open()
            try await page.send(["do": "sign-in"])
            try await page.send(["f:email": ada.user.email, "f:password": "correct horse", "do": "sign-in"])
            #expect(try await page.open().contains("No activity yet"))

            _ = try await bob.client.addExpense(body: .json(.dinner(3_000, paidBy: bob.id, among: [ada.id, bob.id]))).created
            // The stream's answer: one event, as soon as the write is done.
            let (status, headers, events) = try await page.get("/web/events")
            #expect(status == 200)
            #expect(headers["content-type"] == "text/event-stream; charset=utf-8")
            #expect(events.contains("event: change"), "\(events)")
            // The page's script posts a refresh; the tab reads again.
            try await page.send(["do": ":refresh"])
            let shown = try await page.open()
            #expect(shown.contains("You owe Bob 15.00 EUR."), "\(shown)")
        }
    }

    @Test("a friend request, then a group, made through the API reach the open page of the person they concern, and no one else's, on each store")
    func requestsReachOpenPages() async throws {
        // A quiet connection closes after 2 s: a wait for events ends after 1.6 s.
        try await LiveServer.onEachStore(idleTimeout: .seconds(2), web: true) { server in
            let ada = try await server.signUp("Ada")
            let cy = try await server.signUp("Cy")
            _ = try await server.signUp("Dee")
            var page = PageBrowser(server: server.url)
            try await page.send(["do": "sign-in"])
            try await page.send(["f:email": ada.user.email, "f:password": "correct horse", "do": "sign-in"])
            var other = PageBrowser(server: server.url)
            try await other.send(["do": "sign-in"])
            try await other.send(["f:email": "dee@example.com", "f:password": "correct horse", "do": "sign-in"])
            try await page.send(["do": "friends"])

            let asked = try await cy.client.addFriend(body: .json(.email(.init(by: .email, email: ada.user.email)))).created.body.json
            #expect(asked.status == .requested)
            #expect(try await page.get("/web/events").body.contains("event: change"))
            try await page.send(["do": ":refresh"])
            let shown = try await page.open()
            #expect(shown.contains("1 friend request waits for your answer."), "\(shown)")
            // Dee's page heard nothing: its wait ends empty.
            #expect(try await other.get("/web/events").body.contains(": no change"))

            // Friends now, Cy makes a trip with Ada in it: her Groups tab shows it.
            _ = try await ada.client.acceptFriendRequest(path: .init(personId: cy.id)).ok
            try await page.send(["do": ":refresh"])
            try await page.send(["do": "groups"])
            #expect(try await page.get("/web/events").body.contains(": no change"))
            _ = try await cy.client.createGroup(
                body: .json(.init(name: "Trip", kind: .trip, currency: "EUR", simplifyDebts: true, members: [ada.id]))
            ).created
            #expect(try await page.get("/web/events").body.contains("event: change"))
            try await page.send(["do": ":refresh"])
            let groups = try await page.open()
            #expect(groups.contains("Trip (trip)"), "\(groups)")
            #expect(try await other.get("/web/events").body.contains(": no change"))
        }
    }

    @Test("without --web there are no pages")
    func offByDefault() async throws {
        try await LiveServer.with(web: false) { server in
            let status = try await server.raw("GET", "/").status
            #expect(status == 404)
        }
    }
}

/// A browser without JavaScript: it keeps its cookie, reads each page's token and version, and
/// posts forms, following no redirect itself.
struct PageBrowser {
    let server: URL
    var cookie = ""
    var csrf = ""
    var version = ""
    var setCookie: String?
    var lastHeaders: [String: String]?

    init(server: URL) {
        self.server = server
    }

    /// `GET /`: the page, its token and version kept.
    mutating func open() async throws -> String {
        let (status, headers, body) = try await request("GET", body: nil)
        #expect(status == 200)
        lastHeaders = headers
        if let set = headers["set-cookie"] {
            setCookie = set
            cookie = String(set.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1])
        }
        csrf = Self.hidden("csrf", in: body) ?? csrf
        version = Self.hidden("version", in: body) ?? version
        return body
    }

    /// Posts the page's form with `fields` (and its token and version): the server answers 303.
    mutating func send(_ fields: [String: String]) async throws {
        if csrf.isEmpty { _ = try await open() }
        let pairs = [("csrf", csrf), ("version", version)] + fields.sorted { $0.key < $1.key }
        let body = pairs.map { "\(Self.encoded($0.0))=\(Self.encoded($0.1))" }.joined(separator: "&")
        let answer = try await post(body)
        #expect(answer.status == 303, "\(answer.body)")
        _ = try await open()
    }

    /// Another of the pages' addresses, with the session's cookie.
    func get(_ path: String) async throws -> (status: Int, headers: [String: String], body: String) {
        try await request("GET", path: path, body: nil)
    }

    func post(_ body: String, origin: String? = nil) async throws -> (status: Int, body: String) {
        let (status, _, text) = try await request("POST", body: body, origin: origin)
        return (status, text)
    }

    private func request(_ method: String, path: String = "/", body: String?, origin: String? = nil) async throws -> (Int, [String: String], String) {
        var request = URLRequest(url: server.appendingPathComponent(path))
        request.httpMethod = method
        if !cookie.isEmpty { request.setValue("flows-session=\(cookie)", forHTTPHeaderField: "Cookie") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.setValue(origin ?? server.absoluteString, forHTTPHeaderField: "Origin")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        let session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { fields[name.lowercased()] = value }
        return (http.statusCode, fields, String(decoding: data, as: UTF8.self))
    }

    static func hidden(_ name: String, in page: String) -> String? {
        guard let range = page.range(of: #"name="\#(name)" value=""#) else { return nil }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

/// Answers a redirect itself rather than following it.
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
