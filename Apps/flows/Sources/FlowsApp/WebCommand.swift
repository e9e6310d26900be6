import Accounts
import AccountsData
import AccountsLive
import ArgumentParser
import FlowKit
import FlowTerminal
import FlowTesting
import FlowWeb
import FlowsServices
import Foundation
import LocalStore
import Primitives
import RatesECB
import Synchronization

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
        // A write that moves balances, or changes friendships or groups, tells the pages of the
        // people it concerns.
        let changes = ChangeRelay()
        if inMemory {
            // A script's store is the harness's: its clock stands where the goldens' does.
            let container = script == nil ? AppContainer.inMemory(now: Date()) : AppContainer.inMemory()
            let prepare = ScriptFixtures.prepare(container)
            // The set-up is the script's first steps; a `given` after them is another person's
            // write while the flow runs, which a browser's replay does not make.
            let setUp = (script?.steps ?? []).prefix { if case .given = $0.action { true } else { false } }
            for case .given(let words) in setUp.map(\.action) {
                do { try await prepare(words) } catch { throw UsageError("\(given ?? ""): \(error)") }
            }
            // A script's flow ends on the page of its result, the whole app's too.
            app = { Self.session(entry, on: container, endsOnResult: script != nil || entry.name != "App") }
        } else {
            let location = try Launcher.storeLocation()
            do throws(LocalStoreError) { try location.prepare() } catch { throw UsageError(error.description) }
            let services = SharedServices(location: location, changes: changes)
            app = { Self.session(entry, on: services.container(), endsOnResult: entry.name != "App") }
        }
        let sessions = WebSessions(newSession: app)
        changes.tell(sessions)
        let sweeping = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(60))
                await sessions.sweep()
            }
        }
        defer { sweeping.cancel() }
        let name = entry.name == "App" ? "the app" : entry.name
        do {
            try await LoopbackServer(handle: { await sessions.handle($0) }).run(port: port) { port in
                StandardOutput.line("http://127.0.0.1:\(port)/")
                StandardError().write("flows: serving \(name) at http://127.0.0.1:\(port)/ (Ctrl-C stops)\n")
            }
        } catch {
            throw UsageError("cannot serve on 127.0.0.1:\(port): \(error)")
        }
    }

    /// A browser session of `entry` on `container`: the whole app starts again when left; a
    /// single flow ends on a page saying how it ended.
    static func session(_ entry: FlowEntry, on container: AppContainer, endsOnResult: Bool) -> WebAppSession {
        WebAppSession(
            run: { router, page in
                await container.terminalThemes.attach({ theme in await page.setTheme(theme?.rawValue) }, following: { user in await page.signedIn(user?.rawValue) })
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

    init(location: StoreLocation, changes: ChangeRelay) {
        let database = LocalDatabase(.file(location.databaseFile), migrations: LocalServices.registerMigrations)
        stores = .sqlite(database, balancesChanged: changes.publish, friendshipsChanged: changes.publish, groupsChanged: changes.publish)
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
            areas: services.areas, rates: rates, verifier: services.verifier
        )
    }
}

/// Passes on whose balances, friendships or groups the store's writes changed to the browser sessions,
/// once they exist.
private final class ChangeRelay: Sendable {
    private let sessions = Mutex<WebSessions?>(nil)

    func tell(_ sessions: WebSessions) {
        self.sessions.withLock { $0 = sessions }
    }

    func publish(_ people: Set<String>) {
        guard let sessions = sessions.withLock({ $0 }) else { return }
        Task { await sessions.changed(for: people) }
    }
}
