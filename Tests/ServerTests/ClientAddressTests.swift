import FlowsServer
import Foundation
import Testing

/// Who the client is, for the per-address limits: the connection's peer, or, behind proxies the
/// server is told to trust, the nearest address in `X-Forwarded-For` that is not one of them.
@Suite(.timeLimit(.minutes(2)))
struct ClientAddressTests {
    @Test("addresses are read as IPv4 or IPv6; an IPv4 address written as IPv6 is the IPv4 one", arguments: [
        ("192.0.2.7", "192.0.2.7", true),
        ("2001:db8::7", "2001:db8::7", false),
        ("2001:0DB8:0:0:0:0:0:7", "2001:db8::7", false),
        ("::ffff:192.0.2.7", "192.0.2.7", true),
        ("::1", "::1", false),
    ])
    func addresses(text: String, written: String, isIPv4: Bool) throws {
        let address = try #require(IPAddress(text))
        #expect(address.description == written)
        #expect(address.isIPv4 == isIPv4)
    }

    @Test("names, ports, ranges and junk are no address", arguments: [
        "", "localhost", "192.0.2", "192.0.2.256", "192.0.2.7:80", "[::1]", "10.0.0.0/8", " 192.0.2.7", "2001:db8::7::1", "unknown",
        "192.0.2.7\u{0}", "192.0.2.7\u{0}.1",
    ])
    func notAddresses(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test("an IPv6 client is counted by its /64 network, an IPv4 one by its address")
    func limitKeys() throws {
        let one = try #require(IPAddress("2001:db8:1:2:aaaa::1"))
        let sameNetwork = try #require(IPAddress("2001:db8:1:2:ffff:1:2:3"))
        let otherNetwork = try #require(IPAddress("2001:db8:1:3::1"))
        #expect(one.limitKey == "2001:db8:1:2::/64")
        #expect(sameNetwork.limitKey == one.limitKey)
        #expect(otherNetwork.limitKey != one.limitKey)
        #expect(try #require(IPAddress("192.0.2.7")).limitKey == "192.0.2.7")
        #expect(try #require(IPAddress("192.0.2.8")).limitKey == "192.0.2.8")
    }

    @Test("ranges hold what their prefix says, and only their own family")
    func ranges() throws {
        let private10 = try AddressRange(parsing: "10.0.0.0/8")
        #expect(private10.contains(try #require(IPAddress("10.255.1.2"))))
        #expect(!private10.contains(try #require(IPAddress("11.0.0.1"))))
        #expect(!private10.contains(try #require(IPAddress("::ffff:11.0.0.1"))))
        #expect(private10.contains(try #require(IPAddress("::ffff:10.0.0.1"))), "an IPv4 client seen on an IPv6 socket")

        let odd = try AddressRange(parsing: "192.0.2.128/25")
        #expect(odd.contains(try #require(IPAddress("192.0.2.200"))))
        #expect(!odd.contains(try #require(IPAddress("192.0.2.127"))))

        let one = try AddressRange(parsing: " 192.0.2.7 ")
        #expect(one.description == "192.0.2.7/32")
        #expect(one.contains(try #require(IPAddress("192.0.2.7"))))
        #expect(!one.contains(try #require(IPAddress("192.0.2.6"))))

        let unique = try AddressRange(parsing: "fd00::/8")
        #expect(unique.contains(try #require(IPAddress("fd12:3456::1"))))
        #expect(!unique.contains(try #require(IPAddress("fe80::1"))))
        #expect(!unique.contains(try #require(IPAddress("10.0.0.1"))))

        let everything = try AddressRange(parsing: "0.0.0.0/0")
        #expect(everything.contains(try #require(IPAddress("203.0.113.9"))))
        #expect(!everything.contains(try #require(IPAddress("::1"))))
        // Bits past the prefix are dropped.
        let loose = try AddressRange(parsing: "10.1.2.3/8")
        #expect(loose == private10 && loose.description == "10.0.0.0/8")
        #expect(try AddressRange(parsing: "fd12:3456::1/16").description == "fd12::/16")
        // An IPv4 range written as IPv6 is that IPv4 range.
        let mapped = try AddressRange(parsing: "::ffff:10.0.0.0/104")
        #expect(mapped == private10)
        #expect(try AddressRange(parsing: "::ffff:192.0.2.7").description == "192.0.2.7/32")
    }

    @Test("a range that cannot be read says what to write", arguments: [
        ("", "is not an IP address or range"),
        ("proxy.example.com", "is not an IP address or range"),
        ("10.0.0.0/33", "from 0 to 32"),
        ("fd00::/129", "from 0 to 128"),
        ("10.0.0.0/", "from 0 to 32"),
        ("10.0.0.0/eight", "from 0 to 32"),
        ("10.0.0.0/8/8", "from 0 to 32"),
        ("::ffff:10.0.0.0/95", "from 96 to 128"),
        ("10.0.0.1\u{0}junk", "is not an IP address or range"),
    ])
    func unreadableRanges(text: String, says: String) {
        #expect {
            try AddressRange(parsing: text)
        } throws: { error in
            let message = (error as? ConfigurationError)?.description ?? ""
            return message.contains(says) && message.contains("10.0.0.0/8")
        }
    }

