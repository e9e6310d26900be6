#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Where the TTY renderer gets key presses.
public protocol KeySource: Sendable {
    /// The next key, or nil when input has ended.
    func nextKey() async -> Key?
}

/// Keys from a fixed list, for tests.
public final class ScriptedKeys: KeySource {
    private let keys: Mutex<[Key]>

    public init(_ keys: [Key]) {
        self.keys = Mutex(keys)
    }

    public func nextKey() async -> Key? {
        keys.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

/// Keys typed on the terminal on standard input, read on a thread of their own.
public final class TerminalKeys: KeySource {
    private static let queue = DispatchQueue(label: "flows.terminal-keys")
    private let state = Mutex(State())

    private struct State {
        var decoder = KeyDecoder()
        var ready: [Key] = []
        var ended = false
    }

    // Woken by the SIGWINCH and SIGCONT handlers through TerminalModes' pipe: either way the
    // screen is drawn again (at the new size, or anew after a suspend).
    private let wakeReader: Int32

    public init() {
        TerminalModes.watchResizes()
        wakeReader = TerminalModes.wakeReader
    }

    /// Tells the screen that what it shows changed elsewhere (``Key/changedElsewhere``): the key
    /// read next, at once if the reader waits.
    public func changedElsewhere() {
        state.withLock { state in
            if !state.ready.contains(.changedElsewhere) { state.ready.append(.changedElsewhere) }
        }
        TerminalModes.wake(TerminalModes.changeSignal)
    }

    public func nextKey() async -> Key? {
        await withCheckedContinuation { continuation in
            Self.queue.async { [self] in
                continuation.resume(returning: readKey())
            }
        }
    }

    /// Blocks until a key is decoded. A lone Escape becomes a key once 50 ms pass quietly.
    private func readKey() -> Key? {
        while true {
            let next: Key?? = state.withLock { state in
                if !state.ready.isEmpty { return .some(state.ready.removeFirst()) }
                return state.ended ? .some(nil) : nil
            }
            if let next { return next }
            var buffer = [UInt8](repeating: 0, count: 256)
            var descriptors = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0),
            ]
            let waiting = state.withLock { !$0.decoder.isIdle }
            let ready = poll(&descriptors, wakeReader >= 0 ? 2 : 1, waiting ? 50 : -1)
            if ready < 0 { continue }
            if ready == 0 {
                state.withLock { $0.ready += $0.decoder.flush() }
                continue
            }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                // Woken for a change elsewhere alone, its key is ready above; for a resize or a
                // resume, the screen is drawn again first.
                var redraw = false
                while true {
                    let count = read(wakeReader, &buffer, buffer.count)
                    guard count > 0 else { break }
                    redraw = redraw || buffer[0..<count].contains { $0 != TerminalModes.changeSignal }
                }
                if descriptors[0].revents & Int16(POLLIN) == 0 {
                    if redraw { return .resize }
                    continue
                }
            }
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            state.withLock { state in
                if count <= 0 {
                    state.ended = true
                } else {
                    state.ready += state.decoder.feed(buffer[0..<count])
                }
            }
        }
    }
}
