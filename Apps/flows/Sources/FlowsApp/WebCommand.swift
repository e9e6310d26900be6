import Accounts
import AccountsData
import AccountsLive
import ArgumentParser
import FlowKit
import FlowTerminal
import FlowTesting
import FlowWeb
import FlowsServices
import FlyingFox
import FlyingSocks
import Foundation
import LocalStore
import Primitives
import RatesECB

/// `flows web`: the app as web pages on this machine, for a browser on it.
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Serve the app as web pages to a browser on this machine (127.0.0.1 only).",
        discussion: """
            Opens the embedded store and serves the app at http://127.0.0.1:PORT/ until Ctrl-C; \
            the address is printed on standard output. Each browser signs in on its own. Pages \
            work without JavaScript. For friends on other machines, run flows-server --web \
            (docs/web.md).

            --in-memory serves a throwaway store instead; --given FILE sets it up by the `given` \
            steps of a script (docs/scripts.md) and serves the script's flow, which the browser \
            tests replay goldens on.
            """
    )

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: ArgumentHelp("Serve one flow (see `flows list`) rather than the whole app; its last page says how it ended.", valueName: "NAME"))
    var flow: String?

    @Flag(help: "A throwaway in-memory store, gone when the command ends.")
    var inMemory = false

    @Option(help: ArgumentHelp("With --in-memory: set the store up by this script's `given` steps, and serve its flow.", valueName: "FILE"))
    var given: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port is from 0 to 65535.") }
        if let flow, FlowCatalog.entry(named: flow) == nil {
            throw ValidationError("unknown flow '\(flow)'; known flows: \(FlowCatalog.entries.map(\.name).joined(separator: ", "))")
        }
        if given != nil, !inMemory { throw ValidationError("--given sets up a throwaway store: add --in-memory.") }
    }

    func run() async throws {
        let script = try given.map(Self.script)
        guard let entry = FlowCatalog.entry(named: flow ?? script?.flow ?? "App") else {
            throw ValidationError("unknown flow '\(script?.flow ?? "")' in \(given ?? "the script")")
        }
        let app: @Sendable () -> WebAppSession
        if inMemory {
            // A script's store is the harness's: its clock stands where the goldens' does.
            let container = script == nil ? AppContainer.inMemory(now: Date()) : AppContainer.inMemory()
            let prepare = ScriptFixtures.prepare(container)
            for case .given(let words) in script?.steps.map(\.action) ?? [] {
                do { try await prepare(words) } catch { throw UsageError("\(given ?? ""): \(error)") }
            }
            // A script's flow ends on the page of its result, the whole app's too.
            app = { Self.session(entry, on: container, endsOnResult: script != nil || entry.name != "App") }
        } else {
            let location = try Launcher.storeLocation()
            do throws(LocalStoreError) { try location.prepare() } catch { throw UsageError(error.description) }
            let services = SharedServices(location: location)
            app = { Self.session(entry, on: services.container(), endsOnResult: entry.name != "App") }
        }
        let sessions = WebSessions(newSession: app)
        let address: sockaddr_in
        do { address = try .inet(ip4: "127.0.0.1", port: UInt16(port)) } catch { throw UsageError("cannot listen on port \(port): \(error)") }
        let server = HTTPServer(address: address, pool: NoDelayPool(base: HTTPServer.defaultPool()), logger: .disabled, handler: WebHandler(sessions: sessions))
        let sweeping = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(60))
                await sessions.sweep()
            }
        }
        defer { sweeping.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            try await server.waitUntilListening()
            guard case .ip4(_, let port)? = await server.listeningAddress else { throw UsageError("the server did not start") }
            StandardOutput.line("http://127.0.0.1:\(port)/")
            StandardError().write("flows: serving \(entry.name == "App" ? "the app" : entry.name) at http://127.0.0.1:\(port)/ (Ctrl-C stops)\n")
            try await group.next()
        }
    }

    /// A browser session of `entry` on `container`: the whole app starts again when left; a
    /// single flow ends on a page saying how it ended.
    static func session(_ entry: FlowEntry, on container: AppContainer, endsOnResult: Bool) -> WebAppSession {
        WebAppSession(
            run: { router, page in
                await container.terminalThemes.attach { theme in await page.setTheme(theme?.rawValue) }
                let outcome = await entry.run(container: container, router: router)
                guard endsOnResult else { return nil }
                return "\(entry.name) ended: \(outcome.name) (\(outcome.status.rawValue))."
            },
            end: { try? await container.accounts.signOut() }
        )
    }

    private static func script(_ path: String) throws -> Script {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch { throw UsageError("cannot read \(path): \(error.localizedDescription)") }
        do { return try ScriptParser.parse(text, file: path) } catch { throw UsageError("\(error)") }
    }
}

/// The embedded store's services, shared by every browser session but their sign-in: each
/// session signs in with an accounts service of its own.
private struct SharedServices: Sendable {
    let stores: LocalServices.Stores
    let services: LocalServices
    let rates: ECBRatesService

    init(location: StoreLocation) {
        let database = LocalDatabase(.file(location.databaseFile), migrations: LocalServices.registerMigrations)
        stores = .sqlite(database)
        services = LocalServices.live(stores: stores, random: SystemRandomSource(), now: Date.init) { store, visibility in
            LiveAccountsService(store: store, tokens: InMemorySessionTokenStore(), visibility: visibility)
        }
        rates = ECBRatesService(directory: location.directory)
    }

    /// The app for one browser session: signed in on its own.
    func container() -> AppContainer {
        let accounts = LiveAccountsService(
            store: stores.accounts, tokens: InMemorySessionTokenStore(), visibility: FriendsVisibility(store: stores.friends),
            client: { "a web browser on this machine" }
        )
        return AppContainer(
            accounts: accounts, expenses: services.expenses, friends: services.friends, groups: services.groups,
            preferences: services.preferences, rates: rates, verifier: services.verifier
        )
    }
}

/// Carries FlyingFox's requests to the browser sessions.
private struct WebHandler: HTTPHandler {
    let sessions: WebSessions

    static let phrases = [
        200: "OK", 303: "See Other", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
    ]

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let length = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        guard length <= 256 << 10 else { return HTTPResponse(statusCode: .payloadTooLarge) }
        let body = length > 0 ? try await request.bodyData : Data()
        let answer = await sessions.handle(WebRequest(
            method: request.method.rawValue, path: request.path, cookie: request.headers[HTTPHeader("Cookie")],
            host: request.headers[.host], origin: request.headers[HTTPHeader("Origin")], contentType: request.headers[.contentType],
            body: Array(body), client: "127.0.0.1"
        ))
        var headers = HTTPHeaders()
        for (name, value) in answer.headers { headers.addValue(value, for: HTTPHeader(name)) }
        return HTTPResponse(
            statusCode: HTTPStatusCode(answer.status, phrase: Self.phrases[answer.status] ?? "Status"), headers: headers,
            body: request.method == .HEAD ? Data() : Data(answer.body)
        )
    }
}

/// FlyingFox's sockets, each sent without delay (TCP_NODELAY): FlyingFox writes an answer's head
/// and its body apart, and with Nagle's algorithm the body then waits for the browser's delayed
/// acknowledgement of the head, 40 ms a page. Set on a socket as the pool first waits on it (an
/// accepted connection waits for its request).
private struct NoDelayPool<Base: AsyncSocketPool>: AsyncSocketPool {
    let base: Base

    func prepare() async throws { try await base.prepare() }

    func run() async throws { try await base.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: Int32(TCP_NODELAY)))
        try await base.suspendSocket(socket, untilReadyFor: events)
    }
}
