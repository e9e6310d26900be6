import Foundation
import Logging
import Synchronization

/// flows-server's log: one line per event, in logfmt after a fixed head, as in
///
///     2026-11-24T04:07:52.123Z info flows-server: request method=GET ms=0.21 path=/health status=200
///
/// The time is UTC to the millisecond; the metadata (the handler's, its provider's, then the
/// event's) follows sorted by key, each value quoted when it holds a blank, a quote or `=`.
///
/// swift-log's `StreamLogHandler` costs a server a large share of a small request: it reads the
/// time zone file for every line, and writes and flushes each line with a system call on the
/// thread that serves the request. Here a line is formatted where it is logged and handed to a
/// ``LogOutput``, whose own thread writes what has gathered.
public struct LineLogHandler: LogHandler {
    public let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let output: LogOutput

    public init(label: String, output: LogOutput, level: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.output = output
        self.logLevel = level
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, provided in provided } }
        if let own = event.metadata { fields.merge(own) { _, own in own } }
        if let error = event.error, fields["error"] == nil { fields["error"] = "\(error)" }
        output.write(Self.line(at: LogOutput.now(), level: event.level, label: label, message: "\(event.message)", metadata: fields))
    }

    /// The text of one line, its newline included.
    static func line(at time: timespec, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        var line = timestamp(time)
        line += " "
        line += level.rawValue
        line += " "
        line += label
        line += ": "
        line += oneLine(message)
        for key in metadata.keys.sorted() {
            guard let value = metadata[key] else { continue }
            line += " "
            line += key
            line += "="
            line += quoted("\(value)")
        }
        line += "\n"
        return line
    }

    /// `2026-11-24T04:07:52.123Z`, from the clock's time without the time zone database.
    static func timestamp(_ time: timespec) -> String {
        var seconds = time_t(time.tv_sec)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "\(time.tv_sec)" }
        let milliseconds = Int(time.tv_nsec / 1_000_000)
        return "\(digits(Int(parts.tm_year) + 1900, 4))-\(digits(Int(parts.tm_mon) + 1, 2))-\(digits(Int(parts.tm_mday), 2))"
            + "T\(digits(Int(parts.tm_hour), 2)):\(digits(Int(parts.tm_min), 2)):\(digits(Int(parts.tm_sec), 2)).\(digits(milliseconds, 3))Z"
    }

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
    }

    /// `value` as it is, or in double quotes (with `"`, `\` and line breaks escaped) when it
    /// would otherwise not read back as one value.
    static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && value.utf8.allSatisfy { byte in byte > 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "=") && byte != 0x7F }
        if plain { return value }
        var quoted = "\""
        for character in value {
            switch character {
            case "\"", "\\": quoted += "\\\(character)"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\r\n": quoted += "\\r\\n"
            default: quoted.append(character)
            }
        }
        quoted += "\""
        return quoted
    }

    /// A line break in a message or a value would start what reads as another line.
    private static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }
}

/// Where log lines go: a file (standard error, as a rule), written by a thread of its own.
///
/// A line is appended to a buffer, which the thread writes out in one system call with every
/// other line that has gathered meanwhile, in the order they came. Under load that is a write
/// for many requests instead of one each; when the server is idle a line goes out at once.
/// ``flush()`` writes what remains (flows-server calls it before it exits).
///
/// When the file takes lines more slowly than they come (a pipe nobody reads), lines past
/// ``limit`` bytes waiting are dropped and counted, rather than the server held up or its memory
/// filled; a line then says how many went.
public final class LogOutput: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        var dropped = 0
        /// The writer thread found nothing to write and waits to be woken.
        var idle = false
    }

    /// The most bytes waiting to be written.
    public let limit: Int
    private let pending = Mutex(Pending())
    /// Held while taking what is pending and writing it, so that chunks go out in order.
    private let file: Mutex<Int32>
    private let wake = DispatchSemaphore(value: 0)

    /// Lines for `descriptor`, which stays open, as this output does, as long as the process runs.
    public init(fileDescriptor descriptor: Int32, limit: Int = 8 << 20) {
        self.limit = limit
        file = Mutex(descriptor)
        let thread = Thread { [self] in
            while true {
                if !writePending() { wake.wait() }
            }
        }
        thread.name = "log output"
        thread.start()
    }

    /// Standard error's lines: one output for the whole process.
    public static let standardError = LogOutput(fileDescriptor: STDERR_FILENO)

    /// Appends `line`; it goes out soon, after every line appended before it.
    public func write(_ line: String) {
        let wakes = pending.withLock { pending in
            if pending.bytes.count + line.utf8.count > limit {
                pending.dropped += 1
            } else {
                pending.bytes.append(contentsOf: line.utf8)
            }
            guard pending.idle else { return false }
            pending.idle = false
            return true
        }
        if wakes { wake.signal() }
    }

    /// Writes every line appended so far, and returns once they are written.
    public func flush() {
        while writePending() {}
    }

    /// Writes what is pending, in one go; false when nothing was.
    private func writePending() -> Bool {
        file.withLock { descriptor in
            var (bytes, dropped) = pending.withLock { pending in
                let taken = (pending.bytes, pending.dropped)
                if taken.0.isEmpty && taken.1 == 0 { pending.idle = true }
                pending.bytes = []
                pending.bytes.reserveCapacity(min(taken.0.count, limit))
                pending.dropped = 0
                return taken
            }
            if dropped > 0 {
                let line = LineLogHandler.line(
                    at: Self.now(), level: .warning, label: "log", message: "lines dropped: the log's output did not keep up",
                    metadata: ["count": "\(dropped)"]
                )
                bytes.append(contentsOf: line.utf8)
                dropped = 0
            }
            guard !bytes.isEmpty else { return false }
            Self.write(bytes, to: descriptor)
            return true
        }
    }

    /// All of `bytes`, whatever the descriptor takes at a time. A line that cannot be written
    /// has nowhere else to go, so a failed write drops the chunk.
    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, start + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR || errno == EAGAIN {
                    if errno == EAGAIN { usleep(1_000) }
                } else {
                    return
                }
            }
        }
    }

    static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }
}
