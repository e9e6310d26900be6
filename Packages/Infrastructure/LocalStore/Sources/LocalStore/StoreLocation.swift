import Foundation

/// The folder that holds the local store: FLOWS_HOME, else XDG_DATA_HOME/flows, else
/// ~/.local/share/flows.
public struct StoreLocation: Equatable, Sendable {
    public let directory: URL
    /// The folder's path, when it was given as one. A process's first reading of a URL's `path`
    /// costs 0.3 ms (Foundation sets up its parsing), a twentieth of a start to the first screen,
    /// so the paths of a resolved location are joined as text.
    private let givenPath: String?

    public init(directory: URL) {
        self.directory = directory
        givenPath = nil
    }

    /// The folder at `path`.
    public init(path: String) {
        directory = URL(fileURLWithPath: path, isDirectory: true)
        givenPath = path
    }

    /// The database file.
    public var databaseFile: URL { file("flows.sqlite") }

    /// The file that keeps the current session's token.
    public var sessionFile: URL { file("session") }

    private func file(_ name: String) -> URL {
        URL(fileURLWithPath: Self.joined(givenPath ?? directory.path, name), isDirectory: false)
    }

    private static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    public static func == (left: StoreLocation, right: StoreLocation) -> Bool {
        left.directory == right.directory
    }

    /// Resolves the folder from an environment (the process's, in the app).
    public static func resolve(environment: [String: String]) throws(LocalStoreError) -> StoreLocation {
        try resolve { environment[$0] }
    }

    /// Resolves the folder from environment variables, each read by `variable` (nil when unset):
    /// FLOWS_HOME, else XDG_DATA_HOME/flows, else ~/.local/share/flows.
    public static func resolve(variable environment: (String) -> String?) throws(LocalStoreError) -> StoreLocation {
        if let home = environment("FLOWS_HOME"), !home.isEmpty {
            return StoreLocation(path: home)
        }
        // The XDG specification says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") {
            return StoreLocation(path: joined(data, "flows"))
        }
        if let home = environment("HOME"), !home.isEmpty {
            return StoreLocation(path: joined(home, ".local/share/flows"))
        }
        throw .noHomeDirectory
    }

    /// Creates the folder (readable by its owner only) if it does not exist yet, and makes an
    /// existing one private: a folder others can read is narrowed to mode 0700; one others can
    /// write to (or that belongs to someone else) is refused, since they could replace its files.
    public func prepare() throws(LocalStoreError) {
        try Self.createFolders(directory.path)
        var status = stat()
        guard stat(directory.path, &status) == 0 else {
            throw .cannotCreateDirectory(directory.path, reason: String(cString: strerror(errno)))
        }
        let permissions = status.st_mode & 0o7777
        guard status.st_uid == geteuid() else { throw .notPrivate(directory.path, reason: "it belongs to another user") }
        guard permissions & 0o022 == 0, permissions & 0o1000 == 0 else {
            throw .notPrivate(directory.path, reason: "other users can write to it")
        }
        if permissions & 0o077 != 0, chmod(directory.path, permissions & 0o700) != 0 {
            throw .notPrivate(directory.path, reason: "its permissions cannot be narrowed: \(String(cString: strerror(errno)))")
        }
    }

    /// `mkdir -p`: creates each missing folder of `path`, the last one with mode 0700 (the
    /// ones above it as the umask says). A failure names the folder that could not be made and
    /// the system's reason ("Not a directory", "Permission denied").
    private static func createFolders(_ path: String) throws(LocalStoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        for (index, part) in parts.enumerated() {
            prefix += "/" + part
            let mode: mode_t = index == parts.count - 1 ? 0o700 : 0o755
            if mkdir(prefix, mode) != 0, errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw .cannotCreateDirectory(path, reason: prefix == path ? reason : "\(reason) (\(prefix))")
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .cannotCreateDirectory(path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .cannotCreateDirectory(path, reason: String(cString: strerror(ENOTDIR))) }
    }

    /// Narrows an existing file of the store to mode 0600 (owner read and write); no file is not
    /// an error. A file of another user is refused.
    public static func makePrivate(file path: String) throws(LocalStoreError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw .cannotRead(path, reason: String(cString: strerror(errno)))
        }
        if status.st_mode & S_IFMT == S_IFDIR { throw .cannotRead(path, reason: String(cString: strerror(EISDIR))) }
        guard status.st_mode & S_IFMT == S_IFREG else { return }
        guard status.st_uid == geteuid() else { throw .notPrivate(path, reason: "it belongs to another user") }
        let permissions = status.st_mode & 0o7777
        if permissions & 0o177 != 0, chmod(path, permissions & 0o600) != 0 {
            throw .notPrivate(path, reason: "its permissions cannot be narrowed: \(String(cString: strerror(errno)))")
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
    /// The store's folder or a file in it is not private to the user, and cannot be made so.
    case notPrivate(String, reason: String)

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
        case .notPrivate(let path, let reason):
            "\(path) must be private to you and is not: \(reason); choose another folder with FLOWS_HOME"
        }
    }
}
