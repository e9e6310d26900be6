/// The layering rules of docs/architecture.md, checked over every edge of the module graph.
///
/// An edge is a dependency in a package manifest or an `import` in a source file; both are
/// checked, because SwiftPM lets a module import what it reaches only transitively.
public enum ArchitectureRules {
    /// Modules that come with the toolchain; any module may import them.
    public static let systemModules: Set<String> = [
        "Swift", "_Concurrency", "Foundation", "FoundationEssentials", "FoundationNetworking",
        "Dispatch", "Synchronization", "Glibc", "Musl", "Darwin", "WinSDK", "Observation",
    ]

    /// The test frameworks: only the harness's test-support module and the tests may import them,
    /// so the app never links them.
    public static let testFrameworks: Set<String> = ["Testing", "XCTest"]

    /// The harness's module that gives Swift tests their API over flows (it imports Swift Testing).
    public static let testSupportModule = "FlowTestSupport"

    /// The third-party libraries a renderer may draw with: the web renderer's templates, which
    /// escape every value.
    public static let rendererLibraries: Set<String> = ["Mustache"]

    /// What a flow's View may import: it maps a ViewState to a Screen and nothing more.
    public static let viewImports: Set<String> = ["FlowKit", "Primitives"]

    public static func violations(in modules: [ProjectModule], hierarchy: FlowHierarchy) -> [Violation] {
        let byName = Dictionary(modules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var found: [Violation] = []
        for module in modules.sorted(by: { $0.name < $1.name }) {
            if module.role == .flow, !hierarchy.contains(module: module.name) {
                found.append(Violation(
                    from: module.name, to: module.name, evidence: "docs/architecture.md",
                    rule: "a flow missing from the flow hierarchy graph"
                ))
            }
            for (target, evidence) in edges(of: module) {
                guard target != module.name, !systemModules.contains(target) else { continue }
                if let rule = broken(from: module, to: target, byName: byName, hierarchy: hierarchy) {
                    found.append(Violation(from: module.name, to: target, evidence: evidence, rule: rule))
                }
            }
            if module.role == .flow {
                for statement in module.imports where isView(statement.file) && !viewImports.contains(statement.module)
                    && !systemModules.contains(statement.module)
                {
                    found.append(Violation(
                        from: module.name, to: statement.module, evidence: "\(statement.file):\(statement.line)",
                        rule: "a View imports \(statement.module); Views import FlowKit and Primitives only (domain messages reach them in the ViewState)"
                    ))
                }
            }
        }
        return found
    }

    /// Whether a source file is a flow's View (`SignInView.swift`).
    private static func isView(_ file: String) -> Bool {
        file.split(separator: "/").last?.hasSuffix("View.swift") ?? false
    }

    /// Every edge of a module, once per target and evidence.
    private static func edges(of module: ProjectModule) -> [(String, String)] {
        var seen = Set<String>()
        var result: [(String, String)] = []
        for dependency in module.manifestDependencies where seen.insert("\(dependency)|manifest").inserted {
            result.append((dependency, "\(module.packagePath)/Package.swift"))
        }
        for statement in module.imports where seen.insert("\(statement.module)|\(statement.file)").inserted {
            result.append((statement.module, "\(statement.file):\(statement.line)"))
        }
        return result
    }

    /// Whether a module of the root package is a test target (under Tests/).
    private static func isTest(_ module: ProjectModule) -> Bool {
        module.imports.allSatisfy { $0.file.hasPrefix("Tests/") } && module.name.hasSuffix("Tests")
    }

    /// The packages of implementations every area's implementations share: the shared values'
    /// wire form (ids, money, days), which every area's Remote module reads and writes them
    /// with, and the change log every area's stores write (on SQLite, in DataChanges' package;
    /// on PostgreSQL, a package of its own).
    static let sharedImplementationPackages: Set<String> = [
        "Packages/Remote/PrimitivesRemote", "Packages/Data/DataChanges", "Packages/Data/Postgres/DataChangesPostgres",
    ]

    /// The packages that carry every area's values (a replica's pull), and so may use the other
    /// areas' Remote modules, their wire forms.
    static let everyAreasWirePackages: Set<String> = ["Packages/Remote/SyncRemote"]

    /// The rule an edge breaks, if any.
    private static func broken(
        from module: ProjectModule,
        to target: String,
        byName: [String: ProjectModule],
        hierarchy: FlowHierarchy
    ) -> String? {
        let targetModule = byName[target]
        let targetRole = targetModule?.role
        let samePackage = targetModule?.packagePath == module.packagePath

        switch module.role {
        case .flowKit:
            guard targetRole == .flowKit else { return "FlowKit imports code outside FlowKit" }
            return nil

        case .renderer:
            if testFrameworks.contains(target) {
                return module.name == testSupportModule
                    ? nil : "a renderer or the harness imports \(target); only \(testSupportModule) may, so the app never links it"
            }
            switch targetRole {
            case .flowKit, .renderer, .infrastructure: return nil
            case .flow, .flowSupport: return "a renderer or the harness depends on the flow layer; it draws any flow's screens"
            case .abstract, .implementation: return "a renderer or the harness depends on an area module; it knows FlowKit only"
            case .tool, .compositionRoot: return "a renderer or the harness depends on \(target)"
            case nil:
                return rendererLibraries.contains(target) ? nil : "a renderer or the harness imports the third-party module \(target)"
            }

        case .abstract:
            switch targetRole {
            case .abstract: return nil
            case .implementation: return "an abstract module depends on an implementation module"
            case .infrastructure: return "an abstract module depends on infrastructure"
            case .flow, .flowKit, .flowSupport, .renderer: return "an abstract module depends on the flow layer"
            case .tool, .compositionRoot: return "an abstract module depends on \(target)"
            case nil: return "an abstract module imports the third-party module \(target); abstract modules hold plain values and protocols"
            }

        case .flow:
            switch targetRole {
            case .abstract, .flowSupport: return nil
            case .flowKit: return nil
            case .renderer: return "a flow depends on the renderer or harness \(target); flows know FlowKit only"
            case .flow:
                return hierarchy.isDirectChild(target, of: module.name)
                    ? nil : "a flow imports a flow that is not its direct child"
            case .implementation, .infrastructure: return "a flow depends on an implementation module"
            case .tool, .compositionRoot: return "a flow depends on \(target)"
            case nil: return "a flow imports the third-party module \(target)"
            }

        case .flowSupport:
            switch targetRole {
            case .abstract, .flowSupport: return nil
            case .flowKit: return nil
            case .renderer: return "flow support depends on the renderer or harness \(target); it knows FlowKit only"
            case .flow: return "flow support depends on a flow; flows depend on it"
            case .implementation: return "flow support depends on an implementation module"
            case .infrastructure: return "flow support depends on infrastructure"
            case .tool, .compositionRoot: return "flow support depends on \(target)"
            case nil: return "flow support imports the third-party module \(target)"
            }

        case .implementation:
            switch targetRole {
            case .abstract, .infrastructure, nil: return nil
            case .implementation:
                // The shared values' wire form and the change log are every area's, as Primitives itself is.
                if samePackage || targetModule.map({ sharedImplementationPackages.contains($0.packagePath) }) == true { return nil }
                if everyAreasWirePackages.contains(module.packagePath), targetModule?.packagePath.hasPrefix("Packages/Remote/") == true { return nil }
                return "an implementation depends on another area's implementation; only the composition root wires implementations"
            case .flow, .flowKit, .flowSupport, .renderer: return "an implementation depends on the flow layer"
            case .tool, .compositionRoot: return "an implementation depends on \(target)"
            }

        case .infrastructure:
            switch targetRole {
            case .infrastructure, nil: return nil
            default: return "infrastructure depends on an area module"
            }

        case .compositionRoot:
            return isTest(module) || !(testFrameworks.contains(target) || target == testSupportModule)
                ? nil : "the app depends on \(target), which is for tests only"

        case .tool:
            return nil
        }
    }
}
