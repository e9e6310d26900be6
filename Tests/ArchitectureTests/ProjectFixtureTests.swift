import ArchitectureRules
import Foundation
import Testing

/// The whole check over a small project on disk, read as the real project is: manifests through
/// `swift package dump-package`, imports from the sources.
@Suite("check-architecture over a fixture on disk")
struct ProjectFixtureTests {
    @Test("a planted import of an implementation in a flow is found and named")
    func plantedViolation() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("architecture-fixture-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try write(root, "docs/architecture.md", """
            ```mermaid
            %% flow-hierarchy
            graph TD
              Solo --> Nothing
            ```
            """)
        try write(root, "Packages/Domain/Notes/Package.swift", """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "Notes",
                products: [
                    .library(name: "Notes", targets: ["Notes"]),
                    .library(name: "NotesLive", targets: ["NotesLive"]),
                ],
                targets: [.target(name: "Notes"), .target(name: "NotesLive", dependencies: ["Notes"])]
            )
            """)
        try write(root, "Packages/Domain/Notes/Sources/Notes/Note.swift", "public struct Note {}\n")
        try write(root, "Packages/Domain/Notes/Sources/NotesLive/LiveNotes.swift", "import Notes\n")
        try write(root, "Packages/Flows/SoloFlow/Package.swift", """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "SoloFlow",
                products: [.library(name: "SoloFlow", targets: ["SoloFlow"])],
                dependencies: [.package(path: "../../Domain/Notes")],
                targets: [.target(name: "SoloFlow", dependencies: [.product(name: "Notes", package: "Notes")])]
            )
            """)
        try write(root, "Packages/Flows/SoloFlow/Sources/SoloFlow/SoloFlow.swift", "import Notes\nimport NotesLive\n")

        let loader = ProjectLoader(root: root)
        let modules = try loader.loadModules()
        #expect(modules.map(\.name).sorted() == ["Notes", "NotesLive", "SoloFlow"])
        let hierarchy = try #require(try loader.loadHierarchy())
        let found = ArchitectureRules.violations(in: modules, hierarchy: hierarchy)
        #expect(found.map(\.description) == [
            "SoloFlow -> NotesLive: a flow depends on an implementation module (Packages/Flows/SoloFlow/Sources/SoloFlow/SoloFlow.swift:2)",
        ])
    }

    private func write(_ root: URL, _ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}
