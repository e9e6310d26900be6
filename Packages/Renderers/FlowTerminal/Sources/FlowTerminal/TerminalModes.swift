#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Changes to the terminal's mode, and the way back, on every exit path and around a suspend.
///
/// The state lives in globals a signal handler can use: atomics, the saved mode and descriptors,
/// touched in a handler only with async-signal-safe calls (`tcgetattr`, `tcsetattr`, `write`,
/// `kill`, `sigprocmask`, `signal`), never a lock or an allocation.
///
/// - Ctrl-Z (SIGTSTP): the renderer's drawing is left with the cursor below it, the terminal is
///   put back in line mode, and the process stops.
/// - `fg` (SIGCONT): once the process is in front again, the mode it had is set again (raw input
///   or echo off), and the reader is woken: the interactive renderer draws the screen anew below
///   what the shell printed, the plain renderer asks its question again.
/// - Ctrl-C and SIGTERM (handlers in the app) call ``leave(endingLine:)``: the cursor goes below
///   the drawing and the terminal is restored before the process exits.
public enum TerminalModes {
    /// What this process has done to the terminal.
    private enum Mode: Int {
        /// Nothing: the terminal is as it was found.
        case line = 0
        /// Raw input and bracketed paste, for the interactive renderer.
        case interactive = 1
        /// Echo off, for a secret typed at the plain renderer's prompt.
        case secret = 2
        /// Stopped, or continued but not in front yet: the terminal was restored, the mode is to
        /// be set again on the way back.
        case suspendedInteractive = 3
        case suspendedSecret = 4
    }

    private static let mode = Atomic<Int>(Mode.line.rawValue)

    // The mode to put back. Written before the mode changes (by the thread that changes it, or by
    // the SIGCONT handler while nothing else changes it) and read by `restore()`, possibly from a
    // handler; meaningful only while `mode` is not `line`. Memory of its own rather than a global
    // variable, so a handler that interrupts an access never trips Swift's exclusivity checks.
    nonisolated(unsafe) private static let saved: UnsafeMutablePointer<termios> = {
        let memory = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        memory.initialize(to: termios())
        return memory
    }()

    /// Rows between the cursor and the last row of the interactive renderer's drawing; -1 when
    /// nothing is drawn. Kept by the renderer on every paint, read by the handlers.
    private static let rowsBelowCursor = Atomic<Int>(-1)

    /// Set when the process stops with the terminal in line mode: the plain renderer's open
    /// question is asked again when it comes back.
    private static let stoppedInLineMode = Atomic<Bool>(false)

    /// How many times the process came back from a suspend: a renderer that sees it change
    /// draws anew instead of moving back over its old drawing.
    private static let resumeCount = Atomic<Int>(0)

    /// The self-pipe that wakes a blocked reader: a byte for a resize or a resume. Made once,
    /// before any handler is installed; -1 when no pipe could be made.
    private static let wakePipe: (reader: Int32, writer: Int32) = {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return (-1, -1) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        return (fds[0], fds[1])
    }()

    /// The end of the wake pipe a reader polls beside its input.
    public static var wakeReader: Int32 { wakePipe.reader }

    /// The bytes written to the wake pipe.
    static let resizeSignal: UInt8 = 1
    static let resumeSignal: UInt8 = 2
    /// What a screen shows changed elsewhere (``TerminalKeys/changedElsewhere()``).
    static let changeSignal: UInt8 = 3

    // MARK: - Setting up

    /// Makes the wake pipe and touches every global a handler uses, so none is first initialised
    /// inside a handler. Safe to call more than once.
    public static func prepare() {
        _ = mode.load(ordering: .relaxed)
        _ = rowsBelowCursor.load(ordering: .relaxed)
        _ = resumeCount.load(ordering: .relaxed)
        _ = stoppedInLineMode.load(ordering: .relaxed)
        _ = saved
        _ = wakePipe
    }

    /// Installs the handlers for Ctrl-Z (SIGTSTP) and `fg` (SIGCONT).
    public static func installJobControl() {
        prepare()
        signal(SIGTSTP, onStop)
        signal(SIGCONT, onContinue)
    }

    /// Wakes the key reader with a resize (SIGWINCH).
    public static func watchResizes() {
        prepare()
        signal(SIGWINCH, onResize)
    }

    // MARK: - Modes

    /// Stops the terminal echoing typed characters (for secrets), remembering the mode to restore.
    public static func disableEcho() {
        var current = termios()
        guard tcgetattr(STDIN_FILENO, &current) == 0 else { return }
        saved.pointee = current
        var quiet = current
        quiet.c_lflag &= ~tcflag_t(ECHO)
        mode.store(Mode.secret.rawValue, ordering: .sequentiallyConsistent)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
    }

    /// Raw input for the interactive renderer: keys arrive one by one, unechoed; Ctrl-C still
    /// interrupts and Ctrl-Z still stops (the handlers restore the terminal). Turns bracketed
    /// paste on.
    public static func enableInteractive() {
        var current = termios()
        guard tcgetattr(STDIN_FILENO, &current) == 0 else { return }
        saved.pointee = current
        var raw = raw(from: current)
        mode.store(Mode.interactive.rawValue, ordering: .sequentiallyConsistent)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        writeAll(Array("\u{1B}[?2004h".utf8), to: STDERR_FILENO)
    }

    /// Puts the terminal back as it was before the last change; does nothing if nothing changed.
    /// Safe to call from a signal handler.
    public static func restore() {
        let previous = mode.exchange(Mode.line.rawValue, ordering: .sequentiallyConsistent)
        switch Mode(rawValue: previous) {
        case .interactive?:
            emit(StaticString("\u{1B}[?2004l\u{1B}[?25h"))
            tcsetattr(STDIN_FILENO, TCSANOW, saved)
        case .secret?:
            tcsetattr(STDIN_FILENO, TCSANOW, saved)
        default:
            // Line mode, or suspended: the terminal is already as it was.
            break
        }
    }

