import Foundation
import Testing

/// docs/embedding.md shows the example that Scripts/test builds and runs, word for word.
@Suite("docs/embedding.md")
struct EmbeddingDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced Swift blocks of a markdown text.
    private func swiftBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append((current ?? []).joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("its manifest and its code are the example's files")
    func showsTheExample() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/embedding.md"), encoding: .utf8)
        let example = Self.root.appendingPathComponent("Examples/Embedding")
        let files = try ["Package.swift", "Sources/SplitDinner/main.swift"].map {
            try String(contentsOf: example.appendingPathComponent($0), encoding: .utf8).trimmingCharacters(in: .newlines)
        }
        #expect(swiftBlocks(doc) == files)
    }
}
