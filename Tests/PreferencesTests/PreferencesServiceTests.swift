import Foundation
import LocalStore
import Preferences
import PreferencesDataSQLite
import PreferencesLive
import Primitives
import Synchronization
import Testing

private let ada = UserID(rawValue: "a-ada")
private let bob = UserID(rawValue: "b-bob")

/// What a stream has given so far, read by a task of its own.
private final class Heard: Sendable {
    private final class Values: Sendable {
        let list = Mutex<[Preferences]>([])
    }

    private let values = Values()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Preferences>) {
        let values = values
        task = Task { for await value in stream { values.list.withLock { $0.append(value) } } }
    }

    deinit { task.cancel() }

    /// The values once there are `count` of them, or what there is after 10 seconds.
    func first(_ count: Int) async -> [Preferences] {
        for _ in 0..<1000 {
            let now = values.list.withLock { $0 }
            if now.count >= count { return now }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return values.list.withLock { $0 }
    }
}

@Suite("Preferences")
struct PreferencesServiceTests {
    let database = LocalDatabase(.memory, migrations: PreferencesSchema.registerMigrations(in:))
    var service: LivePreferencesService { LivePreferencesService(store: SQLitePreferencesStore(database: database), pollInterval: .milliseconds(20)) }

    @Test("a user has the standard preferences until they change them; each user has their own")
    func perUser() async throws {
        #expect(try await service.preferences(of: ada) == .standard)
        let chosen = Preferences(theme: .highContrast, defaultCurrency: .jpy)
        try await service.update(chosen, of: ada)
        #expect(try await service.preferences(of: ada) == chosen)
        #expect(try await service.preferences(of: bob) == .standard)
        try await service.update(Preferences(theme: .light, defaultCurrency: .jpy), of: ada)
        #expect(try await service.preferences(of: ada).theme == .light)
    }

    @Test("a stored text the app does not know is a damaged store, named, not a default")
    func damaged() async throws {
        try database.write { db in try db.execute(sql: "INSERT INTO preference VALUES ('a-ada', 'sepia', 'EUR')") }
        await #expect(throws: PreferencesError.self) { try await service.preferences(of: ada) }
        do {
            _ = try await service.preferences(of: ada)
        } catch {
            #expect(error.message.contains("sepia"))
        }
    }

    @Test("a watcher hears the value now, then a change made through the service, once each")
    func watchSameProcess() async throws {
        let service = service
        let heard = Heard(service.changes(of: ada))
        #expect(await heard.first(1) == [.standard])
        let light = Preferences(theme: .light, defaultCurrency: .eur)
        try await service.update(light, of: ada)
        #expect(await heard.first(2) == [.standard, light])
        // Bob's change is not Ada's; the same value again is not a change.
        try await service.update(Preferences(theme: .noColour, defaultCurrency: .usd), of: bob)
        try await service.update(light, of: ada)
        let final = Preferences(theme: .highContrast, defaultCurrency: .eur)
        try await service.update(final, of: ada)
        #expect(await heard.first(3) == [.standard, light, final])
    }

    @Test("a change written by another process on the same store reaches the watcher")
    func watchOtherProcess() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preferences-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flows.sqlite")
        let here = LivePreferencesService(
            store: SQLitePreferencesStore(database: LocalDatabase(.file(file), migrations: PreferencesSchema.registerMigrations(in:))),
            pollInterval: .milliseconds(20)
        )
        // Another process: its own connection to the file, its own service.
        let there = LivePreferencesService(
            store: SQLitePreferencesStore(database: LocalDatabase(.file(file), migrations: PreferencesSchema.registerMigrations(in:)))
        )
        let heard = Heard(here.changes(of: ada))
        #expect(await heard.first(1) == [.standard])
        let light = Preferences(theme: .light, defaultCurrency: .kwd)
        try await there.update(light, of: ada)
        #expect(await heard.first(2) == [.standard, light])
    }
}
