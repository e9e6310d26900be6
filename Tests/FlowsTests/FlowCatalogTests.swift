import FlowKit
import FlowTesting
import FlowsApp
import Testing

@Suite("The catalog of flows the CLI launches")
struct FlowCatalogTests {
    @Test("names every flow of the hierarchy once, found without regard to case")
    func names() {
        #expect(FlowCatalog.entries.map(\.name) == ["App", "Unauthenticated", "SignIn", "SignUp", "Authenticated"])
        #expect(FlowCatalog.entry(named: "signin")?.name == "SignIn")
        #expect(FlowCatalog.entry(named: "Nope") == nil)
        #expect(FlowCatalog.entries.allSatisfy { !$0.summary.isEmpty })
    }

    @Test("each entry opens on its first screen", arguments: [
        ("App", "welcome"), ("Unauthenticated", "welcome"), ("SignIn", "sign-in"), ("SignUp", "sign-up"), ("Authenticated", "sign-in"),
    ] as [(String, ElementID)])
    func firstScreens(name: String, screen: ElementID) async throws {
        let entry = try #require(FlowCatalog.entry(named: name))
        let container = AppContainer.inMemory()
        let run = FlowTest(exhaustive: false) { router in await entry.run(container: container, router: router) }
        try await run.expectScreen(screen)
        try await run.send(.cancel)
        let outcome = try await run.result()
        #expect(outcome.status == .cancelled || outcome.name == "closed")
    }

    @Test("Authenticated without a session signs in first, then shows the home")
    func authenticatedSignsInFirst() async throws {
        let container = AppContainer.inMemory()
        _ = try await container.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        try await container.accounts.signOut()
        let entry = try #require(FlowCatalog.entry(named: "Authenticated"))
        let run = FlowTest(exhaustive: false) { router in await entry.run(container: container, router: router) }
        try await run.fill("email", "ada@example.com")
        try await run.fill("password", "correct horse")
        try await run.tap("sign-in")
        try await run.expectScreen("home")
        try await run.tap("sign-out")
        let outcome = try await run.result()
        #expect(outcome.name == "signed-out")
        #expect(outcome.status == .completed)
    }

    @Test("the in-memory container is the same every run: same seed, same identifiers")
    func deterministic() async throws {
        let first = try await AppContainer.inMemory().accounts.signUp(email: "a@b.co", displayName: "A", password: "12345678")
        let second = try await AppContainer.inMemory().accounts.signUp(email: "a@b.co", displayName: "A", password: "12345678")
        #expect(first.id == second.id)
    }
}
