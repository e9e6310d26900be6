import Foundation
import Testing

/// What `flows` loads to start: nothing for networking until a server is used.
@Suite("What flows loads at start")
struct StartupTests {
    @Test("flows is not linked to libcurl, any library behind it, or libcrypt: a server's client opens libcurl at its first request, and bcrypt libcrypt at the first password")
    func noNetworkingAtStart() async throws {
        let needed = try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
            process.arguments = [FlowsProcess.executable.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        #expect(needed.contains("libc.so"), "ldd read nothing: \(needed)")
        for library in ["libcurl", "libssl", "libnghttp2", "libgssapi", "libldap", "libcrypt"] {
            #expect(!needed.contains(library), "flows needs \(library) to start:\n\(needed)")
        }
    }
}
