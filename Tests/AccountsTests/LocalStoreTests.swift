import Accounts
import AccountsData
import AccountsDataSQLite
import AccountsLive
import Foundation
import GRDB
import LocalStore
import Primitives
import Testing

/// The Accounts migrations, in the order they run.
let accountsMigrations = ["accounts.v1.users-and-sessions", "accounts.v2.session-last-used", "accounts.v3.friend-codes", "accounts.v4.avatars", "accounts.v5.session-client", "accounts.v6.email-verification"]

/// A well-formed friend code for records written straight into the store.
let testFriendCode = FriendCode.random(using: SeededRandomSource(seed: 1)).rawValue

@Suite("The local store on disk")
struct LocalStoreTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("flows-tests-\(UUID().uuidString)")
    }

    private func database(_ register: @escaping @Sendable (inout DatabaseMigrator) -> Void = AccountsSchema.registerMigrations(in:)) -> LocalDatabase {
        LocalDatabase(.file(directory.appendingPathComponent("flows.sqlite")), migrations: register)
    }

    @Test("a file database is created on first use, migrated once, and keeps its data")
    func migrationsOnFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = database()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(try first.appliedMigrations() == accountsMigrations)
        let file = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("flows.sqlite").path)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let service = LiveAccountsService(
            store: SQLiteAccountsStore(database: first), tokens: InMemorySessionTokenStore(), hasher: PasswordHasher(cost: 4),
            visibility: OwnAccountOnly()
        )
        let user = try await service.signUp(email: "ada@example.com", displayName: "Ada", password: "correct horse")

        let reopened = database()
        #expect(try reopened.appliedMigrations() == accountsMigrations)
        let stored = try await SQLiteAccountsStore(database: reopened).read { try $0.user(emailKey: "ada@example.com") }
        #expect(stored?.id == user.id.rawValue)
    }

    @Test("a store that cannot be opened is tried again on the next use, and opens once it can")
    func openFailureIsNotKept() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // A folder where the database file should be: SQLite cannot open it.
        let file = directory.appendingPathComponent("flows.sqlite")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        let store = database()
        #expect(throws: LocalStoreError.self) { try store.writer() }
        #expect(throws: LocalStoreError.self) { try store.writer() }

        try FileManager.default.removeItem(at: file)
        #expect(try store.appliedMigrations() == accountsMigrations)
        #expect(try store.writer() === store.writer())
    }

    @Test("a store written by a newer version is refused, not damaged")
    func newerStoreRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let newer = database { migrator in
            AccountsSchema.registerMigrations(in: &migrator)
            migrator.registerMigration("accounts.v99.from-the-future") { db in
                try db.execute(sql: "CREATE TABLE future (id INTEGER)")
            }
        }
        _ = try newer.writer()

        #expect {
            try database().writer()
        } throws: { error in
            guard case .newerVersion(_, let unknown) = error as? LocalStoreError else { return false }
            return unknown == ["accounts.v99.from-the-future"]
        }
        #expect(try newer.appliedMigrations().count == accountsMigrations.count + 1)
    }

    @Test("the schema refuses a second user with the same email key")
    func uniqueConstraint() async throws {
        let store = SQLiteAccountsStore(database: LocalDatabase(.memory, migrations: AccountsSchema.registerMigrations(in:)))
        let record = UserRecord(id: "1", email: "a@b.co", emailKey: "a@b.co", displayName: "A", friendCode: testFriendCode, passwordHash: "x", createdAt: 0)
        try await store.write { try $0.insert(record) }
        var twin = record
        twin.id = "2"
        twin.friendCode = FriendCode.random(using: SeededRandomSource(seed: 2)).rawValue
        let copy = twin
        await #expect(throws: AccountsDataError.emailTaken) { try await store.write { try $0.insert(copy) } }
    }

    @Test("the schema refuses a second user with the same friend code, and a code of the wrong shape")
    func friendCodeConstraints() async throws {
        let store = SQLiteAccountsStore(database: LocalDatabase(.memory, migrations: AccountsSchema.registerMigrations(in:)))
        let record = UserRecord(id: "1", email: "a@b.co", emailKey: "a@b.co", displayName: "A", friendCode: testFriendCode, passwordHash: "x", createdAt: 0)
        try await store.write { try $0.insert(record) }
        var twin = record
        twin.id = "2"
        twin.email = "c@d.co"
        twin.emailKey = "c@d.co"
        let sameCode = twin
        await #expect(throws: AccountsDataError.refused("UNIQUE constraint failed: user.friend_code")) { try await store.write { try $0.insert(sameCode) } }
        for shape in ["", "abcdefghj", "ABCDEFGH"] {
            twin.friendCode = shape
            let wrong = twin
            await #expect(throws: AccountsDataError.refused("a friend code is nine upper-case characters")) { try await store.write { try $0.insert(wrong) } }
        }
        #expect(try await store.read { try $0.user(friendCode: testFriendCode) }?.id == "1")
    }

    @Test("accounts made before friend codes get one each, unique and well formed, when the store is migrated")
    func friendCodesByMigration() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("flows.sqlite")
        var migrator = DatabaseMigrator()
        AccountsSchema.registerMigrations(in: &migrator)
        let queue = try DatabaseQueue(path: file.path)
        try migrator.migrate(queue, upTo: "accounts.v2.session-last-used")
        try queue.write { db in
            for index in 0..<50 {
                try db.execute(
                    sql: "INSERT INTO user (id, email, email_key, display_name, password_hash, created_at) VALUES (?, ?, ?, 'A', 'x', 0)",
                    arguments: ["u\(index)", "u\(index)@b.co", "u\(index)@b.co"]
                )
            }
        }
        try queue.close()

        let migrated = database()
        #expect(try migrated.appliedMigrations() == accountsMigrations)
        let codes = try migrated.read { db in try String.fetchAll(db, sql: "SELECT friend_code FROM user") }
        #expect(codes.count == 50)
        #expect(Set(codes).count == 50)
        for code in codes { #expect(try FriendCode(code).rawValue == code) }
    }

    @Test("a throw inside a write rolls the whole write back")
    func rollback() async throws {
        struct Injected: Error {}
        let database = LocalDatabase(.memory, migrations: AccountsSchema.registerMigrations(in:))
        let store = SQLiteAccountsStore(database: database)
        let record = UserRecord(id: "1", email: "a@b.co", emailKey: "a@b.co", displayName: "A", friendCode: testFriendCode, passwordHash: "x", createdAt: 0)
        await #expect(throws: Injected.self) {
            try await store.write { db in
                try db.insert(record)
                try db.insert(SessionRecord(tokenHash: String(repeating: "a", count: 64), userID: "1", createdAt: 0))
                throw Injected()
            }
        }
        #expect(try await store.read { try $0.user(id: "1") } == nil)
    }

    @Test("the session file is readable by its owner only, and replaced whole")
    func sessionFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokens = FileSessionTokenStore(location: StoreLocation(directory: directory))
        #expect(try tokens.load() == nil)
        try tokens.save("first-token")
        try tokens.save("second-token")
        #expect(try tokens.load() == "second-token")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("session").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["session"])
        try tokens.clear()
        try tokens.clear()
        #expect(try tokens.load() == nil)
    }

    @Test("the store lives in FLOWS_HOME, else XDG_DATA_HOME/flows, else ~/.local/share/flows")
    func location() throws {
        let all = ["FLOWS_HOME": "/srv/flows", "XDG_DATA_HOME": "/data", "HOME": "/home/ada"]
        #expect(try StoreLocation.resolve(environment: all).directory.path == "/srv/flows")
        #expect(try StoreLocation.resolve(environment: all.merging(["FLOWS_HOME": ""]) { $1 }).directory.path == "/data/flows")
        #expect(try StoreLocation.resolve(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/ada"]).directory.path
            == "/home/ada/.local/share/flows")
        #expect(throws: LocalStoreError.noHomeDirectory) { try StoreLocation.resolve(environment: [:]) }
        #expect(try StoreLocation.resolve(environment: all).databaseFile.lastPathComponent == "flows.sqlite")
    }

    private func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("opening narrows an existing store folder to 0700 and its files to 0600")
    func permissionsTightened() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("flows.sqlite")
        _ = try database().writer()
        let tokens = FileSessionTokenStore(location: StoreLocation(directory: directory))
        try tokens.save("token")
        chmod(directory.path, 0o755)
        chmod(file.path, 0o644)
        chmod(directory.appendingPathComponent("session").path, 0o644)

        _ = try database().writer()
        #expect(try mode(directory) == 0o700)
        #expect(try mode(file) == 0o600)
        #expect(try tokens.load() == "token")
        #expect(try mode(directory.appendingPathComponent("session")) == 0o600)
    }

    @Test("a store folder other users can write to is refused, naming the folder")
    func sharedFolderRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chmod(directory.path, 0o777)
        #expect {
            try database().writer()
        } throws: { error in
            guard case .notPrivate(let path, _) = error as? LocalStoreError else { return false }
            return path == directory.path && (error as? LocalStoreError)?.description.contains("other users can write") == true
        }
        #expect(try mode(directory) == 0o777)  // refused, not changed behind the user's back
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("flows.sqlite").path))
    }

    @Test("several openers of one new store at the same moment all see it migrated once", arguments: 0..<20)
    func concurrentFirstOpen(round: Int) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let openers = (0..<6).map { _ in database() }
        let results = await withTaskGroup(of: String?.self) { group in
            for opener in openers {
                group.addTask {
                    await Task.detached {
                        do {
                            _ = try opener.writer()
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    }.value
                }
            }
            return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        #expect(results == [])
        #expect(try openers[0].appliedMigrations() == accountsMigrations)
    }

    @Test("errors name the file and the system's reason, not the framework's error codes")
    func plainReasons() throws {
        let missing = PrivateFile(url: directory.appendingPathComponent("nowhere/session"))
        #expect(try missing.read() == nil)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("session"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = PrivateFile(url: directory.appendingPathComponent("session"))
        #expect {
            _ = try folder.read()
        } throws: { error in
            let text = "\(error)"
            return text.contains(directory.appendingPathComponent("session").path) && !text.contains("Domain") && !text.contains("error 2")
        }
    }

    @Test("commits reach the database file in the background, long before the writer's own checkpoint would copy them")
    func backgroundCheckpoint() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = database { migrator in
            migrator.registerMigration("notes") { db in try db.execute(sql: "CREATE TABLE note (text TEXT NOT NULL) STRICT") }
        }
        let file = directory.appendingPathComponent("flows.sqlite").path
        func pagesInFile() throws -> Int {
            ((try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0) / 4096
        }
        _ = try database.writer()
        let before = try pagesInFile()
        // 300 small commits write a few hundred pages of log: far below the writer's own
        // checkpoint at 10,000, so only the background copies them into the file.
        for index in 0..<300 {
            try database.write { db in try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: [String(repeating: "n", count: 2000) + "\(index)"]) }
        }
        var waited = 0
        while try pagesInFile() < before + 100, waited < 30_000 {
            try await Task.sleep(for: .milliseconds(20))
            waited += 20
        }
        #expect(try pagesInFile() >= before + 100)
        // What the file and its log hold together is every commit.
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") } == 300)
    }
}
