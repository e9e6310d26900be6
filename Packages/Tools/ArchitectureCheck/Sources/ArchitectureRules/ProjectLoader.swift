import Foundation
import Synchronization

/// Loads the module graph of the project on disk: every package under Packages/ (its manifest,
/// through `swift package dump-package`) and every import of its sources.
public struct ProjectLoader: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func loadModules() throws -> [ProjectModule] {
        let packages = try packageDirectories()
        // One `swift package dump-package` per package, run side by side: each takes about a second.
        let results = Mutex<[String: Result<Data, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: packages.count) { index in
            let result = Result { try dumpPackage(at: packages[index]) }
            results.withLock { $0[packages[index]] = result }
        }
        var dumps: [String: Data] = [:]
        for (package, result) in results.withLock({ $0 }) {
            dumps[package] = try result.get()
        }

        var productTargets: [String: [String]] = [:]
        for data in dumps.values {
            productTargets.merge(try ManifestReader.productTargets(dumpJSON: data)) { first, _ in first }
        }
        var modules: [ProjectModule] = []
        for package in packages.sorted() {
            guard let data = dumps[package] else { continue }
            let sourcePaths = try ManifestReader.sourcePaths(dumpJSON: data)
            for var module in try ManifestReader.modules(dumpJSON: data, packagePath: package, productTargets: productTargets) {
                let sources = "\(package)/\(sourcePaths[module.name] ?? "Sources/\(module.name)")"
                module.imports = try imports(under: sources)
                modules.append(module)
            }
        }
        return modules
    }

    /// The flow hierarchy of docs/architecture.md.
    public func loadHierarchy() throws -> FlowHierarchy? {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        return FlowHierarchy.parse(markdown: text)
    }

    /// Every folder under Packages/ with a Package.swift, relative to the root.
    func packageDirectories() throws -> [String] {
        let packagesURL = root.appendingPathComponent("Packages")
        guard let walker = FileManager.default.enumerator(at: packagesURL, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if name.hasPrefix(".build") || name == "Sources" || name == "Tests" {
                walker.skipDescendants()
                continue
            }
            if name == "Package.swift" {
                found.append(relativePath(of: url.deletingLastPathComponent()))
            }
        }
        return found.sorted()
    }

    private func imports(under relative: String) throws -> [ImportStatement] {
        let directory = root.appendingPathComponent(relative)
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var result: [ImportStatement] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            result += ImportScanner.imports(in: text, file: relativePath(of: url))
        }
        return result.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
    }

    private func relativePath(of url: URL) -> String {
        let base = root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(base) else { return path }
        return String(path.dropFirst(base.count).drop(while: { $0 == "/" }))
    }

    private func dumpPackage(at relative: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "dump-package", "--package-path", root.appendingPathComponent(relative).path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LoadError(message: "swift package dump-package failed for \(relative): \(errorText)")
        }
        return data
    }

    struct LoadError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
