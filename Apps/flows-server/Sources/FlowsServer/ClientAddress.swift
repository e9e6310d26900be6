#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPTypes
import NIOCore

/// An IP address: 4 bytes (IPv4) or 16 (IPv6). An IPv4 address written as IPv6
/// (`::ffff:192.0.2.7`, as a server listening on every IPv6 interface sees IPv4 clients) is
/// read as the IPv4 address, so that it is one client and matches IPv4 ranges.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// In network order.
    public let bytes: [UInt8]

    /// Reads `192.0.2.7` or `2001:db8::7`; nil for anything else (names, ports, ranges).
    public init?(_ text: some StringProtocol) {
        let text = String(text)
        // C reads up to a NUL: "192.0.2.7\0junk" would pass for 192.0.2.7.
        guard !text.utf8.contains(0) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        bytes = all.starts(with: Self.mappedPrefix) ? Array(all.suffix(4)) : all
    }

    /// `::ffff:0:0/96`, where IPv6 writes IPv4 addresses.
    private static let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]

    public var isIPv4: Bool { bytes.count == 4 }

    /// What per-address limits count under: an IPv4 address itself, and an IPv6 address's /64
    /// network, which is what one home or one machine is usually given (counting each of its
    /// addresses apart would give one client 2^64 tries).
    public var limitKey: String {
        isIPv4 ? description : IPAddress(unchecked: Array(bytes.prefix(8)) + Array(repeating: 0, count: 8)).description + "/64"
    }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { address in
            inet_ntop(isIPv4 ? AF_INET : AF_INET6, address.baseAddress, &text, socklen_t(text.count)) != nil
        }
        guard written else { return bytes.map { String($0) }.joined(separator: ".") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The address with every bit past the first `length` cleared.
    func masked(to length: Int) -> IPAddress {
        IPAddress(unchecked: bytes.indices.map { index in
            let kept = min(8, max(0, length - index * 8))
            return bytes[index] & UInt8(truncatingIfNeeded: 0xff << (8 - kept))
        })
    }
}

/// A range of addresses in CIDR notation (`10.0.0.0/8`, `fd00::/8`), or one address.
public struct AddressRange: Hashable, Sendable, CustomStringConvertible {
    public let network: IPAddress
    public let prefixLength: Int

    /// Reads `10.0.0.0/8`, `192.0.2.7` (that address alone), `fd00::/8` or `::1`. Bits past the
    /// prefix are dropped: `10.1.2.3/8` is `10.0.0.0/8`.
    public init(parsing text: String) throws(ConfigurationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let example = "as in 10.0.0.0/8, 192.0.2.7, fd00::/8 or ::1"
        guard let address = parts.first.flatMap({ IPAddress($0) }) else {
            throw ConfigurationError("\(trimmed.isEmpty ? "An empty text" : trimmed) is not an IP address or range, \(example).")
        }
        // An IPv4 range written as IPv6 (::ffff:10.0.0.0/104) has 96 bits more than it says.
        let writtenAsIPv6 = address.isIPv4 && parts[0].contains(":")
        let bits = writtenAsIPv6 ? 128 : address.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), ((writtenAsIPv6 ? 96 : 0)...bits).contains(given) else {
                throw ConfigurationError("\(trimmed): the prefix after / is a number from \(writtenAsIPv6 ? 96 : 0) to \(bits), \(example).")
            }
            length = given
        }
        prefixLength = writtenAsIPv6 ? length - 96 : length
        network = address.masked(to: prefixLength)
    }

    /// Whether `address` is in the range. IPv4 ranges hold IPv4 addresses only, IPv6 ones IPv6.
    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        let whole = prefixLength / 8
        guard address.bytes.prefix(whole) == network.bytes.prefix(whole) else { return false }
        let rest = prefixLength % 8
        guard rest > 0 else { return true }
        let mask = UInt8(truncatingIfNeeded: 0xff << (8 - rest))
        return address.bytes[whole] & mask == network.bytes[whole] & mask
    }

    public var description: String { "\(network)/\(prefixLength)" }
}

/// Who the client of a request is, for per-address limits.
///
/// Without trusted proxies, it is the connection's peer, and `X-Forwarded-For` is ignored:
/// anyone can write one. Behind a load balancer or a reverse proxy (listed as trusted), the peer
/// is the proxy, and the client is read from `X-Forwarded-For`, which each proxy appends the
/// address it took the request from to: from its end, the first address that is not a trusted
/// proxy. What a client wrote there itself stays to the left of that, and is never read.
public struct ClientAddresses: Sendable, Equatable {
    public let trustedProxies: [AddressRange]

    public init(trustedProxies: [AddressRange] = []) {
        self.trustedProxies = trustedProxies
    }

    /// The client of a request that came from `peer` with these `X-Forwarded-For` values
    /// (each header line's, in order).
    public func client(peer: IPAddress?, forwardedFor: [String]) -> IPAddress? {
        guard var current = peer, !trustedProxies.isEmpty else { return peer }
        var hops = forwardedFor.flatMap { $0.split(separator: ",") }
        while isTrusted(current), let hop = hops.popLast() {
            // Something a trusted proxy passed on that is no address: the client is that proxy's
            // own peer as far as can be told, which is the last trusted hop.
            guard let address = Self.address(inHop: hop) else { break }
            current = address
        }
        return current
    }

    /// The client of a request with these header fields, from `peer`.
    func client(peer: IPAddress?, headers: HTTPFields) -> IPAddress? {
        guard !trustedProxies.isEmpty else { return peer }
        return client(peer: peer, forwardedFor: headers[values: Self.forwardedFor])
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// An address as proxies write it in `X-Forwarded-For`: `192.0.2.7`, `2001:db8::7`, and,
    /// from some, with a port: `192.0.2.7:51234`, `[2001:db8::7]:51234`.
    static func address(inHop hop: Substring) -> IPAddress? {
        let hop = hop.trimmingCharacters(in: .whitespaces)
        if hop.hasPrefix("["), let close = hop.firstIndex(of: "]") {
            return IPAddress(hop[hop.index(after: hop.startIndex)..<close])
        }
        if let address = IPAddress(hop) { return address }
        // IPv4 with a port: one colon.
        let parts = hop.split(separator: ":")
        guard parts.count == 2, UInt16(parts[1]) != nil, let address = IPAddress(parts[0]), address.isIPv4 else { return nil }
        return address
    }
}

/// Where a request came from. The client's address is worked out only when asked for: few
/// requests need it.
struct RequestOrigin: Sendable {
    let peer: SocketAddress?
    let headers: HTTPFields
    let addresses: ClientAddresses

    /// The key the client's per-address limits count under; `unknown` when the connection has no
    /// IP address.
    var limitKey: String {
        addresses.client(peer: peer?.ipAddress.flatMap { IPAddress($0) }, headers: headers)?.limitKey ?? "unknown"
    }

    /// What the client is, in words, for the user's list of their sessions: what its
    /// `User-Agent` says, through this server.
    var clientDescription: String {
        let agent = headers[.userAgent].map { String($0.prefix(160)) } ?? "a client that did not say what it is"
        return "\(agent), through flows-server"
    }
}
