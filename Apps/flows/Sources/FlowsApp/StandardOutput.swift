#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FlowTerminal
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
        if let code = writeAll(Array(text.utf8), to: STDOUT_FILENO) {
            failure.withLock { $0 = code }
        }
    }

    /// Why writing failed, if it did.
    static var problem: String? {
        failure.withLock { $0 }.map { "cannot write to standard output: \(String(cString: strerror($0)))" }
    }
}
