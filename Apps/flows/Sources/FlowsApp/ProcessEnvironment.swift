#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables, each read when asked for (`getenv`).
///
/// A start reads a few variables, not the whole environment: Foundation's
/// `ProcessInfo.processInfo.environment` costs about 0.75 ms the first time (setting up
/// `ProcessInfo`, then a dictionary of every variable), a tenth of a start to the first screen
/// (docs/architecture.md, Start-up). What reads many variables (an interactive terminal's
/// colours and pictures) still takes Foundation's dictionary.
struct ProcessEnvironment: Sendable {
    /// A variable's value; nil when it is not set.
    subscript(name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
