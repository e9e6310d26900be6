#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where a renderer writes what people read.
public protocol TextOutput: Sendable {
    func write(_ text: String)
}

/// The process's standard error, where the CLI draws screens and prompts (stdout is kept for
/// `--json` results).
public struct StandardError: TextOutput {
    public init() {}

    public func write(_ text: String) {
        writeAll(Array(text.utf8), to: STDERR_FILENO)
    }
}

/// Text written to memory, for tests and for tools that embed a renderer.
public final class TextBuffer: TextOutput {
    private let storage = Mutex("")

    public init() {}

    public func write(_ text: String) {
        storage.withLock { $0 += text }
    }

    /// Everything written so far.
    public var text: String { storage.withLock { $0 } }
}

/// Writes every byte, retrying short writes and interruptions. Returns the system's error
/// number when a write fails (a full disk, a closed pipe), nil when every byte was written;
/// a caller that has nowhere to report it (standard error) ignores it.
@discardableResult
public func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    bytes.withUnsafeBytes { buffer -> Int32? in
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, base + offset, buffer.count - offset)
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return written < 0 ? errno : EIO }
            offset += written
        }
        return nil
    }
}