    /// Before the process exits on a signal: the cursor goes to a fresh line below the
    /// interactive renderer's drawing (or, with `endingLine`, below an open prompt), then the
    /// terminal is restored. Safe to call from a signal handler.
    public static func leave(endingLine: Bool) {
        if !moveBelowDrawing(), endingLine { emit(StaticString("\n")) }
        restore()
    }

    /// Whether the process was stopped and is not back in front: nothing should be drawn.
    public static var isSuspended: Bool {
        let current = mode.load(ordering: .sequentiallyConsistent)
        return current == Mode.suspendedInteractive.rawValue || current == Mode.suspendedSecret.rawValue
    }

    /// How many times the process came back from a suspend.
    public static var resumes: Int { resumeCount.load(ordering: .sequentiallyConsistent) }

    /// The interactive renderer says how many rows of its drawing are below the cursor (nil when
    /// nothing is drawn), so a handler can put the cursor below it.
    public static func drawingBelowCursor(_ rows: Int?) {
        rowsBelowCursor.store(rows ?? -1, ordering: .sequentiallyConsistent)
    }

    // MARK: - Sizes

    /// The terminal's width in columns (80 when it cannot tell).
    public static func width() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// The terminal's height in rows (24 when it cannot tell).
    public static func height() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return 24 }
        return Int(size.ws_row)
    }

    // MARK: - In signal handlers

    /// The raw mode made from a line mode.
    private static func raw(from line: termios) -> termios {
        var raw = line
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// Moves the cursor to a fresh line below the drawing, if there is one; says whether it did.
    private static func moveBelowDrawing() -> Bool {
        guard mode.load(ordering: .sequentiallyConsistent) == Mode.interactive.rawValue else { return false }
        let below = rowsBelowCursor.exchange(-1, ordering: .sequentiallyConsistent)
        guard below >= 0 else { return false }
        // Line feeds, not a cursor movement: they need no number written, and the last one
        // scrolls when the drawing ends on the terminal's last row.
        for _ in 0...below { emit(StaticString("\r\n")) }
        return true
    }

    /// SIGTSTP: restore the terminal, stop, and on the way back set the mode again.
    fileprivate static func stop() {
        switch Mode(rawValue: mode.load(ordering: .sequentiallyConsistent)) {
        case .interactive?:
            _ = moveBelowDrawing()
            emit(StaticString("\u{1B}[?2004l\u{1B}[?25h"))
            tcsetattr(STDIN_FILENO, TCSANOW, saved)
            resumeCount.add(1, ordering: .sequentiallyConsistent)
            mode.store(Mode.suspendedInteractive.rawValue, ordering: .sequentiallyConsistent)
        case .secret?:
            tcsetattr(STDIN_FILENO, TCSANOW, saved)
            mode.store(Mode.suspendedSecret.rawValue, ordering: .sequentiallyConsistent)
        case .line?:
            stoppedInLineMode.store(true, ordering: .sequentiallyConsistent)
        default:
            break
        }
        // Stop for real: the default action, unblocked (the handler runs with SIGTSTP blocked).
        signal(SIGTSTP, SIG_DFL)
        var stopping = sigset_t()
        sigemptyset(&stopping)
        sigaddset(&stopping, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &stopping, nil)
        kill(getpid(), SIGTSTP)
        // Continued (or never stopped: the kernel discards a stop for an orphaned process group).
        signal(SIGTSTP, onStop)
        resume()
    }

    /// SIGCONT, or the end of `stop()`: set the mode again once the process is in front. In the
    /// background it waits for the next SIGCONT (`fg`); reading the terminal would stop it anyway.
    fileprivate static func resume() {
        guard tcgetpgrp(STDIN_FILENO) == getpgrp() else { return }
        if mode.compareExchange(expected: Mode.suspendedInteractive.rawValue, desired: Mode.interactive.rawValue, ordering: .sequentiallyConsistent).exchanged {
            // The shell may have changed the line mode meanwhile: that is the one to go back to.
            var current = termios()
            if tcgetattr(STDIN_FILENO, &current) == 0 { saved.pointee = current }
            var raw = raw(from: saved.pointee)
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            emit(StaticString("\u{1B}[?2004h"))
            wake(resumeSignal)
        } else if mode.compareExchange(expected: Mode.suspendedSecret.rawValue, desired: Mode.secret.rawValue, ordering: .sequentiallyConsistent).exchanged {
            var current = termios()
            if tcgetattr(STDIN_FILENO, &current) == 0 { saved.pointee = current }
            var quiet = saved.pointee
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
            wake(resumeSignal)
        } else if stoppedInLineMode.exchange(false, ordering: .sequentiallyConsistent) {
            wake(resumeSignal)
        }
    }

    static func wake(_ byte: UInt8) {
        guard wakePipe.writer >= 0 else { return }
        var byte = byte
        _ = write(wakePipe.writer, &byte, 1)
    }

    private static func emit(_ text: StaticString) {
        _ = write(STDERR_FILENO, text.utf8Start, text.utf8CodeUnitCount)
    }
}

// Signal handlers: plain functions, so they can be C function pointers. Each keeps errno as it was.

private func onStop(_: Int32) {
    let error = errno
    TerminalModes.stop()
    errno = error
}

private func onContinue(_: Int32) {
    let error = errno
    TerminalModes.resume()
    errno = error
}

private func onResize(_: Int32) {
    let error = errno
    TerminalModes.wake(TerminalModes.resizeSignal)
    errno = error
}
