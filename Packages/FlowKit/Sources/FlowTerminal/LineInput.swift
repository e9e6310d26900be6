#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Where the plain renderer reads answers, one line at a time.
public protocol LineInput: Sendable {
    /// The next line without its line ending, or nil at the end of input. A secret line is not
    /// echoed where the input is a terminal.
    func readLine(secret: Bool) async -> String?

    /// Whether what is typed shows up by itself (a terminal echoes; a pipe does not). When it
    /// does not, the renderer writes each answer after its prompt so the output reads as a log.
    var echoes: Bool { get }
}

/// The process's standard input. Lines are read on a thread of their own, so a person thinking
/// about an answer never holds up the concurrency pool.
public struct StandardInput: LineInput {
    private static let queue = DispatchQueue(label: "flows.standard-input")

    public init() {}

    public var echoes: Bool { isatty(STDIN_FILENO) == 1 }

    public func readLine(secret: Bool) async -> String? {
        await withCheckedContinuation { continuation in
            Self.queue.async {
                let hideEcho = secret && isatty(STDIN_FILENO) == 1
                if hideEcho { TerminalModes.disableEcho() }
                let line = Swift.readLine(strippingNewline: true)
                if hideEcho {
                    TerminalModes.restore()
                    StandardError().write("\n")
                }
                continuation.resume(returning: line)
            }
        }
    }
}

/// A fixed list of lines, for tests and for tools that feed answers from memory.
public final class LinesInput: LineInput {
    private let lines: Mutex<[String]>

    public init(_ lines: [String]) {
        self.lines = Mutex(lines)
    }

    public var echoes: Bool { false }

    public func readLine(secret: Bool) async -> String? {
        lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// The lines not read yet.
    public var remaining: [String] { lines.withLock { $0 } }
}
