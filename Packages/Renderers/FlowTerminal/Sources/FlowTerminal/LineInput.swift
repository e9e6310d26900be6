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
    /// The next line, without its line ending. A secret line is not echoed where the input is a
    /// terminal.
    func readLine(secret: Bool) async -> LineRead

    /// Whether what is typed shows up by itself (a terminal echoes; a pipe does not). When it
    /// does not, the renderer writes each answer after its prompt so the output reads as a log.
    var echoes: Bool { get }
}

/// What reading a line gave.
public enum LineRead: Equatable, Sendable {
    /// A line, without its line ending.
    case line(String)
    /// A line whose bytes are not valid UTF-8: refused rather than changed, since two different
    /// answers (two passwords) would otherwise read the same.
    case notUTF8
    /// The process was stopped (Ctrl-Z) and resumed while waiting: what was typed before is
    /// gone, and the question should be asked again.
    case resumed
    /// The input ended.
    case end
}

/// Lines read from a file descriptor (standard input unless told otherwise), on a thread of
/// their own, so a person thinking about an answer never holds up the concurrency pool. The bytes
/// are read as they are, up to each line feed, and a line must be valid UTF-8.
public final class StandardInput: LineInput {
    private static let queue = DispatchQueue(label: "flows.standard-input")
    private let descriptor: Int32
    /// Bytes read after the last line handed out.
    private let pending = Mutex<[UInt8]>([])

    public init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    public var echoes: Bool { isatty(descriptor) == 1 }

    public func readLine(secret: Bool) async -> LineRead {
        await withCheckedContinuation { continuation in
            Self.queue.async { [self] in
                continuation.resume(returning: readLineNow(secret: secret))
            }
        }
    }

    private func readLineNow(secret: Bool) -> LineRead {
        let terminal = isatty(descriptor) == 1
        let hideEcho = secret && terminal && descriptor == STDIN_FILENO
        if hideEcho { TerminalModes.disableEcho() }
        let read = nextLine(wakes: terminal)
        if hideEcho {
            TerminalModes.restore()
            // The Enter that ended the secret was not echoed either.
            if read != .resumed { StandardError().write("\n") }
        }
        return read
    }

    /// Blocks until a whole line (or the end) is read. At a terminal, a resume after Ctrl-Z
    /// (TerminalModes' wake pipe) ends the wait too.
    private func nextLine(wakes: Bool) -> LineRead {
        let wakeReader = wakes ? TerminalModes.wakeReader : -1
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let line = takeLine(atEnd: false) { return line }
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&descriptors, wakeReader >= 0 ? 2 : 1, -1) < 0 { continue }
            if wakeReader >= 0, descriptors[1].revents & Int16(POLLIN) != 0 {
                var resumed = false
                while true {
                    let count = read(wakeReader, &buffer, buffer.count)
                    guard count > 0 else { break }
                    resumed = resumed || buffer[0..<count].contains(TerminalModes.resumeSignal)
                }
                if resumed { return .resumed }
            }
            guard descriptors[0].revents != 0 else { continue }
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { return takeLine(atEnd: true) ?? .end }
            pending.withLock { $0 += buffer[0..<count] }
        }
    }

    /// The first whole line of what was read; at the end of input, what is left too.
    private func takeLine(atEnd: Bool) -> LineRead? {
        pending.withLock { bytes in
            var line: ArraySlice<UInt8>
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                line = bytes[..<newline]
                bytes.removeSubrange(...newline)
            } else if atEnd, !bytes.isEmpty {
                line = bytes[...]
                bytes = []
            } else {
                return nil
            }
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            return String(validating: line, as: UTF8.self).map { .line($0) } ?? .notUTF8
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

    public func readLine(secret: Bool) async -> LineRead {
        lines.withLock { $0.isEmpty ? .end : .line($0.removeFirst()) }
    }

    /// The lines not read yet.
    public var remaining: [String] { lines.withLock { $0 } }
}
