#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Standard output, written without a buffer so that a failed write (a full disk, a closed
/// pipe) is seen: the first failure is kept, and the CLI ends non-zero with its reason.
enum StandardOutput {
    private static let failure = Mutex<Int32?>(nil)

    /// Writes `text` and a line break.
    static func line(_ text: String) {
        write(text + "\n")
    }

    static func write(_ text: String) {
        guard failure.withLock({ $0 }) == nil else { return }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                let code = written < 0 ? errno : EIO
                failure.withLock { $0 = code }
                return
            }
            offset += written
        }
    }

    /// Why writing failed, if it did.
    static var problem: String? {
        failure.withLock { $0 }.map { "cannot write to standard output: \(String(cString: strerror($0)))" }
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
