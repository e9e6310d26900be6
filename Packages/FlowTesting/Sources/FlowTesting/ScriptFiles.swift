import Foundation

/// Reading and writing the harness's files (scripts, transcripts) with the system's own reasons
/// for a failure ("No such file or directory", "Is a directory"), not a framework's codes.
public enum ScriptFiles {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public static func read(_ path: String) throws(Problem) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Problem(description: "cannot read \(path): \(reason(errno))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Problem(description: "cannot read \(path): \(reason(errno))") }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem(description: "cannot read \(path): it is not valid UTF-8 text")
        }
        return text
    }

    public static func write(_ text: String, to path: String) throws(Problem) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Problem(description: "cannot write \(path): \(reason(errno))") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Problem(description: "cannot write \(path): \(reason(written < 0 ? errno : EIO))") }
            offset += written
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
