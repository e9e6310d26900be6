import Foundation

// generate-fakes OUTPUT FILE:PROTOCOL...
//
// Writes to OUTPUT a fake of each PROTOCOL declared in FILE (a service protocol of a domain
// module): a struct with one optional closure a requirement, which the fake's method calls, or,
// when the test gave none, `missing(_:)` (the tests' `Fake` protocol: records an issue and
// throws). It reads the protocols as this repository writes them: `public protocol X: Sendable {`
// at the start of a line, its body closed by `}` at the start of a line, and its requirements
// `func` declarations (a signature may run over several lines), each async and throwing a typed
// error, or answering an `AsyncStream`.

struct Failure: Error, CustomStringConvertible {
    let description: String
}

struct Parameter {
    /// The argument label; nil for `_`.
    let label: String?
    let name: String
    let type: String
}

struct Requirement {
    let attributes: [String]
    let name: String
    let parameters: [Parameter]
    let isAsync: Bool
    /// The typed error it throws; nil when it does not throw.
    let failure: String?
    /// What it answers; nil for nothing.
    let result: String?
    /// The declaration as written, on one line.
    let declaration: String

    /// `name(label:label:)`, as Swift names the method.
    var selector: String { "\(name)(" + parameters.map { "\($0.label ?? "_"):" }.joined() + ")" }
}

/// The text between `open` at `start` and the bracket that closes it, and the index after that.
func bracketed(_ text: [Character], from start: Int) throws -> (inner: String, end: Int) {
    var depth = 0
    var index = start
    while index < text.count {
        switch text[index] {
        case "(", "[", "<": depth += 1
        case ")", "]": depth -= 1
        case ">" where index == 0 || text[index - 1] != "-": depth -= 1
        default: break
        }
        if depth == 0 { return (String(text[(start + 1)..<index]), index + 1) }
        index += 1
    }
    throw Failure(description: "unbalanced brackets in \(String(text))")
}

/// `text` split at the commas outside any brackets.
func topLevelSplit(_ text: String) -> [String] {
    var parts: [String] = []
    var depth = 0
    var current = ""
    let characters = Array(text)
    for (index, character) in characters.enumerated() {
        switch character {
        case "(", "[", "<": depth += 1
        case ")", "]": depth -= 1
        case ">" where index == 0 || characters[index - 1] != "-": depth -= 1
        case "," where depth == 0:
            parts.append(current.trimmingCharacters(in: .whitespaces))
            current = ""
            continue
        default: break
        }
        current.append(character)
    }
    let last = current.trimmingCharacters(in: .whitespaces)
    if !last.isEmpty { parts.append(last) }
    return parts
}

func parseRequirement(_ declaration: String, attributes: [String]) throws -> Requirement {
    let text = Array(declaration)
    guard declaration.hasPrefix("func "), let open = text.firstIndex(of: "(") else {
        throw Failure(description: "not a method: \(declaration)")
    }
    let name = String(text[5..<open]).trimmingCharacters(in: .whitespaces)
    let (inner, end) = try bracketed(text, from: open)
    let parameters = try topLevelSplit(inner).map { part throws -> Parameter in
        guard let colon = part.firstIndex(of: ":") else { throw Failure(description: "a parameter without a type: \(part) in \(declaration)") }
        let words = part[..<colon].split(separator: " ").map(String.init)
        let type = part[part.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch words.count {
        case 1: return Parameter(label: words[0], name: words[0], type: type)
        case 2: return Parameter(label: words[0] == "_" ? nil : words[0], name: words[1], type: type)
        default: throw Failure(description: "a parameter that is not `label name: Type`: \(part)")
        }
    }
    var rest = String(text[end...]).trimmingCharacters(in: .whitespaces)
    var result: String?
    if let arrow = rest.range(of: "->") {
        result = rest[arrow.upperBound...].trimmingCharacters(in: .whitespaces)
        rest = String(rest[..<arrow.lowerBound])
    }
    let effects = rest.split(separator: " ").map(String.init)
    let isAsync = effects.contains("async")
    var failure: String?
    if let throwing = effects.first(where: { $0.hasPrefix("throws") }) {
        guard throwing.hasPrefix("throws("), throwing.hasSuffix(")") else {
            throw Failure(description: "an untyped throws: \(declaration)")
        }
        failure = String(throwing.dropFirst("throws(".count).dropLast())
    }
    return Requirement(
        attributes: attributes, name: name, parameters: parameters, isAsync: isAsync, failure: failure, result: result, declaration: declaration
    )
}

/// The requirements of `protocolName` in `source`.
func requirements(of protocolName: String, in source: String) throws -> [Requirement] {
    let lines = source.components(separatedBy: "\n")
    guard let start = lines.firstIndex(where: { $0.hasPrefix("public protocol \(protocolName):") || $0.hasPrefix("public protocol \(protocolName) {") })
    else { throw Failure(description: "no `public protocol \(protocolName)`") }
    guard let end = lines[start...].firstIndex(of: "}") else { throw Failure(description: "\(protocolName) is not closed by a `}` line") }
    var found: [Requirement] = []
    var attributes: [String] = []
    var declaration: String?
    func finish() throws {
        if let declaration { found.append(try parseRequirement(declaration, attributes: attributes)) }
        declaration = nil
        attributes = []
    }
    for line in lines[(start + 1)..<end] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("func ") {
            try finish()
            declaration = trimmed
        } else if trimmed.hasPrefix("@") {
            try finish()
            attributes.append(trimmed)
        } else if trimmed.isEmpty || trimmed.hasPrefix("//") {
            try finish()
        } else if declaration != nil {
            declaration! += (trimmed.hasPrefix(")") || declaration!.hasSuffix("(") ? "" : " ") + trimmed
        } else {
            throw Failure(description: "\(protocolName) has a requirement this tool does not read: \(trimmed)")
        }
    }
    try finish()
    return found
}

