import PostgresStore
import Testing

@Suite("PostgresStore: reading a database URL")
struct DatabaseURLTests {
    @Test("a full URL gives every part, the password percent-decoded and never shown")
    func full() throws {
        let url = try DatabaseURL("postgres://flows:p%40ss%3Aword@db.example.com:6543/ledger?sslmode=require")
        #expect(url == DatabaseURL(host: "db.example.com", port: 6543, user: "flows", password: "p@ss:word", database: "ledger", tls: .require))
        #expect(url.description == "postgres://flows@db.example.com:6543/ledger")
        #expect(!url.description.contains("p@ss"))
    }

    @Test("the port defaults to 5432 and TLS to prefer; postgresql:// and IPv6 hosts are read too")
    func defaults() throws {
        #expect(try DatabaseURL("postgres://ada@localhost/flows") == DatabaseURL(host: "localhost", user: "ada", password: nil, database: "flows"))
        let ipv6 = try DatabaseURL("postgresql://ada:secret@[::1]:5433/flows?sslmode=disable")
        #expect(ipv6.host == "::1")
        #expect(ipv6.port == 5433)
        #expect(ipv6.tls == .disable)
        #expect(ipv6.description == "postgres://ada@[::1]:5433/flows")
        #expect(ipv6.database("other").database == "other")
    }

    @Test("without sslmode, a database on another machine is reached over TLS or not at all; on this machine TLS is preferred", arguments: [
        ("postgres://ada@db.example.com/flows", DatabaseURL.TLSMode.require),
        ("postgres://ada@10.0.0.7:5432/flows", .require),
        ("postgres://ada@[2001:db8::1]/flows", .require),
        ("postgres://ada@db.example.com/flows?sslmode=prefer", .prefer),
        ("postgres://ada@db.example.com/flows?sslmode=disable", .disable),
        ("postgres://ada@localhost/flows", .prefer),
        ("postgres://ada@LOCALHOST/flows", .prefer),
        ("postgres://ada@127.0.0.1/flows", .prefer),
        ("postgres://ada@127.8.9.1/flows", .prefer),
        ("postgres://ada@[::1]/flows", .prefer),
    ])
    func tlsByHost(text: String, tls: DatabaseURL.TLSMode) throws {
        #expect(try DatabaseURL(text).tls == tls)
    }

    @Test("every way a URL can be wrong is refused, saying what was found", arguments: [
        ("", DatabaseURLError.notAURL),
        ("localhost:5432/flows", .notAURL),
        ("mysql://ada@localhost/flows", .scheme("mysql")),
        ("postgres://ada@/flows", .missingHost),
        ("postgres://localhost/flows", .missingUser),
        ("postgres://ada@localhost", .missingDatabase),
        ("postgres://ada@localhost/", .missingDatabase),
        ("postgres://ada@localhost/a/b", .database("a/b")),
        ("postgres://ada@localhost:0/flows", .port("0")),
        ("postgres://ada@localhost:70000/flows", .port("70000")),
        ("postgres://ada@localhost/flows?timeout=3", .parameter("timeout")),
        ("postgres://ada@localhost/flows?sslmode=verify-full", .sslMode("verify-full")),
    ])
    func refused(text: String, error: DatabaseURLError) {
        #expect(throws: error) { try DatabaseURL(text) }
    }

    @Test("the refusals' messages say what a URL looks like")
    func messages() {
        #expect(DatabaseURLError.missingHost.description == "The database URL names no host; expected postgres://user:password@host:port/database.")
        #expect(DatabaseURLError.scheme("mysql").description.contains("postgres://"))
    }
}

@Suite("PostgresStore: a database that cannot be reached")
struct UnreachableDatabaseTests {
    /// Nothing listens on port 1 of the loopback address: connecting is refused at once.
    static let nowhere = DatabaseURL(host: "127.0.0.1", port: 1, user: "flows", password: "x", database: "flows", tls: .disable)

    @Test("a transaction on a server that refuses connections throws unavailable, naming where it tried")
    func transaction() async throws {
        let database = ServerDatabase(url: Self.nowhere, maximumConnections: 2)
        do {
            _ = try await database.read { try $0.row("SELECT 1")?.integer(0) }
            Issue.record("a read succeeded on no server")
        } catch ServerDatabaseError.unavailable(let reason) {
            #expect(reason.contains("postgres://flows@127.0.0.1:1/flows"))
        }
        await #expect(throws: ServerDatabaseError.self) { try await database.checkReady(timeout: .seconds(1)) }
        await database.shutdown()
    }

    @Test("a database shut down refuses new work as unavailable")
    func shutDown() async {
        let database = ServerDatabase(url: Self.nowhere, maximumConnections: 1)
        await database.shutdown()
        await database.shutdown()
        await #expect(throws: ServerDatabaseError.unavailable("it was shut down")) { try await database.write { _ in 1 } }
        await #expect(throws: ServerDatabaseError.unavailable("it was shut down")) { try await database.checkReady() }
    }
}
