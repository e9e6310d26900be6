import Foundation
import Primitives

/// Files a user names, read from this machine's disk with system calls: the system's own reason
/// when one cannot be read, and never more than the limit read into memory.
public struct LocalUserFiles: UserFiles {
    /// The home and working folders given; nil for the process's, read when a file is named
    /// (not at start-up, where Foundation's environment and file manager cost a first screen).
    private let folders: (home: String?, workingDirectory: String)?

    /// Files named from the process's home folder (`HOME`) and working folder.
    public init() {
        folders = nil
    }

    /// Files named from these folders.
    public init(home: String?, workingDirectory: String) {
        folders = (home, workingDirectory)
    }

    public func contents(of typed: String, atMost limit: Int) throws(UserFileProblem) -> [UInt8] {
        let trimmed = typed.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .noPath }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { throw .controlCharacters }
        let path = resolve(trimmed)

        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(trimmed) }
            throw .unreadable(trimmed, reason: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(trimmed, reason: String(cString: strerror(errno))) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw .isFolder(trimmed) }
        if Int(status.st_size) > limit { throw .tooLarge(trimmed, bytes: Int(status.st_size), limit: limit) }

        // Read one byte past the limit: a file that grew since fstat is still caught.
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(trimmed, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        guard bytes.count <= limit else { throw .tooLarge(trimmed, bytes: max(bytes.count, Int(status.st_size)), limit: limit) }
        return bytes
    }

    /// `~/` is the home folder; a relative path starts at the working folder.
    private func resolve(_ path: String) -> String {
        if path == "~" || path.hasPrefix("~/") {
            let home = folders.map(\.home) ?? getenv("HOME").map { String(cString: $0) }
            if let home { return home + path.dropFirst() }
        }
        if path.hasPrefix("/") { return path }
        return (folders?.workingDirectory ?? FileManager.default.currentDirectoryPath) + "/" + path
    }
}
