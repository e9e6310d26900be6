import ArchitectureRules
import Foundation
import Testing

@Suite("Reading imports, hierarchies and manifests")
struct ParsingTests {
    @Test("every form of import is read; comments and look-alikes are not")
    func imports() {
        let source = """
            import Foundation
            @testable import AccountsLive
            @_exported import FlowKit
            public import Accounts
            internal import struct GRDB.Row
            import func Glibc.write // a comment
            // import Commented
            /* import Blocked
               import AlsoBlocked */
            let importance = 1
            #if canImport(Darwin)
            import Darwin
            #endif
            """
        let found = ImportScanner.imports(in: source, file: "F.swift")
        #expect(found.map(\.module) == ["Foundation", "AccountsLive", "FlowKit", "Accounts", "GRDB", "Glibc", "Darwin"])
        #expect(found.map(\.line) == [1, 2, 3, 4, 5, 6, 12])
    }

    @Test("the hierarchy comes from the mermaid graph marked flow-hierarchy, labels and lists included")
    func hierarchy() throws {
        let markdown = """
            ```mermaid
            graph LR
              NotThis --> Graph
            ```

            ```mermaid
            %% flow-hierarchy
            graph TD
              App -->|stored session| Authenticated
              App -- no session --> Unauthenticated
              Authenticated --> Account & Friends
              %% Commented --> Out
            ```
            """
        let hierarchy = try #require(FlowHierarchy.parse(markdown: markdown))
        #expect(hierarchy.isDirectChild("AuthenticatedFlow", of: "AppFlow"))
        #expect(hierarchy.isDirectChild("UnauthenticatedFlow", of: "AppFlow"))
        #expect(hierarchy.isDirectChild("FriendsFlow", of: "AuthenticatedFlow"))
        #expect(!hierarchy.isDirectChild("AccountFlow", of: "AppFlow"))
        #expect(!hierarchy.contains(module: "GraphFlow"))
        #expect(!hierarchy.contains(module: "OutFlow"))
        #expect(FlowHierarchy.parse(markdown: "no graph here") == nil)
    }

    @Test("manifest dependencies resolve products to their targets")
    func manifest() throws {
        let json = Data("""
            {"targets": [
              {"name": "AccountsLive", "type": "regular", "dependencies": [
                {"byName": ["Accounts", null]},
                {"product": ["AccountsData", "AccountsData", null, null]},
                {"product": ["Crypto", "swift-crypto", null, null]}
              ]},
              {"name": "AccountsTests", "type": "test", "dependencies": []}
            ],
            "products": [{"name": "AccountsLive", "targets": ["AccountsLive"]}]}
            """.utf8)
        let modules = try ManifestReader.modules(
            dumpJSON: json,
            packagePath: "Packages/Domain/Accounts",
            productTargets: ["AccountsData": ["AccountsData"]]
        )
        #expect(modules == [ProjectModule(
            name: "AccountsLive",
            packagePath: "Packages/Domain/Accounts",
            manifestDependencies: ["Accounts", "AccountsData", "Crypto"]
        )])
    }
}
