import FlowsApp
import FlowsServices
import Preferences
import Primitives
import Synchronization
import Testing

@Suite("The ThemeManager of the flows app")
struct ThemeManagerTests {
    private final class Applied: Sendable {
        let themes = Mutex<[Theme?]>([])

        /// The themes applied once there are `count` of them, or what there is after 10 s.
        func first(_ count: Int) async -> [Theme?] {
            for _ in 0..<1000 {
                let now = themes.withLock { $0 }
                if now.count >= count { return now }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return themes.withLock { $0 }
        }
    }

    @Test("following a user applies their stored theme, then each change; nobody goes back to the run's colours and stops listening")
    func follows() async throws {
        let services = LocalServices.inMemory()
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")
        try await services.preferences.update(Preferences(theme: .light, defaultCurrency: .eur), of: ada.id)
        let manager = TerminalThemeManager(preferences: services.preferences)
        let applied = Applied()
        await manager.attach { theme in applied.themes.withLock { $0.append(theme) } }

        await manager.follow(ada.id)
        #expect(await applied.first(1) == [.light])
        try await services.preferences.update(Preferences(theme: .highContrast, defaultCurrency: .eur), of: ada.id)
        #expect(await applied.first(2) == [.light, .highContrast])
        await manager.follow(nil)
        #expect(await applied.first(3) == [.light, .highContrast, nil])
        // Ada's later changes no longer colour anything.
        try await services.preferences.update(Preferences(theme: .dark, defaultCurrency: .eur), of: ada.id)
        try await Task.sleep(for: .milliseconds(100))
        #expect(applied.themes.withLock { $0 } == [.light, .highContrast, nil])
    }

    @Test("show applies a theme before it returns, so the next frame is already in it")
    func showsAtOnce() async {
        let manager = TerminalThemeManager(preferences: LocalServices.inMemory().preferences)
        let applied = Applied()
        await manager.show(.light)
        #expect(applied.themes.withLock { $0 }.isEmpty)
        await manager.attach { theme in applied.themes.withLock { $0.append(theme) } }
        await manager.show(.highContrast)
        #expect(applied.themes.withLock { $0 } == [.highContrast])
    }
}
