import Foundation
import Logging
import Synchronization
import Testing

@testable import FlowsServer

@Suite("flows-server's log lines")
struct LogLinesTests {
    @Test("a line: the time in UTC to the millisecond, the level, the label, the message, then the metadata sorted by key")
    func format() {
        let line = LineLogHandler.line(
            at: timespec(tv_sec: 1_795_000_000, tv_nsec: 7_900_000), level: .info, label: "flows-server", message: "request",
            metadata: ["status": "200", "method": "GET", "path": "/health"]
        )
        #expect(line == "2026-11-18T11:06:40.007Z info flows-server: request method=GET path=/health status=200\n")
    }

    @Test("a value that would not read back as one is quoted, and nothing starts a second line", arguments: [
        ("plain", "plain"),
        ("", "\"\""),
        ("two words", "\"two words\""),
        ("a=b", "\"a=b\""),
        ("say \"hi\"", "\"say \\\"hi\\\"\""),
        ("back\\slash and space", "\"back\\\\slash and space\""),
        ("one\ntwo", "\"one\\ntwo\""),
        ("one\r\ntwo", "\"one\\r\\ntwo\""),
    ])
    func quoting(value: String, written: String) {
        #expect(LineLogHandler.quoted(value) == written)
        let line = LineLogHandler.line(at: timespec(), level: .error, label: "l", message: "first\nsecond", metadata: ["key": .string(value)])
        #expect(line.hasSuffix(": first\\nsecond key=\(written)\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
    }

    @Test("the event's metadata wins over the provider's, which wins over the handler's; an event's error is logged")
    func metadata() throws {
        let file = try TemporaryLog()
        var handler = LineLogHandler(
            label: "test", output: file.output, level: .debug,
            metadataProvider: Logger.MetadataProvider { ["from": "provider", "provided": "yes"] }
        )
        handler[metadataKey: "from"] = "handler"
        handler[metadataKey: "kept"] = "handler"
        let logger = Logger(label: "test") { _ in handler }
        logger.debug("hello", metadata: ["from": "event"])
        logger.info("provider's", metadata: [:])
        logger.warning("failed", error: Refusal())
        logger.trace("below the level")
        file.output.flush()
        let lines = try file.lines()
        try #require(lines.count == 3)
        #expect(lines[0].hasSuffix(" debug test: hello from=event kept=handler provided=yes"))
        #expect(lines[1].hasSuffix(" info test: provider's from=provider kept=handler provided=yes"))
        #expect(lines[2].hasSuffix(" warning test: failed error=refused from=provider kept=handler provided=yes"))
    }

    @Test("lines logged at once from many tasks all arrive whole, each task's in its order")
    func concurrentLines() async throws {
        let file = try TemporaryLog()
        let output = file.output
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for number in 0..<1_000 {
                        output.write(LineLogHandler.line(at: LogOutput.now(), level: .info, label: "t", message: "m", metadata: ["task": "\(task)", "n": "\(number)"]))
                    }
                }
            }
        }
        output.flush()
        var next = [Int](repeating: 0, count: 8)
        let lines = try file.lines()
        #expect(lines.count == 8_000)
        for line in lines {
            let fields = Dictionary(line.split(separator: " ").dropFirst(4).map { ($0.split(separator: "=")[0], $0.split(separator: "=")[1]) }) { $1 }
            let task = try #require(fields["task"].flatMap { Int($0) })
            #expect(fields["n"].flatMap { Int($0) } == next[task], "\(line)")
            next[task] += 1
        }
        #expect(next == [Int](repeating: 1_000, count: 8))
    }

    @Test("when the output does not keep up, lines past the limit are dropped, the rest kept in order, and the dropped counted")
    func droppedLines() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (reading, writing) = (ends[0], ends[1])
        // Nobody reads the pipe yet: once its buffer (64 KiB) is full, the writer waits, and no
        // more than the limit gathers.
        let output = LogOutput(fileDescriptor: writing, limit: 1_000)
        let line = String(repeating: "x", count: 99) + "\n"
        for number in 0..<1_000 { output.write(String(format: "%04d", number) + line.dropFirst(4)) }
        let read = Task.detached { FileHandle(fileDescriptor: reading, closeOnDealloc: true).readDataToEndOfFile() }
        output.flush()
        close(writing)
        let text = String(decoding: await read.value, as: UTF8.self)
        let lines = text.split(separator: "\n")
        let written = lines.filter { $0.hasSuffix("xxxx") }
        let counts = lines.filter { $0.contains("lines dropped") }
        try #require(!counts.isEmpty)
        let dropped = try counts.map { try #require($0.split(separator: "count=").last.flatMap { Int($0) }) }.reduce(0, +)
        #expect(dropped > 0)
        #expect(written.count + dropped == 1_000)
        let numbers = written.compactMap { Int($0.prefix(4)) }
        #expect(numbers == numbers.sorted())
        #expect(written.count < 1_000)
    }
}

private struct Refusal: Error, CustomStringConvertible {
    var description: String { "refused" }
}

/// A log output to a file of its own, read back whole.
/// A log file of the test's own, read back as lines.
struct TemporaryLog {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("log-lines-\(UUID().uuidString).log")
    let output: LogOutput

    init() throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileNoSuchFile) }
        output = LogOutput(fileDescriptor: descriptor)
    }

    func lines() throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
