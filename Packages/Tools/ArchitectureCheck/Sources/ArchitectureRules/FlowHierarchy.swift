/// Which flow starts which: the parent-child edges of the flow hierarchy.
///
/// Read from the mermaid graph in docs/architecture.md that carries the comment
/// `%% flow-hierarchy`, so the document and the check cannot drift apart. Node names are flow
/// names without the `Flow` suffix (`SignIn --> SignUp`).
public struct FlowHierarchy: Equatable, Sendable {
    /// The children of each flow, by flow name without the suffix.
    public private(set) var children: [String: Set<String>] = [:]

    public init(edges: [(parent: String, child: String)] = []) {
        for edge in edges { children[edge.parent, default: []].insert(edge.child) }
    }

    /// Every flow the hierarchy names.
    public var flows: Set<String> {
        children.values.reduce(Set(children.keys)) { $0.union($1) }
    }

    /// Every flow below `flow` (a flow name), its children's children included.
    public func descendants(of flow: String) -> Set<String> {
        var found: Set<String> = []
        var queue = Array(children[flow] ?? [])
        while let next = queue.popLast() {
            if found.insert(next).inserted { queue += children[next] ?? [] }
        }
        return found
    }

    /// Whether `child` is a direct child of `parent` (both module names, with the suffix).
    public func isDirectChild(_ child: String, of parent: String) -> Bool {
        children[Self.flowName(parent)]?.contains(Self.flowName(child)) ?? false
    }

    /// Whether the hierarchy names the flow of this module.
    public func contains(module: String) -> Bool {
        flows.contains(Self.flowName(module))
    }

    static func flowName(_ module: String) -> String {
        module.hasSuffix("Flow") ? String(module.dropLast(4)) : module
    }

    /// Reads the hierarchy from a markdown document; nil when it has no marked mermaid graph.
    public static func parse(markdown: String) -> FlowHierarchy? {
        var inBlock = false
        var block: [Substring] = []
        var found: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: " \t")
            if !inBlock, trimmed.hasPrefix("```mermaid") {
                inBlock = true
                block = []
            } else if inBlock, trimmed.hasPrefix("```") {
                inBlock = false
                if block.contains(where: { $0.trimmingCharacters(in: " \t") == "%% flow-hierarchy" }) {
                    found = block
                }
            } else if inBlock {
                block.append(line)
            }
        }
        guard let found else { return nil }
        var edges: [(parent: String, child: String)] = []
        for line in found {
            edges += Self.edges(in: line.trimmingCharacters(in: " \t"))
        }
        return FlowHierarchy(edges: edges)
    }

    /// The edges of one mermaid line: `A --> B`, `A -->|label| B`, `A -- label --> B`, `A --> B & C`.
    static func edges(in line: String) -> [(parent: String, child: String)] {
        guard !line.hasPrefix("%%"), let arrow = line.range(of: "-->") else { return [] }
        var left = String(line[..<arrow.lowerBound])
        if let labelStart = left.range(of: "--") { left = String(left[..<labelStart.lowerBound]) }
        var right = String(line[arrow.upperBound...]).trimmingCharacters(in: " \t")
        if right.hasPrefix("|"), let close = right.dropFirst().firstIndex(of: "|") {
            right = String(right[right.index(after: close)...])
        }
        guard let parent = nodeName(left) else { return [] }
        return right.split(separator: "&").compactMap { nodeName(String($0)) }.map { (parent, $0) }
    }

    private static func nodeName(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: " \t")
        let name = trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }),
              let last = lastIndex(where: { !characters.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
