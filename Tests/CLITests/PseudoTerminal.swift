import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `flows` run in a real pseudo-terminal (openpty), as its controlling terminal, the
/// way a person runs it: keys are written to the terminal, the screen is read back from it.
final class PseudoTerminal {
    private(set) var master: Int32 = -1
    private(set) var slave: Int32 = -1
    private(set) var pid: pid_t = 0
    private var received: [UInt8] = []
    /// Everything the terminal showed so far, as text.
    var output: String { String(decoding: received, as: UTF8.self) }

    /// Whether this machine can open a pseudo-terminal.
    static let available: Bool = {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { return false }
        close(master)
        close(slave)
        return true
    }()

    /// Runs `executable` (the built `flows` unless given) with `arguments` in a new terminal.
    init(executable: String = FlowsProcess.executable.path, arguments: [String], environment: [String: String], columns: UInt16 = 100, rows: UInt16 = 40) throws {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw Failure("openpty failed") }
        // ttyname_r, not ttyname: tests open terminals side by side, and ttyname's buffer is shared.
        var name = [CChar](repeating: 0, count: 256)
        guard ttyname_r(slave, &name, name.count) == 0 else { throw Failure("no name for the terminal") }
        let path = String(cString: name)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new session, so opening the terminal makes it the child's controlling terminal and
        // Ctrl-C reaches it as SIGINT.
        posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID (glibc), not imported into Swift
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addclose(&actions, slave)
        posix_spawn_file_actions_addopen(&actions, 0, path, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure("posix_spawn failed: \(result)") }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if pid > 0 { kill(pid, SIGKILL); var status: Int32 = 0; waitpid(pid, &status, 0) }
        close(master)
        close(slave)
    }

    /// Types text (key sequences included) into the terminal.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(master, $0.baseAddress! + written, $0.count - written) }
            if count > 0 {
                written += count
            } else if count < 0, errno == EAGAIN || errno == EINTR {
                usleep(1_000)  // the terminal's input is full until the child reads: a moment
            } else {
                return
            }
        }
    }

    /// How much the terminal has shown so far: a place to wait for text after (`since:`).
    var mark: Int { received.count }

    /// What the terminal showed after `mark`.
    func output(since mark: Int) -> String { String(decoding: received[min(mark, received.count)...], as: UTF8.self) }

    /// Reads until the output (after `since`, if given) contains `text`; fails after `seconds` so
    /// a broken build cannot hang CI. The default is generous: under the whole suite's load on
    /// two cores, a debug build has taken more than 15 s to draw its first screen.
    @discardableResult
    func waitFor(_ text: String, since mark: Int = 0, seconds: Double = 60) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while !output(since: mark).contains(text) {
            guard deadline.timeIntervalSinceNow > 0 else { throw Failure("timed out waiting for \(text.debugDescription); the terminal shows:\n\(output)") }
            guard try await readSome() else { throw Failure("the terminal closed before \(text.debugDescription); it showed:\n\(output)") }
        }
        return output
    }

    /// Reads what has arrived, or pauses a moment when nothing has: false once the terminal has
    /// closed. The terminal is non-blocking, so no thread is held while the child works.
    private func readSome() async throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        if count > 0 {
            received += buffer[0..<count]
            return true
        }
        guard count < 0, errno == EAGAIN || errno == EINTR else { return false }
        try await Task.sleep(for: .milliseconds(5))
        return true
    }

    /// How long a child may take to end once told to.
    static let exitLimit: Double = 120

    /// Waits for the process to end and returns its exit status (128 + signal when killed).
    /// A child that has not ended within `seconds` is killed, and the wait fails with what the
    /// terminal showed.
    func exitStatus(within seconds: Double = exitLimit) async throws -> Int32 {
        guard pid > 0 else { throw Failure("the process has already been waited for") }
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid { break }
            if ended < 0, errno != EINTR { throw Failure("waitpid failed (errno \(errno))") }
            guard deadline.timeIntervalSinceNow > 0 else {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                pid = 0
                throw Failure("the process did not end within \(Int(seconds)) s and was killed; the terminal shows:\n\(output)")
            }
            // Reading on keeps the terminal's buffer from filling while the child finishes.
            _ = try await readSome()
        }
        pid = 0
        let exited = status & 0x7F == 0
        return exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Whether the terminal is back in its ordinary line mode: canonical input, echo on.
    var isInLineMode: Bool {
        var mode = termios()
        tcgetattr(slave, &mode)
        return mode.c_lflag & tcflag_t(ICANON) != 0 && mode.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Whether the terminal is in the interactive renderer's mode: keys one by one, no echo.
    var isRaw: Bool {
        var mode = termios()
        tcgetattr(slave, &mode)
        return mode.c_lflag & tcflag_t(ICANON) == 0 && mode.c_lflag & tcflag_t(ECHO) == 0
    }

    /// Whether typed characters are echoed.
    var echoes: Bool {
        var mode = termios()
        tcgetattr(slave, &mode)
        return mode.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Changes the terminal's size; the foreground process group gets SIGWINCH.
    func resize(columns: UInt16, rows: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Reads what arrives within `seconds`, for output that has no text to wait for.
    func drain(seconds: Double = 0.5) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while deadline.timeIntervalSinceNow > 0 {
            guard try await readSome() else { return }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
