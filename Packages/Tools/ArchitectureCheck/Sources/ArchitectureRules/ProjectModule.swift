/// A module of the project as the rules see it: where it lives, what its manifest says it
/// depends on, and what its sources import.
public struct ProjectModule: Equatable, Sendable {
    public var name: String
    /// The folder of its package, relative to the project root (`Packages/Domain/Accounts`).
    public var packagePath: String
    /// Modules named by its target's dependencies in the package manifest.
    public var manifestDependencies: [String]
    /// Every `import` in its sources.
    public var imports: [ImportStatement]

    public init(name: String, packagePath: String, manifestDependencies: [String] = [], imports: [ImportStatement] = []) {
        self.name = name
        self.packagePath = packagePath
        self.manifestDependencies = manifestDependencies
        self.imports = imports
    }

    /// What the module is, from where it lives and its name.
    public var role: ModuleRole { ModuleRole(module: name, packagePath: packagePath) }
}

/// One `import` line of a source file.
public struct ImportStatement: Equatable, Sendable {
    public var module: String
    public var file: String
    public var line: Int

    public init(module: String, file: String, line: Int) {
        self.module = module
        self.file = file
        self.line = line
    }
}

/// What a module is in the layering of docs/architecture.md.
public enum ModuleRole: Equatable, Sendable {
    /// A module of Packages/FlowKit: the architecture itself, which knows nothing of the app.
    case flowKit
    /// What draws FlowKit's screens or drives them: a renderer under Packages/Renderers, or the
    /// harness under Packages/FlowTesting. They know FlowKit and general tools, not the app.
    case renderer
    /// A flow package under Packages/Flows.
    case flow
    /// Behaviours several flows share (form fields), under Packages/FlowSupport: the flow layer's
    /// own library, on FlowKit and the domain's abstract modules.
    case flowSupport
    /// The abstract module of an area's Domain or Data package: the one named like its package
    /// (`Packages/Domain/Accounts`, `Packages/Data/AccountsData`).
    case abstract
    /// Any other module of a Domain or Data package (`AccountsLive`, `AccountsDataSQLite`), the
    /// server's stores under Packages/Data/Postgres and the Remote services under Packages/Remote.
    case implementation
    /// Plumbing and general tools under Packages/Infrastructure, used by implementations.
    case infrastructure
    /// Developer tools under Packages/Tools; not part of the app.
    case tool
    /// Anything else (the root package: the app and the tests).
    case compositionRoot

    public init(module: String, packagePath: String) {
        let parts = packagePath.split(separator: "/").map(String.init)
        guard parts.first == "Packages", parts.count >= 2 else {
            self = .compositionRoot
            return
        }
        switch parts[1] {
        case "FlowKit": self = .flowKit
        case "Renderers", "FlowTesting": self = .renderer
        case "Flows": self = .flow
        case "FlowSupport": self = .flowSupport
        case "Domain", "Data": self = parts.count == 3 && module == parts[2] ? .abstract : .implementation
        case "Remote": self = .implementation
        case "Infrastructure": self = .infrastructure
        case "Tools": self = .tool
        default: self = .compositionRoot
        }
    }
}