    static let proxies = ClientAddresses(trustedProxies: [
        try! AddressRange(parsing: "10.0.0.0/8"), try! AddressRange(parsing: "fd00::/8"),
    ])

    @Test("behind trusted proxies, the client is the nearest hop that is not one", arguments: [
        // (peer, X-Forwarded-For lines, client)
        ("10.0.0.2", ["203.0.113.9"], "203.0.113.9"),
        ("10.0.0.2", ["203.0.113.9, 10.0.0.3"], "203.0.113.9"),
        // What the client wrote itself is to the left of what the proxy added: never read.
        ("10.0.0.2", ["198.51.100.1, 203.0.113.9"], "203.0.113.9"),
        ("10.0.0.2", ["198.51.100.1", "203.0.113.9, 10.1.1.1"], "203.0.113.9"),
        // Only proxies on the way: the farthest one.
        ("10.0.0.2", ["10.0.0.4, 10.0.0.3"], "10.0.0.4"),
        // No header: the proxy itself.
        ("10.0.0.2", [], "10.0.0.2"),
        // Ports and brackets, as some proxies write them.
        ("10.0.0.2", ["203.0.113.9:51234"], "203.0.113.9"),
        ("10.0.0.2", ["[2001:db8::9]:51234"], "2001:db8::9"),
        ("fd00::2", [" 2001:db8::9 "], "2001:db8::9"),
        ("::ffff:10.0.0.2", ["203.0.113.9"], "203.0.113.9"),
        // A hop that is no address stops the walk at the last trusted one.
        ("10.0.0.2", ["203.0.113.9, unknown"], "10.0.0.2"),
        ("10.0.0.2", ["203.0.113.9, 10.0.0.3, garbage"], "10.0.0.2"),
        ("10.0.0.2", ["203.0.113.9, junk, 10.0.0.3"], "10.0.0.3"),
        ("10.0.0.2", ["203.0.113.9, "], "10.0.0.2"),
        ("10.0.0.2", ["203.0.113.9", ""], "203.0.113.9"),
        ("10.0.0.2", ["::ffff:203.0.113.9"], "203.0.113.9"),
        // A peer that is no trusted proxy: its header is anyone's writing.
        ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),
        ("192.168.0.2", ["10.0.0.3"], "192.168.0.2"),
    ])
    func behindProxies(peer: String, forwardedFor: [String], client: String) throws {
        let address: IPAddress = try #require(IPAddress(peer))
        let found = Self.proxies.client(peer: address, forwardedFor: forwardedFor)
        #expect(found?.description == client)
    }

    @Test("with no proxy trusted, X-Forwarded-For is ignored")
    func noProxies() throws {
        let peer = try #require(IPAddress("10.0.0.2"))
        #expect(ClientAddresses().client(peer: peer, forwardedFor: ["203.0.113.9"]) == peer)
        #expect(Self.proxies.client(peer: nil, forwardedFor: ["203.0.113.9"]) == nil, "no peer address (a Unix socket): none")
    }

    /// Wrong passwords for Bob, from `forwardedFor`.
    private func wrongSignIn(_ server: LiveServer, from forwardedFor: String) async throws -> RawResponse {
        try await server.raw(
            "POST", "/sessions", body: Data(#"{"email":"bob@example.com","password":"wrong horse"}"#.utf8),
            headers: ["X-Forwarded-For": forwardedFor]
        )
    }

    static let limits = RateLimits(failuresPerAccount: 1_000, failuresPerAddress: 2, signUpsPerAddress: 1_000)

    @Test("behind a trusted proxy, each client has its own per-address limit, whatever it writes itself")
    func limitsPerClientBehindAProxy() async throws {
        let loopback = [try AddressRange(parsing: "127.0.0.0/8"), try AddressRange(parsing: "::1")]
        try await LiveServer.with(limits: Self.limits, trustedProxies: loopback) { server in
            _ = try await server.signUp("Bob")
            for _ in 1...2 { #expect(try await wrongSignIn(server, from: "203.0.113.5").status == 401) }
            #expect(try await wrongSignIn(server, from: "203.0.113.5").status == 429, "the first client has had its two")
            // A client that writes another address in front of its own is still itself.
            #expect(try await wrongSignIn(server, from: "198.51.100.77, 203.0.113.5").status == 429)
            // Another client behind the same proxy is not held back by the first.
            let other = try await wrongSignIn(server, from: "203.0.113.6")
            #expect(other.status == 401 && other.problemCode == "wrong-email-or-password", "\(other)")
        }
    }

    @Test("without a trusted proxy, a client cannot escape its limit by writing X-Forwarded-For")
    func forgedHeadersDoNotEscape() async throws {
        try await LiveServer.with(limits: Self.limits) { server in
            _ = try await server.signUp("Bob")
            #expect(try await wrongSignIn(server, from: "203.0.113.1").status == 401)
            #expect(try await wrongSignIn(server, from: "203.0.113.2").status == 401)
            let third = try await wrongSignIn(server, from: "203.0.113.3")
            #expect(third.status == 429 && third.problemCode == "rate-limited", "\(third)")
        }
    }
}
