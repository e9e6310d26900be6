import FlowsServer
import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// flows-server's pages under load (`server-bench web`), on loopback, on a private in-memory
/// store: SESSIONS browser sessions at once (100), each sending ROUNDS page round trips (50):
/// a post of its form (a field typed, as a fill) and the next page it is sent to, THINK ms
/// apart (1,000: a person reads a page before the next click; 0 hammers the server, which
/// shows how many round trips a second it takes at most). Prints the
/// round trips' median, 99th percentile and worst, then the memory an idle session holds:
/// the process's resident memory before and after IDLE more sessions (1,000) open the app.
func webBench() async throws {
    let environment = ProcessInfo.processInfo.environment
    let sessionCount = max(1, Int(environment["SESSIONS"] ?? "") ?? 100)
    let rounds = max(1, Int(environment["ROUNDS"] ?? "") ?? 50)
    let idleCount = max(1, Int(environment["IDLE"] ?? "") ?? 1_000)
    let think = max(0, Int(environment["THINK"] ?? "") ?? 1_000)
    var configuration = ServerConfiguration(port: 0, cacheLifetime: 1)
    configuration.web = true
    let services = ServerServices.sqlite(.memory, fast: true)
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let logger = Logger(label: "web-bench") { _ in SwiftLogNoOpLogHandler() }
    let application = try FlowsServer.application(configuration, services: services, logger: logger) { continuation.yield($0) }
    let server = Task { try await application.runService() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), let url = URL(string: "http://127.0.0.1:\(port)/") else { fail("the server did not start") }
    let client = PageClient(url: url, connections: sessionCount)

    // Every session opens the app and goes to the sign-up form, whose email it then types.
    var browsers: [PageClient.Browser] = []
    for _ in 0..<sessionCount {
        var browser = try await client.open()
        try await client.post(&browser, ["do": "create-account"])
        browsers.append(browser)
    }
    let started = ContinuousClock.now
    let times = try await withThrowingTaskGroup(of: [Double].self) { group in
        for (index, browser) in browsers.enumerated() {
            group.addTask {
                var browser = browser
                var times: [Double] = []
                // Sessions start their rounds spread over one think time, as people do.
                try await Task.sleep(for: .milliseconds(think * index / max(1, sessionCount)))
                for round in 0..<rounds {
                    if round > 0 { try await Task.sleep(for: .milliseconds(think)) }
                    let start = ContinuousClock.now
                    try await client.post(&browser, ["f:email": "person\(index)-\(round)@example.com"])
                    let elapsed = ContinuousClock.now - start
                    times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1_000)
                }
                return times
            }
        }
        return try await group.reduce(into: [Double]()) { $0 += $1 }
    }.sorted()
    let wall = ContinuousClock.now - started
    func percentile(_ p: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * p))] }
    print(String(
        format: "web pages: %d sessions at once, %d round trips (post a field, get the next page) %d ms apart: median %.2f ms, p99 %.2f ms, worst %.2f ms (target p99 < 20 ms); %.0f round trips a second",
        sessionCount, times.count, think, percentile(0.5), percentile(0.99), times.last ?? 0,
        Double(times.count) / (Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18)
    ))

    // Idle sessions: each has opened the app and waits on its welcome screen.
    let before = residentBytes()
    for _ in 0..<idleCount { _ = try await client.open() }
    let after = residentBytes()
    print(String(
        format: "web pages: %d more idle sessions took %.1f MB: %.0f KB a session (target < 200 KB)",
        idleCount, Double(after - before) / 1e6, Double(after - before) / Double(idleCount) / 1_000
    ))
    server.cancel()
}

/// The process's resident memory, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

/// Browsers without JavaScript: each keeps its cookie and its page's token and version.
struct PageClient: Sendable {
    let url: URL
    let session: URLSession

    struct Browser: Sendable {
        var cookie = ""
        var csrf = ""
        var version = ""
    }

    init(url: URL, connections: Int) {
        self.url = url
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpMaximumConnectionsPerHost = connections
        session = URLSession(configuration: configuration, delegate: StayOnAnswer(), delegateQueue: nil)
    }

    func open() async throws -> Browser {
        var browser = Browser()
        try await load(&browser)
        return browser
    }

    /// Posts the form with `fields`, then loads the page it is sent to.
    func post(_ browser: inout Browser, _ fields: [String: String]) async throws {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("flows-session=\(browser.cookie)", forHTTPHeaderField: "Cookie")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let pairs = [("csrf", browser.csrf), ("version", browser.version)] + fields.sorted { $0.key < $1.key }
        request.httpBody = Data(pairs.map { "\(Self.encoded($0.0))=\(Self.encoded($0.1))" }.joined(separator: "&").utf8)
        let (_, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 303 else { fail("a post was not answered 303") }
        try await load(&browser)
    }

    private func load(_ browser: inout Browser) async throws {
        var request = URLRequest(url: url)
        if !browser.cookie.isEmpty { request.setValue("flows-session=\(browser.cookie)", forHTTPHeaderField: "Cookie") }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else { fail("a page was not answered 200") }
        if let set = http.value(forHTTPHeaderField: "Set-Cookie"), let value = set.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last {
            browser.cookie = String(value)
        }
        let page = String(decoding: data, as: UTF8.self)
        browser.csrf = Self.hidden("csrf", in: page) ?? browser.csrf
        browser.version = Self.hidden("version", in: page) ?? browser.version
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
final class StayOnAnswer: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
