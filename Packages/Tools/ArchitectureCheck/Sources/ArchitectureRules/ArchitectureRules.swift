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
        }
        return found
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

        case .abstract:
            switch targetRole {
            case .abstract: return nil
            case .implementation: return "an abstract module depends on an implementation module"
            case .infrastructure: return "an abstract module depends on infrastructure"
            case .flow, .flowKit: return "an abstract module depends on the flow layer"
            case .tool, .compositionRoot: return "an abstract module depends on \(target)"
            case nil: return "an abstract module imports the third-party module \(target); abstract modules hold plain values and protocols"
            }

        case .flow:
            switch targetRole {
            case .abstract: return nil
            case .flowKit: return target == "FlowKit" ? nil : "a flow depends on the renderer or harness \(target); flows know FlowKit only"
            case .flow:
                return hierarchy.isDirectChild(target, of: module.name)
                    ? nil : "a flow imports a flow that is not its direct child"
            case .implementation, .infrastructure: return "a flow depends on an implementation module"
            case .tool, .compositionRoot: return "a flow depends on \(target)"
            case nil: return "a flow imports the third-party module \(target)"
            }

        case .implementation:
            switch targetRole {
            case .abstract, .infrastructure, nil: return nil
            case .implementation:
                return samePackage ? nil : "an implementation depends on another area's implementation; only the composition root wires implementations"
            case .flow, .flowKit: return "an implementation depends on the flow layer"
            case .tool, .compositionRoot: return "an implementation depends on \(target)"
            }

        case .infrastructure:
            switch targetRole {
            case .infrastructure, nil: return nil
            default: return "infrastructure depends on an area module"
            }

        case .tool, .compositionRoot:
            return nil
        }
    }
}
