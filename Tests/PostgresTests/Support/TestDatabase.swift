import Foundation
import PostgresStore
import Testing

/// The PostgreSQL server the tests use: FLOWS_TEST_DATABASE_URL names a database on it whose role
/// may create databases (Scripts/postgres start prints one). Each test gets a database of its
/// own, made empty and dropped afterwards, so tests run in parallel and see nothing of another.
enum TestDatabase {
    static let variable = "FLOWS_TEST_DATABASE_URL"

    static var isConfigured: Bool {
        !(ProcessInfo.processInfo.environment[variable] ?? "").isEmpty
    }

    /// The trait of every suite that needs the server.
    static let required: ConditionTrait = .enabled(
        if: isConfigured,
        "\(variable) is not set: these tests need a PostgreSQL server (Scripts/postgres start DIR prints a URL for one)"
    )

    /// The server's URL, as given.
    static func serverURL() throws -> DatabaseURL {
        try DatabaseURL(ProcessInfo.processInfo.environment[variable] ?? "")
    }

    /// Runs `test` with the URL of a new, empty database, and drops the database afterwards
    /// (whatever `test` left connected to it).
    static func withFresh<T>(_ test: (DatabaseURL) async throws -> T) async throws -> T {
        let server = try serverURL()
        let name = "flows_test_" + (0..<12).map { _ in String(Int.random(in: 0..<36), radix: 36) }.joined()
        let admin = ServerDatabase(url: server, maximumConnections: 1)
        do {
            // A database's name cannot be a parameter; this one is made of letters, digits and _.
            _ = try await admin.withoutTransaction { try $0.execute("CREATE DATABASE \(name) ENCODING 'UTF8' TEMPLATE template0") }
        } catch {
            await admin.shutdown()
            throw error
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await test(server.database(name)))
        } catch {
            result = .failure(error)
        }
        _ = try? await admin.withoutTransaction { _ = try $0.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        await admin.shutdown()
        return try result.get()
    }
}
