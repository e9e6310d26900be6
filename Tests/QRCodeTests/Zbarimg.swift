import Foundation
import QRCode

/// Reads QR codes back with zbarimg, many images to a process.
enum Zbarimg {
    /// The text zbarimg reads from each image, nil where it reads none. `-Sbinary` makes it
    /// print the symbols' bytes as they are: without it, zbar guesses a character set for
    /// byte-mode data and turns some short UTF-8 texts into Shift JIS. Binary output has no
    /// separator between symbols, so a batch passes when its output is exactly the expected
    /// texts one after the other; otherwise each image of the batch is read again alone, to
    /// say which ones fail.
    static func decode(
        _ images: [ModuleImage],
        expecting expected: [String],
        scale: Int = 3,
        in folder: ScratchFolder
    ) async throws -> [String?] {
        let tool = try ExternalTool.zbarimg.get()
        var files: [String] = []
        for (index, image) in images.enumerated() {
            let file = folder.file("image-\(index).pgm")
            try image.portableGraymap(scale: scale).write(to: file)
            files.append(file.path)
        }
        var results: [String?] = []
        for start in stride(from: 0, to: files.count, by: 50) {
            let range = start..<min(start + 50, files.count)
            let output = try await read(tool, Array(files[range]))
            if output == Data(expected[range].joined().utf8) {
                results.append(contentsOf: expected[range].map { Optional($0) })
            } else {
                for file in files[range] {
                    let single = try await read(tool, [file])
                    results.append(single.isEmpty ? nil : String(decoding: single, as: UTF8.self))
                }
            }
        }
        return results
    }

    private static func read(_ tool: ExternalTool, _ files: [String]) async throws -> Data {
        try await tool.run(["--raw", "-q", "--nodbus", "-Sbinary"] + files).output
    }
}
