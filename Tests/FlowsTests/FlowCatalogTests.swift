import ArchitectureRules
import FlowKit
import FlowTestSupport
import FlowsApp
import Foundation
import Testing

@Suite("The catalog of flows the CLI launches")
struct FlowCatalogTests {
    /// The flow hierarchy of docs/architecture.md, which check-architecture enforces.
    static let hierarchy: FlowHierarchy? = {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/architecture.md")
        return (try? String(contentsOf: docs, encoding: .utf8)).flatMap(FlowHierarchy.parse(markdown:))
    }()

    @Test("names every flow of the documented hierarchy once, and nothing else")
    func catalogMatchesHierarchy() throws {
        let hierarchy = try #require(Self.hierarchy)
        let names = FlowCatalog.entries.map(\.name)
        #expect(Set(names) == hierarchy.flows)
        #expect(Set(names).count == names.count)
        #expect(FlowCatalog.entries.allSatisfy { !$0.summary.isEmpty })
    }

    @Test("each entry's children are its children in the documented hierarchy", arguments: FlowCatalog.entries.map(\.name))
    func childrenMatchHierarchy(name: String) throws {
        let hierarchy = try #require(Self.hierarchy)
        let entry = try #require(FlowCatalog.entry(named: name))
        #expect(Set(entry.children) == hierarchy.children[name] ?? [])
    }

    @Test("finds a flow by name without regard to case")
    func lookUp() throws {
        let first = try #require(FlowCatalog.entries.first)
        #expect(FlowCatalog.entry(named: first.name.uppercased())?.name == first.name)
        #expect(FlowCatalog.entry(named: "No such flow") == nil)
    }

    @Test("each entry opens on a screen of its own or of a flow below it, and a cancel ends it", arguments: FlowCatalog.entries.map(\.name))
    func firstScreen(name: String) async throws {
        let entry = try #require(FlowCatalog.entry(named: name))
        let hierarchy = try #require(Self.hierarchy)
        var flows = hierarchy.descendants(of: entry.name).union([entry.name])
        if entry.needsUser { flows.insert("SignIn") }
        let screens = Set(FlowCatalog.entries.filter { flows.contains($0.name) }.flatMap { $0.inventory.screens.map(\.id) })

        let container = AppContainer.inMemory()
        let run = FlowTest { router in await entry.run(container: container, router: router) }
        let first = try #require(await run.skipScreen())
        #expect(screens.contains(first.id), "\(name) opens on \(first.id), which no flow of \(flows.sorted()) draws")
        await run.cancel()
        #expect(await run.result().status == .cancelled)
    }

    @Test("every plain tap a View declares is offered by some screen its ViewModel's examples draw")
    func tapsDrawn() throws {
        var declared = 0
        for entry in FlowCatalog.entries {
            for screen in entry.inventory.screens {
                declared += screen.taps.count
                let undrawn = screen.taps.filter { !screen.actions.contains($0) }
                #expect(undrawn.isEmpty, "\(entry.name)'s screen \(screen.id) declares the taps \(undrawn), which no example state draws")
            }
        }
        // The check has something to check: the screens' Views declare their taps.
        #expect(declared > 40)
    }

    @Test("a flow that needs a user, launched without a session, signs in first")
    func signsInFirst() async throws {
        let container = AppContainer.inMemory()
        _ = try await container.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        try await container.accounts.signOut()
        for entry in FlowCatalog.entries where entry.needsUser {
            let run = FlowTest { router in await entry.run(container: container, router: router) }
            await run.expectScreen("sign-in")
            await run.fill(["email": "ada@example.com", "password": "correct horse"])
            await run.skipScreen()
            await run.tap("sign-in")
            #expect(await run.skipScreen()?.id != "sign-in", "\(entry.name) stays on sign-in")
            await run.cancel()
            // The home opens on its Expenses tab: cancelling that comes back to the home.
            if entry.name == "Authenticated" {
                #expect(await run.skipScreen()?.id == "home")
                await run.cancel()
            }
            _ = await run.result()
            try await container.accounts.signOut()
        }
    }

    @Test("the in-memory container is the same every run: same seed, same identifiers")
    func deterministic() async throws {
        let first = try await AppContainer.inMemory().accounts.signUp(email: "a@b.co", displayName: "A", password: "12345678")
        let second = try await AppContainer.inMemory().accounts.signUp(email: "a@b.co", displayName: "A", password: "12345678")
        #expect(first.id == second.id)
    }
}
