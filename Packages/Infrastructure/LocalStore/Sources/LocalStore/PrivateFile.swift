import Foundation

/// A small file readable and writable by its owner only (mode 0600), replaced atomically.
public struct PrivateFile: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The file's text, or nil when there is no file.
    public func read() throws(LocalStoreError) -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        try StoreLocation.makePrivate(file: url.path)
        do {
            return String(decoding: try Self.contents(of: url.path), as: UTF8.self)
        } catch {
            throw .cannotRead(url.path, reason: String(cString: strerror(error.code.rawValue)))
        }
    }

    /// Every byte of the file at `path`; a failure carries the system's error number.
    static func contents(of path: String) throws(POSIXError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    /// Replaces the file's text. The new file is written beside the old one with mode 0600 and
    /// renamed over it, so a crash leaves either the old text or the new, never a mix.
    public func write(_ text: String) throws(LocalStoreError) {
        try StoreLocation(directory: url.deletingLastPathComponent()).prepare()
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .cannotWrite(url.path, reason: String(cString: strerror(errno)))
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { buffer in
            buffer.baseAddress.map { Foundation.write(descriptor, $0, buffer.count) } ?? 0
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw .cannotWrite(url.path, reason: reason)
        }
    }

    /// Removes the file; no file is not an error.
    public func remove() throws(LocalStoreError) {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw .cannotWrite(url.path, reason: String(cString: strerror(errno)))
        }
    }
}
