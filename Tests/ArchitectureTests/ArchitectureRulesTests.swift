import ArchitectureRules
import Testing

/// A small project that follows every rule; each test plants one violation in it.
private let hierarchy = FlowHierarchy(edges: [("App", "SignIn"), ("SignIn", "SignUp")])

private func module(_ name: String, _ path: String, _ dependencies: [String] = [], imports: [String] = []) -> ProjectModule {
    ProjectModule(
        name: name,
        packagePath: path,
        manifestDependencies: dependencies,
        imports: imports.enumerated().map { ImportStatement(module: $0.element, file: "\(path)/Sources/\(name)/File.swift", line: $0.offset + 1) }
    )
}

private let cleanProject: [ProjectModule] = [
    module("FlowKit", "Packages/FlowKit", imports: ["Foundation"]),
    module("FlowTerminal", "Packages/Renderers/FlowTerminal", ["FlowKit", "QRCode"], imports: ["FlowKit", "QRCode", "Glibc"]),
    module("FlowTestSupport", "Packages/FlowTesting", ["FlowKit"], imports: ["FlowKit", "Testing"]),
    module("QRCode", "Packages/Infrastructure/QRCode"),
    module("Primitives", "Packages/Domain/Primitives", imports: ["Synchronization"]),
    module("Accounts", "Packages/Domain/Accounts", ["Primitives"], imports: ["Primitives"]),
    module("AccountsLive", "Packages/Domain/Accounts", ["Accounts", "AccountsData", "Crypto"], imports: ["Accounts", "AccountsData", "Crypto"]),
    module("AccountsData", "Packages/Data/AccountsData"),
    module("AccountsDataSQLite", "Packages/Data/AccountsData", ["AccountsData", "LocalStore", "GRDB"], imports: ["AccountsData", "LocalStore", "GRDB"]),
    module("LocalStore", "Packages/Infrastructure/LocalStore", ["GRDB"], imports: ["GRDB", "Foundation"]),
    module("PostgresStore", "Packages/Infrastructure/PostgresStore", ["PostgresNIO"], imports: ["PostgresNIO"]),
    module("AccountsDataPostgres", "Packages/Data/Postgres/AccountsDataPostgres", ["AccountsData", "PostgresStore"], imports: ["AccountsData", "PostgresStore"]),
    module(
        "AccountsRemote", "Packages/Remote/AccountsRemote", ["Accounts", "FlowsAPIClient", "PrimitivesRemote"],
        imports: ["Accounts", "FlowsAPIClient", "PrimitivesRemote"]
    ),
    module("PrimitivesRemote", "Packages/Remote/PrimitivesRemote", ["Primitives", "FlowsWire"], imports: ["Primitives", "FlowsWire"]),
    module("DataChangesSQLite", "Packages/Data/DataChanges", ["LocalStore", "GRDB"], imports: ["LocalStore", "GRDB"]),
    module("SyncRemote", "Packages/Remote/SyncRemote", ["AccountsRemote", "PrimitivesRemote"], imports: ["AccountsRemote", "PrimitivesRemote"]),
    module("FlowsWire", "Packages/Infrastructure/FlowsAPI", ["OpenAPIRuntime"], imports: ["OpenAPIRuntime"]),
    module("FlowsAPIClient", "Packages/Infrastructure/FlowsAPI", ["OpenAPIRuntime"], imports: ["OpenAPIRuntime"]),
    module("FormFields", "Packages/FlowSupport", ["FlowKit", "Accounts"], imports: ["FlowKit", "Accounts", "Primitives"]),
    module("AppFlow", "Packages/Flows/AppFlow", ["FlowKit", "Accounts", "SignInFlow"], imports: ["FlowKit", "Accounts", "SignInFlow"]),
    module("SignInFlow", "Packages/Flows/SignInFlow", ["FlowKit", "Accounts", "SignUpFlow"], imports: ["FlowKit", "SignUpFlow"]),
    module("SignUpFlow", "Packages/Flows/SignUpFlow", ["FlowKit", "Accounts", "Primitives", "FormFields"], imports: ["FlowKit", "Accounts", "FormFields"]),
    module("FlowsApp", "Apps/flows", ["AccountsLive", "AccountsDataSQLite", "AppFlow"], imports: ["AccountsLive", "AccountsDataSQLite"]),
    ProjectModule(
        name: "FlowsTests", packagePath: ".", manifestDependencies: ["FlowsApp", "FlowTestSupport"],
        imports: [ImportStatement(module: "FlowTestSupport", file: "Tests/FlowsTests/SignInFlowTests.swift", line: 3)]
    ),
]

private func planting(_ change: (inout [ProjectModule]) -> Void) -> [Violation] {
    var project = cleanProject
    change(&project)
    return ArchitectureRules.violations(in: project, hierarchy: hierarchy)
}

