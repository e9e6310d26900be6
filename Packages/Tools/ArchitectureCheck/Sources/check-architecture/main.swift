import ArchitectureRules
import Foundation

// Checks the architecture rules of docs/architecture.md over the project in the current
// folder (or the folder given as the first argument). Exits 1 naming every offending edge.

let root = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath)
let loader = ProjectLoader(root: root)
do {
    guard let hierarchy = try loader.loadHierarchy() else {
        print("check-architecture: docs/architecture.md has no mermaid graph marked %% flow-hierarchy")
        exit(1)
    }
    let modules = try loader.loadModules()
    let violations = ArchitectureRules.violations(in: modules, hierarchy: hierarchy)
    if violations.isEmpty {
        let imports = modules.reduce(0) { $0 + $1.imports.count }
        print("check-architecture: \(modules.count) modules, \(imports) imports, no violations")
    } else {
        for violation in violations { print("violation: \(violation)") }
        print("check-architecture: \(violations.count) violation(s)")
        exit(1)
    }
} catch {
    print("check-architecture: \(error)")
    exit(1)
}
