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

    /// Puts the terminal back as it was before the last change; does nothing if nothing changed.
    public static func restore() {
        guard var mode = saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &mode)
        saved = nil
    }
}
