import Foundation

/// Reads the modules of one package from `swift package dump-package` output.
public enum ManifestReader {
    /// The package's regular and executable targets, with the modules their manifest names.
    /// Product dependencies are resolved through `productTargets` (a product's name to its
    /// targets, across the project); an unknown product is taken as a module of its own name.
    public static func modules(
        dumpJSON: Data,
        packagePath: String,
        productTargets: [String: [String]]
    ) throws -> [ProjectModule] {
        let manifest = try JSONDecoder().decode(Manifest.self, from: dumpJSON)
        return manifest.targets.filter { $0.type != "test" && $0.type != "plugin" }.map { target in
            let dependencies = target.dependencies.flatMap { dependency -> [String] in
                if let name = dependency.byName?.first ?? dependency.target?.first, let name {
                    return [name]
                }
                if let name = dependency.product?.first, let name {
                    return productTargets[name] ?? [name]
                }
                return []
            }
            return ProjectModule(name: target.name, packagePath: packagePath, manifestDependencies: dependencies)
        }
    }

    /// A product's name to its targets, for one package.
    public static func productTargets(dumpJSON: Data) throws -> [String: [String]] {
        let manifest = try JSONDecoder().decode(Manifest.self, from: dumpJSON)
        return Dictionary(manifest.products.map { ($0.name, $0.targets) }, uniquingKeysWith: { first, _ in first })
    }

    /// Where a target's sources are, relative to its package.
    public static func sourcePaths(dumpJSON: Data) throws -> [String: String] {
        let manifest = try JSONDecoder().decode(Manifest.self, from: dumpJSON)
        return Dictionary(manifest.targets.map { ($0.name, $0.path ?? "Sources/\($0.name)") }, uniquingKeysWith: { first, _ in first })
    }

    private struct Manifest: Decodable {
        var targets: [Target]
        var products: [Product]
    }

    private struct Product: Decodable {
        var name: String
        var targets: [String]
    }

    private struct Target: Decodable {
        var name: String
        var type: String
        var path: String?
        var dependencies: [Dependency]
    }

    private struct Dependency: Decodable {
        var byName: [String?]?
        var target: [String?]?
        var product: [String?]?
    }
}
