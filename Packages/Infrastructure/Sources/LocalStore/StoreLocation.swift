import Foundation

/// The folder that holds the local store: FLOWS_HOME, else XDG_DATA_HOME/flows, else
/// ~/.local/share/flows.
public struct StoreLocation: Equatable, Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The database file.
    public var databaseFile: URL { directory.appendingPathComponent("flows.sqlite") }

    /// The file that keeps the current session's token.
    public var sessionFile: URL { directory.appendingPathComponent("session") }

    /// Resolves the folder from an environment (the process's, in the app).
    public static func resolve(environment: [String: String]) throws(LocalStoreError) -> StoreLocation {
        if let home = environment["FLOWS_HOME"], !home.isEmpty {
            return StoreLocation(directory: URL(fileURLWithPath: home, isDirectory: true))
        }
        // The XDG specification says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return StoreLocation(directory: URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("flows"))
        }
        if let home = environment["HOME"], !home.isEmpty {
            return StoreLocation(
                directory: URL(fileURLWithPath: home, isDirectory: true)
                    .appendingPathComponent(".local/share/flows")
            )
        }
        throw .noHomeDirectory
    }

    /// Creates the folder (readable by its owner only) if it does not exist yet.
    public func prepare() throws(LocalStoreError) {
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .cannotCreateDirectory(directory.path, reason: error.localizedDescription)
        }
    }
}

/// Why the local store cannot be used.
public enum LocalStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case noHomeDirectory
    case cannotCreateDirectory(String, reason: String)
    case cannotOpen(String, reason: String)
    case newerVersion(String, unknownMigrations: [String])
    case cannotWrite(String, reason: String)
    case cannotRead(String, reason: String)

    public var description: String {
        switch self {
        case .noHomeDirectory:
            "no home directory: set FLOWS_HOME to the folder for the store"
        case .cannotCreateDirectory(let path, let reason):
            "cannot create \(path): \(reason)"
        case .cannotOpen(let path, let reason):
            "cannot open the store \(path): \(reason)"
        case .newerVersion(let path, let migrations):
            "the store \(path) was written by a newer version of flows (it has \(migrations.joined(separator: ", "))); update flows"
        case .cannotWrite(let path, let reason):
            "cannot write \(path): \(reason)"
        case .cannotRead(let path, let reason):
            "cannot read \(path): \(reason)"
        }
    }
}