/// Each requirement's closure name: its own name, or, where several requirements share it, the
/// name and its argument labels but for the acting user's (`expenses(of:sharedWith:page:)` is
/// `expensesSharedWithPage`); the one of them with the fewest such labels, if it is one, keeps
/// the name alone (`expenses(of:page:)` is `expenses`).
func closureNames(_ requirements: [Requirement]) throws -> [String] {
    func labels(_ requirement: Requirement) -> [String] {
        requirement.parameters.filter { $0.name != "user" }.compactMap(\.label)
    }
    let names = requirements.map { requirement in
        let namesakes = requirements.filter { $0.name == requirement.name }
        let fewest = namesakes.map { labels($0).count }.min() ?? 0
        if namesakes.count == 1 || (labels(requirement).count == fewest && namesakes.filter { labels($0).count == fewest }.count == 1) {
            return requirement.name
        }
        return requirement.name + labels(requirement).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
    guard Set(names).count == names.count else { throw Failure(description: "two requirements would have the same closure: \(names)") }
    return names
}

func fake(of protocolName: String, _ requirements: [Requirement]) throws -> String {
    let area = protocolName.hasSuffix("Service") ? String(protocolName.dropLast("Service".count)) : protocolName
    let fakeName = "Fake\(area)"
    guard let failure = requirements.compactMap(\.failure).first else { throw Failure(description: "\(protocolName) throws nothing") }
    let names = try closureNames(requirements)
    var properties: [String] = []
    var methods: [String] = []
    for (requirement, closure) in zip(requirements, names) {
        let types = requirement.parameters.map(\.type).joined(separator: ", ")
        let arguments = requirement.parameters.map(\.name).joined(separator: ", ")
        let attributes = requirement.attributes.map { "    \($0)\n" }.joined()
        switch (requirement.isAsync, requirement.failure, requirement.result) {
        case (true, let thrown?, let result):
            guard thrown == failure else { throw Failure(description: "\(requirement.selector) throws \(thrown), not \(failure)") }
            properties.append("    var \(closure): (@Sendable (\(types)) async throws(\(thrown)) -> \(result ?? "Void"))?")
            methods.append(
                "\(attributes)    \(requirement.declaration) {\n        try await (self.\(closure) ?? missing(\"\(requirement.selector)\"))(\(arguments))\n    }"
            )
        case (false, nil, let result?) where result.hasPrefix("AsyncStream<"):
            properties.append("    /// None given: a stream that ends at once.\n    var \(closure): (@Sendable (\(types)) -> \(result))?")
            methods.append("\(attributes)    \(requirement.declaration) {\n        self.\(closure)?(\(arguments)) ?? AsyncStream { $0.finish() }\n    }")
        default:
            throw Failure(description: "\(requirement.selector) is neither async and throwing nor an AsyncStream: this tool cannot fake it")
        }
    }
    return """
        struct \(fakeName): \(protocolName), Fake {
        \(properties.joined(separator: "\n"))
            var otherwise: @Sendable (String) throws(\(failure)) -> Never = { operation throws(\(failure)) in
                unexpected(operation)
                throw .storeUnavailable("\\(operation) is not part of this fake")
            }

            /// \(area) whose store is unavailable.
            static let down = \(fakeName)(otherwise: { _ throws(\(failure)) in throw .storeUnavailable("disk on fire") })

        \(methods.joined(separator: "\n\n"))
        }

        """
}

func run(_ arguments: [String]) throws -> (output: String, text: String) {
    guard arguments.count >= 2 else { throw Failure(description: "usage: generate-fakes OUTPUT FILE:PROTOCOL...") }
    var modules: Set<String> = ["Foundation", "Primitives"]
    var fakes: [String] = []
    for spec in arguments.dropFirst() {
        let parts = spec.split(separator: ":").map(String.init)
        guard parts.count == 2 else { throw Failure(description: "not FILE:PROTOCOL: \(spec)") }
        let components = parts[0].split(separator: "/").map(String.init)
        guard let sources = components.lastIndex(of: "Sources"), sources + 1 < components.count - 1 else {
            throw Failure(description: "\(parts[0]) is not in a module's Sources folder")
        }
        modules.insert(components[sources + 1])
        let source = try String(contentsOfFile: parts[0], encoding: .utf8)
        fakes.append(try fake(of: parts[1], try requirements(of: parts[1], in: source)))
    }
    let header = """
        // Generated by Scripts/generate-fakes from the service protocols: do not edit. Each fake gives
        // an operation the test's closure for it, and fails loudly (``Fake``) on any other.

        """
    let imports = modules.sorted().map { "import \($0)" }.joined(separator: "\n")
    return (arguments[0], header + imports + "\n\n" + fakes.joined(separator: "\n"))
}

do {
    let (output, text) = try run(Array(CommandLine.arguments.dropFirst()))
    try text.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("generate-fakes: \(error)\n".utf8))
    exit(1)
}
