import Foundation

/// Where a PostgreSQL database is and who connects to it, read from a URL:
/// `postgres://user:password@host:port/database`, optionally `?sslmode=disable|prefer|require`.
///
/// A user name or password with reserved characters (`@`, `:`, `/`) is percent-encoded in the URL.
/// The port defaults to 5432. TLS defaults to `require` for a database on another machine (a
/// password and a ledger do not cross a network in the clear unless `sslmode=prefer` or
/// `disable` says so), and to `prefer` on this one (`localhost`, `127.0.0.0/8`, `::1`).
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    /// Whether the connection is encrypted: never, when the server offers it, or always.
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, prefer, require
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// `tls` nil: by the host (``defaultTLS(for:)``).
    public init(host: String, port: Int = 5432, user: String, password: String?, database: String, tls: TLSMode? = nil) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls ?? Self.defaultTLS(for: host)
    }

    /// `prefer` for this machine (`localhost`, any `127.x.y.z`, `::1`), `require` for any other.
    public static func defaultTLS(for host: String) -> TLSMode {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return .prefer }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        if octets.count == 4, octets[0] == "127", octets.allSatisfy({ UInt8($0) != nil }) { return .prefer }
        return .require
    }

    /// Reads a URL; every way it can be wrong has its own error, naming what was found.
    public init(_ text: String) throws(DatabaseURLError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let schemeEnd = trimmed.range(of: "://") else { throw .notAURL }
        let scheme = String(trimmed[..<schemeEnd.lowerBound]).lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else { throw .scheme(scheme) }
        guard let components = URLComponents(string: trimmed) else { throw .notAURL }
        guard var host = components.host, !host.isEmpty else { throw .missingHost }
        // An IPv6 address is written in brackets in a URL, and connected to without them.
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let user = components.user, !user.isEmpty else { throw .missingUser }
        let path = components.path
        let database = path.hasPrefix("/") ? String(path.dropFirst()) : path
        guard !database.isEmpty else { throw .missingDatabase }
        guard !database.contains("/") else { throw .database(database) }
        var port = 5432
        if let given = components.port {
            guard (1...65_535).contains(given) else { throw .port(String(given)) }
            port = given
        }
        var tls: TLSMode?
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else { throw .parameter(item.name) }
            guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else { throw .sslMode(item.value ?? "") }
            tls = mode
        }
        self.init(host: host, port: port, user: user, password: components.password, database: database, tls: tls)
    }

    /// The same server and credentials, another database (to create or drop databases, say).
    public func database(_ name: String) -> DatabaseURL {
        var url = self
        url.database = name
        return url
    }

    /// The URL without its password, for messages and logs.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(shownHost):\(port)/\(database)"
    }
}

/// Why a database URL was refused.
public enum DatabaseURLError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAURL
    case scheme(String)
    case missingHost
    case missingUser
    case missingDatabase
    case database(String)
    case port(String)
    case parameter(String)
    case sslMode(String)

    public var description: String {
        let shape = "postgres://user:password@host:port/database"
        return switch self {
        case .notAURL: "The database URL is not a URL; expected \(shape)."
        case .scheme(let scheme): "The database URL starts with '\(scheme)://'; expected postgres:// or postgresql://."
        case .missingHost: "The database URL names no host; expected \(shape)."
        case .missingUser: "The database URL names no user; expected \(shape)."
        case .missingDatabase: "The database URL names no database; expected \(shape)."
        case .database(let name): "The database URL's database '\(name)' is not one name."
        case .port(let port): "The database URL's port \(port) is not from 1 to 65535."
        case .parameter(let name): "The database URL has an unknown parameter '\(name)'; only sslmode is read."
        case .sslMode(let mode): "The database URL's sslmode '\(mode)' is not one of disable, prefer, require."
        }
    }
}