private func add(_ edge: String, to name: String, byImport: Bool = true) -> (inout [ProjectModule]) -> Void {
    { project in
        let index = project.firstIndex { $0.name == name }!
        if byImport {
            project[index].imports.append(ImportStatement(module: edge, file: "Planted.swift", line: 7))
        } else {
            project[index].manifestDependencies.append(edge)
        }
    }
}

@Suite("Architecture rules")
struct ArchitectureRulesTests {
    @Test("the clean project has no violations")
    func clean() {
        #expect(ArchitectureRules.violations(in: cleanProject, hierarchy: hierarchy) == [])
    }

    @Test("roles come from where a module lives and its name")
    func roles() {
        #expect(ModuleRole(module: "Accounts", packagePath: "Packages/Domain/Accounts") == .abstract)
        #expect(ModuleRole(module: "AccountsLive", packagePath: "Packages/Domain/Accounts") == .implementation)
        #expect(ModuleRole(module: "AccountsData", packagePath: "Packages/Data/AccountsData") == .abstract)
        #expect(ModuleRole(module: "AccountsDataSQLite", packagePath: "Packages/Data/AccountsData") == .implementation)
        #expect(ModuleRole(module: "AccountsDataPostgres", packagePath: "Packages/Data/Postgres/AccountsDataPostgres") == .implementation)
        #expect(ModuleRole(module: "AccountsRemote", packagePath: "Packages/Remote/AccountsRemote") == .implementation)
        #expect(ModuleRole(module: "FlowKit", packagePath: "Packages/FlowKit") == .flowKit)
        #expect(ModuleRole(module: "FlowTerminal", packagePath: "Packages/Renderers/FlowTerminal") == .renderer)
        #expect(ModuleRole(module: "FlowTesting", packagePath: "Packages/FlowTesting") == .renderer)
        #expect(ModuleRole(module: "QRCode", packagePath: "Packages/Infrastructure/QRCode") == .infrastructure)
        #expect(ModuleRole(module: "SignInFlow", packagePath: "Packages/Flows/SignInFlow") == .flow)
        #expect(ModuleRole(module: "FormFields", packagePath: "Packages/FlowSupport") == .flowSupport)
        #expect(ModuleRole(module: "FlowsApp", packagePath: "Apps/flows") == .compositionRoot)
    }

