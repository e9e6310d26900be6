import Foundation
import Testing

/// An operation of docs/api/openapi.yaml, as a small line scan of the document reads it.
struct ContractOperation: Hashable, Sendable, CustomStringConvertible {
    let id: String
    let method: String
    let path: String
    /// `security: []`: served without a session.
    let isOpen: Bool

    var description: String { "\(id) (\(method) \(path))" }
}

/// The HTTP contract as the document in the repository says it today.
enum Contract {
    /// The repository's root: three folders up from this file (Tests/ServerTests/Contract.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every operation under `paths:`, in the document's order.
    ///
    /// The document is written by hand in one layout (paths at two spaces, methods at four,
    /// their keys at six), which is all this scan reads; a path it cannot place fails the test.
    static func operations() throws -> [ContractOperation] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/api/openapi.yaml"), encoding: .utf8)
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        var operations: [ContractOperation] = []
        var inPaths = false
        var path: String?
        var current: (method: String, id: String?, open: Bool)?

        func finish() throws {
            guard let operation = current else { return }
            guard let path, let id = operation.id else { throw ServerTestError("an operation under \(path ?? "?") has no operationId") }
            operations.append(ContractOperation(id: id, method: operation.method.uppercased(), path: path, isOpen: operation.open))
            current = nil
        }

        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indent = line.prefix { $0 == " " }.count
            if indent == 0 {
                try finish()
                inPaths = trimmed == "paths:"
                continue
            }
            guard inPaths else { continue }
            switch indent {
            case 2:
                try finish()
                guard trimmed.hasPrefix("/"), trimmed.hasSuffix(":") else { throw ServerTestError("not a path: \(line)") }
                path = String(trimmed.dropLast())
            case 4:
                try finish()
                let key = String(trimmed.dropLast())
                if trimmed.hasSuffix(":"), methods.contains(key) { current = (key, nil, false) }
            case 6 where current != nil:
                if trimmed.hasPrefix("operationId:") {
                    current?.id = trimmed.dropFirst("operationId:".count).trimmingCharacters(in: .whitespaces)
                } else if trimmed.replacingOccurrences(of: " ", with: "") == "security:[]" {
                    current?.open = true
                }
            default:
                continue
            }
        }
        try finish()
        return operations
    }
}

@Suite struct ContractScanTests {
    @Test("the scan reads every operation of the contract, with the open ones marked")
    func scan() throws {
        let operations = try Contract.operations()
        let text = try String(contentsOf: Contract.root.appendingPathComponent("docs/api/openapi.yaml"), encoding: .utf8)
        #expect(operations.count == text.components(separatedBy: "operationId:").count - 1)
        #expect(Set(operations.map(\.id)).count == operations.count)
        #expect(Set(operations.filter(\.isOpen).map(\.id)) == ["signUp", "signIn", "checkHealth", "checkReadiness"])
        #expect(operations.contains(ContractOperation(id: "restoreExpense", method: "POST", path: "/deleted-expenses/{expenseId}/restore", isOpen: false)))
    }
}
