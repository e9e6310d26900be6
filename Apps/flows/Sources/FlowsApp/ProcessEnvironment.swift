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
/// `ProcessInfo`, then a dictionary of every variable), and even a dictionary built here costs
/// the runtime's first look-up of `String: Hashable`, a scan of every conformance in the binary.
/// Together a tenth of a start to the first screen (docs/architecture.md, Start-up).
struct ProcessEnvironment: Sendable {
    /// A variable's value; nil when it is not set.
    subscript(name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every variable, for what reads many (the interactive terminal's colours and pictures).
    var all: [String: String] {
        var values: [String: String] = [:]
        #if canImport(Darwin)
        guard var entry = _NSGetEnviron().pointee else { return values }
        #else
        var entry = environ
        #endif
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            // As getenv reads it: the name ends at the first "="; the first of two same names wins.
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if values[name] == nil { values[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return values
    }
}