    @Test("an abstract module importing an implementation is named, with the file and line")
    func abstractOnImplementation() {
        let found = planting(add("AccountsDataSQLite", to: "Accounts"))
        #expect(found == [Violation(
            from: "Accounts", to: "AccountsDataSQLite", evidence: "Planted.swift:7",
            rule: "an abstract module depends on an implementation module"
        )])
        #expect(found.first?.description == "Accounts -> AccountsDataSQLite: an abstract module depends on an implementation module (Planted.swift:7)")
    }

    @Test("an abstract module's manifest naming an implementation is caught too")
    func abstractManifest() {
        let found = planting(add("AccountsLive", to: "AccountsData", byImport: false))
        #expect(found.map(\.evidence) == ["Packages/Data/AccountsData/Package.swift"])
        #expect(found.map(\.to) == ["AccountsLive"])
    }

    @Test("abstract modules stay free of infrastructure, flows and third-party modules", arguments: ["LocalStore", "FlowKit", "GRDB"])
    func abstractLeaks(target: String) {
        #expect(planting(add(target, to: "Primitives")).map(\.to) == [target])
    }

    @Test("a flow importing a flow that is not its direct child is named")
    func flowSkipsALevel() {
        let found = planting(add("SignUpFlow", to: "AppFlow"))
        #expect(found.map(\.description) == ["AppFlow -> SignUpFlow: a flow imports a flow that is not its direct child (Planted.swift:7)"])
    }

    @Test("a flow importing its parent or a sibling is named")
    func flowUpwards() {
        #expect(planting(add("AppFlow", to: "SignUpFlow")).map(\.rule) == ["a flow imports a flow that is not its direct child"])
    }

    @Test("flows use neither implementations, infrastructure, renderers nor third-party modules", arguments: ["AccountsLive", "LocalStore", "FlowTerminal", "GRDB"])
    func flowLeaks(target: String) {
        #expect(planting(add(target, to: "SignInFlow")).map(\.to) == [target])
    }

    @Test("flow support stays on FlowKit and abstract modules, and only the flow layer uses it")
    func flowSupport() {
        #expect(planting(add("SignInFlow", to: "FormFields")).map(\.rule) == ["flow support depends on a flow; flows depend on it"])
        #expect(planting(add("FlowTerminal", to: "FormFields")).map(\.to) == ["FlowTerminal"])
        #expect(planting(add("AccountsLive", to: "FormFields")).map(\.rule) == ["flow support depends on an implementation module"])
        #expect(planting(add("FormFields", to: "Accounts")).map(\.rule) == ["an abstract module depends on the flow layer"])
        #expect(planting(add("FormFields", to: "AccountsLive")).map(\.rule) == ["an implementation depends on the flow layer"])
    }

    @Test("a flow missing from the hierarchy is named")
    func flowNotInHierarchy() {
        let found = planting { $0.append(module("StrayFlow", "Packages/Flows/StrayFlow", ["FlowKit"])) }
        #expect(found.map(\.rule) == ["a flow missing from the flow hierarchy graph"])
    }

    @Test("FlowKit importing anything else is named, even a renderer or a general tool", arguments: ["Accounts", "SignInFlow", "GRDB", "FlowTerminal", "QRCode"])
    func flowKitLeaks(target: String) {
        let found = planting(add(target, to: "FlowKit"))
        #expect(found.map(\.rule) == ["FlowKit imports code outside FlowKit"])
    }

    @Test("renderers and the harness know FlowKit and general tools, not the app", arguments: [
        ("Accounts", "a renderer or the harness depends on an area module; it knows FlowKit only"),
        ("SignInFlow", "a renderer or the harness depends on the flow layer; it draws any flow's screens"),
        ("FormFields", "a renderer or the harness depends on the flow layer; it draws any flow's screens"),
        ("GRDB", "a renderer or the harness imports the third-party module GRDB"),
        ("Hummingbird", "a renderer or the harness imports the third-party module Hummingbird"),
    ])
    func rendererLeaks(target: String, rule: String) {
        #expect(planting(add(target, to: "FlowTerminal")).map(\.rule) == [rule])
    }

    @Test("a renderer may draw with the template library that escapes every value; no other layer may")
    func rendererLibraries() {
        #expect(planting(add("Mustache", to: "FlowTerminal")) == [])
        #expect(planting(add("Mustache", to: "SignInFlow")).map(\.rule) == ["a flow imports the third-party module Mustache"])
        #expect(planting(add("Mustache", to: "Accounts")).map(\.rule).count == 1)
    }

    @Test("a server store or a Remote service is an implementation: abstract modules never reach them")
    func serverSideModules() {
        #expect(planting(add("AccountsDataPostgres", to: "AccountsData")).map(\.rule) == ["an abstract module depends on an implementation module"])
        #expect(planting(add("AccountsRemote", to: "Accounts")).map(\.rule) == ["an abstract module depends on an implementation module"])
        #expect(planting(add("AccountsRemote", to: "SignInFlow")).map(\.rule) == ["a flow depends on an implementation module"])
    }

    @Test("an implementation using another area's implementation is named; the composition root and the shared wire form may")
    func implementationOnImplementation() {
        #expect(planting(add("AccountsDataSQLite", to: "AccountsLive")).map(\.to) == ["AccountsDataSQLite"])
        #expect(planting(add("AccountsLive", to: "FlowsApp")) == [])
        // The shared values' wire form is every Remote module's; another area's is not.
        #expect(planting(add("AccountsRemote", to: "PrimitivesRemote")).map(\.to) == ["AccountsRemote"])
        #expect(planting(add("Accounts", to: "LocalStore")).map(\.rule) == ["infrastructure depends on an area module"])
        // The change log is every area's stores'; a replica's pull reads every area's wire form,
        // but not their stores.
        #expect(planting(add("DataChangesSQLite", to: "AccountsDataSQLite")) == [])
        #expect(planting(add("SyncRemote", to: "AccountsRemote")).map(\.to) == ["SyncRemote"])
        #expect(planting(add("AccountsDataSQLite", to: "SyncRemote")).map(\.to) == ["AccountsDataSQLite"])
    }

    @Test("Swift Testing stays in the harness's test-support module and the tests; the app never depends on either")
    func testFrameworks() {
        #expect(planting(add("Testing", to: "FlowTerminal")).map(\.rule)
            == ["a renderer or the harness imports Testing; only FlowTestSupport may, so the app never links it"])
        #expect(planting(add("Testing", to: "FlowKit")).map(\.rule) == ["FlowKit imports code outside FlowKit"])
        #expect(planting(add("FlowTestSupport", to: "FlowsApp")).map(\.rule) == ["the app depends on FlowTestSupport, which is for tests only"])
        #expect(planting(add("Testing", to: "FlowsApp", byImport: false)).map(\.to) == ["Testing"])
    }

    @Test("a View importing anything but FlowKit and Primitives is named; the flow's other files may")
    func viewImports() {
        let view = ImportStatement(module: "Accounts", file: "Packages/Flows/SignInFlow/Sources/SignInFlow/SignInView.swift", line: 2)
        let found = planting { project in
            project[project.firstIndex { $0.name == "SignInFlow" }!].imports.append(view)
        }
        #expect(found.map(\.description) == [
            "SignInFlow -> Accounts: a View imports Accounts; Views import FlowKit and Primitives only (domain messages reach them in the ViewState) (Packages/Flows/SignInFlow/Sources/SignInFlow/SignInView.swift:2)",
        ])
        let viewModel = ImportStatement(module: "Accounts", file: "Packages/Flows/SignInFlow/Sources/SignInFlow/SignInViewModel.swift", line: 1)
        #expect(planting { $0[$0.firstIndex { $0.name == "SignInFlow" }!].imports.append(viewModel) } == [])
    }
}
