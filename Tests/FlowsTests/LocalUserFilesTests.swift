import FlowsServices
import Foundation
import Primitives
import Testing

@Suite("Files a user names")
struct LocalUserFilesTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("user-files-\(UUID().uuidString)")

    private func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test("a file is read whole, with spaces in its name, from ~/ and from a relative path")
    func reads() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try write("my picture.png", [1, 2, 3])
        let files = LocalUserFiles(home: folder.path, workingDirectory: folder.path)
        #expect(try files.contents(of: path, atMost: 10) == [1, 2, 3])
        #expect(try files.contents(of: "  ~/my picture.png ", atMost: 10) == [1, 2, 3])
        #expect(try files.contents(of: "my picture.png", atMost: 10) == [1, 2, 3])
        #expect(try files.contents(of: try write("empty", []), atMost: 10) == [])
    }

    @Test("each failure names the file and what was wrong")
    func refusals() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = try write("big.jpg", Array(repeating: 7, count: 2 << 20))
        let files = LocalUserFiles(home: folder.path, workingDirectory: folder.path)
        let cases: [(String, UserFileProblem, String)] = [
            ("  ", .noPath, "Enter the path of a file."),
            ("me\u{7}.png", .controlCharacters, "A file name cannot contain control characters."),
            ("missing.png", .notFound("missing.png"), "There is no file missing.png."),
            (big + "/inside", .notFound(big + "/inside"), "There is no file \(big)/inside."),
            (folder.path, .isFolder(folder.path), "\(folder.path) is a folder, not a file."),
            (big, .tooLarge(big, bytes: 2 << 20, limit: 1 << 20), "\(big) is 2 MiB; at most 1 MiB is taken."),
        ]
        for (path, problem, message) in cases {
            #expect(throws: problem) { try files.contents(of: path, atMost: 1 << 20) }
            #expect(problem.message == message)
        }
    }
}
