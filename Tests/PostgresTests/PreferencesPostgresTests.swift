import Preferences
import PreferencesData
import PreferencesDataPostgres
import Primitives
import Testing

@Suite("Preferences on PostgreSQL", TestDatabase.required)
struct PreferencesPostgresTests {
    @Test("standard until chosen, then each user's own; a stored text the app does not know is named, not defaulted")
    func preferences() async throws {
        try await PostgresWorld.run { world in
            let preferences = world.services.preferences
            let (ada, bob) = (UserID(rawValue: "ada"), UserID(rawValue: "bob"))
            #expect(try await preferences.preferences(of: ada) == .standard)
            try await preferences.update(Preferences(theme: .highContrast, defaultCurrency: .jpy), of: ada)
            try await preferences.update(Preferences(theme: .noColour, defaultCurrency: .kwd), of: ada)
            #expect(try await preferences.preferences(of: ada) == Preferences(theme: .noColour, defaultCurrency: .kwd))
            #expect(try await preferences.preferences(of: bob) == .standard)
            try await PostgresPreferencesStore(database: world.database).write {
                try $0.save(PreferencesRecord(userID: "bob", theme: "sepia", defaultCurrency: "EUR"))
            }
            do {
                _ = try await preferences.preferences(of: bob)
                Issue.record("an unknown theme was read")
            } catch PreferencesError.storeUnavailable(let reason) {
                #expect(reason.contains("sepia"))
            }
            await #expect(throws: (any Error).self) {
                try await PostgresPreferencesStore(database: world.database).write {
                    try $0.save(PreferencesRecord(userID: "cy", theme: "dark", defaultCurrency: "EURO"))
                }
            }
        }
    }
}
