#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Changes to the terminal's mode, and the way back, on every exit path.
///
/// The saved mode is kept in a global so a signal handler can restore it: `tcsetattr` is
/// async-signal-safe, and a handler must not take locks.
public enum TerminalModes {
    // Written only by the thread that reads standard input, before and after a read; read by
    // `restore()`, possibly from a signal handler. A stale value is still a mode the terminal
    // had, so restoring it is always safe.
    nonisolated(unsafe) private static var saved: termios?

    /// Stops the terminal echoing typed characters (for secrets), remembering the mode to restore.
    public static func disableEcho() {
        var mode = termios()
        guard tcgetattr(STDIN_FILENO, &mode) == 0 else { return }
        saved = mode
        mode.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &mode)
    }

    // Set while the interactive renderer owns the terminal: restoring then also turns bracketed
    // paste off and shows the cursor. Same access pattern as `saved`.
    nonisolated(unsafe) private static var interactive = false

    /// Raw input for the interactive renderer: keys arrive one by one, unechoed; Ctrl-C still
    /// interrupts (the signal handler restores the terminal). Turns bracketed paste on.
    public static func enableInteractive() {
        var mode = termios()
        guard tcgetattr(STDIN_FILENO, &mode) == 0 else { return }
        saved = mode
        mode.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        mode.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &mode.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &mode)
        interactive = true
        writeAll(Array("\u{1B}[?2004h".utf8), to: STDERR_FILENO)
    }

    /// Puts the terminal back as it was before the last change; does nothing if nothing changed.
    /// Safe to call from a signal handler.
    public static func restore() {
        if interactive {
            interactive = false
            let reset: StaticString = "\u{1B}[?2004l\u{1B}[?25h"
            _ = write(STDERR_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
        }
        guard var mode = saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &mode)
        saved = nil
    }

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
}
