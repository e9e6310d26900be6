import Foundation

// generate-services REPOSITORY [OUTPUT]
//
// Reads every service protocol of the domain modules (`public protocol <Name>Service` in
// Packages/Domain/<Area>/Sources/<Module>/) and writes, below OUTPUT (the repository unless
// given), what follows from them:
//
// - Tests/FlowsTests/Support/ServiceFakes.swift: a fake of each protocol, a struct with one
//   optional closure a requirement, which the fake's method calls, or, when the test gave none,
//   `missing(_:)` (the tests' `Fake` protocol: records an issue and throws).
// - For a requirement tagged `/// - Contract: <operationId>` (its contract operation, which takes
//   the requirement's arguments but the acting user's, in their order, as the endpoint's input):
//   its endpoint (<Area>API+Contract.swift), declared from the operation in docs/api/openapi.yaml
//   (Contract.swift reads it), with the `Wire` value of a one-property schema it carries that no
//   Remote module declares by hand (``wireValue(of:as:schemas:declared:for:)``); its method in the area's Remote client (Remote<Area>Service+Contract.swift), one
//   `connection.send` of the area's endpoint, and its line in flows-server's routes
//   (Routes+Contract.swift), one call of the service as the request's user.
//
// - For a requirement tagged `/// - Replica: read`: its method in the area's replicated service
//   (Replicated<Area>+Reads.swift in SyncReplica), which asks the user's replica, or the server
//   when the user has none.
//
// - For each data area's reads inside a transaction (`public protocol <Area>Reading` in
//   Packages/Data/<Area>Data/Sources/<Area>Data/): its noting writer's reads
//   (Noting<Area>Writing+Reading.swift), each the wrapped transaction's.
//
// - From the list of areas (Packages/Services/areas.txt, read by Areas.swift): how each area is
//   built in every place that builds the app's services.
//
// It prints the paths it wrote. It reads the protocols as this repository writes them: `public
// protocol X: Sendable {` at the start of a line, its body closed by `}` at the start of a line,
// and its requirements `func` declarations (a signature may run over several lines), each async
// and throwing a typed error, or answering an `AsyncStream`.

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
    /// The typed error it throws; nil when it does not throw, or throws any error.
    let failure: String?
    /// Whether it throws any error (`throws`, untyped).
    let throwsAny: Bool
    /// What it answers; nil for nothing.
    let result: String?
    /// The declaration as written, on one line.
    let declaration: String
    /// The contract's operation it is sent and served as, from its `- Contract:` tag.
    let contract: String?
    /// Whether a replicated service answers it from the user's replica (`- Replica: read`).
    let readsReplica: Bool

    /// `name(label:label:)`, as Swift names the method.
    var selector: String { "\(name)(" + parameters.map { "\($0.label ?? "_"):" }.joined() + ")" }
}

/// How the character at `index` changes the depth of brackets: `(`, `[` and `<` open, `)`, `]`
/// and a `>` that is not part of `->` close.
func bracketDepthChange(_ text: [Character], at index: Int) -> Int {
    switch text[index] {
    case "(", "[", "<": 1
    case ")", "]": -1
    case ">" where index == 0 || text[index - 1] != "-": -1
    default: 0
    }
}

/// The text between `open` at `start` and the bracket that closes it, and the index after that.
func bracketed(_ text: [Character], from start: Int) throws -> (inner: String, end: Int) {
    var depth = 0
    var index = start
    while index < text.count {
        depth += bracketDepthChange(text, at: index)
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
        if character == ",", depth == 0 {
            parts.append(current.trimmingCharacters(in: .whitespaces))
            current = ""
            continue
        }
        depth += bracketDepthChange(characters, at: index)
        current.append(character)
    }
    let last = current.trimmingCharacters(in: .whitespaces)
    if !last.isEmpty { parts.append(last) }
    return parts
}

func parseRequirement(_ declaration: String, attributes: [String], contract: String?, readsReplica: Bool) throws -> Requirement {
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
    var throwsAny = false
    if let throwing = effects.first(where: { $0.hasPrefix("throws") }) {
        if throwing == "throws" {
            throwsAny = true
        } else if throwing.hasPrefix("throws("), throwing.hasSuffix(")") {
            failure = String(throwing.dropFirst("throws(".count).dropLast())
        } else {
            throw Failure(description: "a throws this tool does not read: \(declaration)")
        }
    }
    return Requirement(
        attributes: attributes, name: name, parameters: parameters, isAsync: isAsync, failure: failure, throwsAny: throwsAny, result: result,
        declaration: declaration,
        contract: contract, readsReplica: readsReplica
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
    var contract: String?
    var readsReplica = false
    var declaration: String?
    func finish() throws {
        if let declaration {
            found.append(try parseRequirement(declaration, attributes: attributes, contract: contract, readsReplica: readsReplica))
            attributes = []
            contract = nil
            readsReplica = false
        }
        declaration = nil
    }
    let tag = "/// - Contract: "
    for line in lines[(start + 1)..<end] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("func ") {
            try finish()
            declaration = trimmed
        } else if trimmed.hasPrefix("@") {
            try finish()
            attributes.append(trimmed)
        } else if trimmed.hasPrefix(tag) {
            try finish()
            contract = String(trimmed.dropFirst(tag.count)).trimmingCharacters(in: .whitespaces)
            guard let contract, !contract.isEmpty, contract.allSatisfy({ $0.isLetter || $0.isNumber }) else {
                throw Failure(description: "\(protocolName): a `- Contract:` tag names one operationId: \(trimmed)")
            }
        } else if trimmed == "/// - Replica: read" {
            try finish()
            readsReplica = true
        } else if trimmed.isEmpty || trimmed.hasPrefix("//") {
            try finish()
        } else if let started = declaration {
            declaration = started + (trimmed.hasPrefix(")") || started.hasSuffix("(") ? "" : " ") + trimmed
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

/// A service protocol as read from its file.
struct ServiceProtocol {
    let name: String
    /// The module it is declared in.
    let module: String
    /// The modules its file imports.
    let imports: [String]
    let requirements: [Requirement]

    /// `Friends` for `FriendsService`.
    var area: String { name.hasSuffix("Service") ? String(name.dropLast("Service".count)) : name }
    /// How `ServerServices` names it: `friends`.
    var serverName: String { area.prefix(1).lowercased() + area.dropFirst() }
    /// The requirements tagged with their contract operation, and the operation.
    var contracted: [(requirement: Requirement, operation: String)] {
        requirements.compactMap { requirement in requirement.contract.map { (requirement, $0) } }
    }
}

/// Every service protocol of the domain modules, by name.
func serviceProtocols(in repository: URL) throws -> [ServiceProtocol] {
    let files = FileManager.default
    let domain = repository.appendingPathComponent("Packages/Domain")
    var found: [ServiceProtocol] = []
    for area in try files.contentsOfDirectory(atPath: domain.path).sorted() {
        let sources = domain.appendingPathComponent(area).appendingPathComponent("Sources")
        guard let modules = try? files.contentsOfDirectory(atPath: sources.path) else { continue }
        for module in modules.sorted() {
            let folder = sources.appendingPathComponent(module)
            for file in (try files.contentsOfDirectory(atPath: folder.path)).sorted() where file.hasSuffix(".swift") {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let lines = source.components(separatedBy: "\n")
                let imports = lines.filter { $0.hasPrefix("import ") }.map { String($0.dropFirst("import ".count)) }
                for line in lines where line.hasPrefix("public protocol ") {
                    let name = String(line.dropFirst("public protocol ".count).prefix { $0.isLetter || $0.isNumber })
                    guard name.hasSuffix("Service") else { continue }
                    found.append(ServiceProtocol(name: name, module: module, imports: imports, requirements: try requirements(of: name, in: source)))
                }
            }
        }
    }
    return found.sorted { $0.name < $1.name }
}

/// The header of a generated file.
func generated(from what: String, imports: Set<String>) -> String {
    "// Generated by Scripts/generate-services from \(what): do not edit.\n" + imports.sorted().map { "import \($0)\n" }.joined() + "\n"
}

/// The arguments a requirement sends as its endpoint's input: all but the acting user's, one
/// value or a tuple in their order; nil for none.
func input(_ requirement: Requirement) -> (names: [String], expression: String?) {
    let names = requirement.parameters.map(\.name).filter { $0 != "user" }
    switch names.count {
    case 0: return (names, nil)
    case 1: return (names, names[0])
    default: return (names, "(" + names.joined(separator: ", ") + ")")
    }
}

func remoteClient(_ service: ServiceProtocol) -> String {
    let methods = service.contracted.map { requirement, operation in
        let attributes = requirement.attributes.map { "    \($0)\n" }.joined()
        let sent = ["\(service.area)API.\(operation)", input(requirement).expression].compactMap { $0 }.joined(separator: ", ")
        return "\(attributes)    public \(requirement.declaration) {\n        try await connection.send(\(sent))\n    }"
    }
    return generated(from: "\(service.name)'s `- Contract:` tags", imports: Set(service.imports + [service.module, "FlowsAPIClient"]))
        + "extension Remote\(service.name) {\n" + methods.joined(separator: "\n\n") + "\n}\n"
}

/// `Wire.<name>` for a schema of the contract or a Swift type: its name with the first letter in
/// lower case (`FriendList` is `Wire.friendList`, `UserID` is `Wire.userID`).
func wire(_ name: String) throws -> String {
    "Wire." + (try wireMember(name))
}

/// The member of `Wire` named after a schema or a type: `friendList` for `FriendList`.
func wireMember(_ name: String) throws -> String {
    guard let first = name.first, first.isLetter, name.allSatisfy({ $0.isLetter || $0.isNumber }) else {
        throw Failure(description: "no `Wire` value is named after \(name)")
    }
    return first.lowercased() + name.dropFirst()
}

/// Words (`If-Match`, `from` and `through`) as one lower-camel-case name: `ifMatch`, `fromThrough`.
func lowerCamel(_ words: [String]) -> String {
    let parts = words.flatMap { $0.split(separator: "-").map(String.init) }
    return parts.enumerated().map { index, part in index == 0 ? part.prefix(1).lowercased() + part.dropFirst() : part.prefix(1).uppercased() + part.dropFirst() }
        .joined()
}

/// The endpoint of a requirement tagged `- Contract:`, declared from its operation in the
/// contract: the operation's id, method, path and success status, and its input and output
/// through the `Wire` values named after what carries them. The requirement's arguments but the
/// acting user's are the input, in the order the operation takes them: each path parameter, the
/// body, the query's parameters (one `Wire.<names>Query` for all), the `id` a creating operation
/// may be given, and a required header (`Wire.<header>`, a ``WireHeader``).
func endpoint(
    _ requirement: Requirement, _ operation: ContractOperation, in service: ServiceProtocol
) throws -> (declaration: String, carried: [(schema: String, value: String)]) {
    let named = "\(service.name).\(requirement.selector) (`- Contract: \(operation.id)`)"
    var arguments = requirement.parameters.filter { $0.name != "user" }
    let headers = operation.headerParameters.filter { $0 != "Idempotency-Key" }
    let queries = operation.queryParameters.filter { $0 != "id" }
    guard headers.count <= 1 else { throw Failure(description: "\(named): this tool declares at most one required header") }
    func argumentType(_ parameter: Parameter?) throws -> String {
        guard let parameter else { throw Failure(description: "\(named) takes fewer arguments than its operation in the contract") }
        return parameter.type.hasSuffix("?") ? String(parameter.type.dropLast()) : parameter.type
    }
    let header = try headers.first.map { name in (name, try argumentType(arguments.popLast())) }
    let id = try operation.queryParameters.contains("id") ? argumentType(arguments.popLast()) : nil
    let paths = try operation.pathParameters.map { name in (name, try argumentType(arguments.isEmpty ? nil : arguments.removeFirst())) }
    if operation.body != nil, arguments.isEmpty { throw Failure(description: "\(named) has no argument for its operation's body") }
    var carried: [(schema: String, value: String)] = []
    let body = try operation.body.map { schema in
        carried.append((schema, try argumentType(arguments.removeFirst())))
        return try wire(schema)
    }
    // The query takes what is left: at least one argument when it has parameters, none otherwise.
    if !queries.isEmpty, arguments.isEmpty { throw Failure(description: "\(named) has no argument for its operation's query") }
    if queries.isEmpty, !arguments.isEmpty { throw Failure(description: "\(named) takes more arguments than its operation in the contract") }
    let query = queries.isEmpty ? nil : try wire(lowerCamel(queries + ["Query"]))

    let pathWires = try paths.map { name, type in "\"\(name)\", \(try wire(type))" }
    var request: String
    switch (pathWires.count, body, query) {
    case (0, nil, nil): request = "RequestCoding<Void>.none"
    case (0, let body?, nil): request = "RequestCoding.body(\(body))"
    case (1...2, nil, nil): request = "RequestCoding.path(\(pathWires.joined(separator: ", ")))"
    case (1, let body?, nil): request = "RequestCoding.path(\(pathWires[0]), body: \(body))"
    case (0, nil, let query?): request = "RequestCoding.query(\(query))"
    case (1, nil, let query?): request = "RequestCoding.path(\(pathWires[0]), query: \(query))"
    default: throw Failure(description: "\(named): its operation's path parameters, body and query are more than this tool declares")
    }
    let parts = pathWires.count + (body == nil ? 0 : 1) + (query == nil ? 0 : 1)
    if id != nil || header != nil {
        // Each adds one value after the rest, so the rest must be one value for the input to be the arguments in order.
        guard parts <= 1, id == nil || header == nil else {
            throw Failure(description: "\(named): an `id` or a header after more than one value is an input this tool does not declare")
        }
    }
    if let id { request += ".query(optional: \"id\", \(try wire(id)))" }
    if let (name, _) = header { request += ".header(\(try wire(lowerCamel([name]))))" }

    let status: String
    switch operation.status {
    case 200: status = ""
    case 201: status = ", status: .created"
    case 204: status = ", status: .noContent"
    default: throw Failure(description: "\(named): a success of \(operation.status) is not one this tool declares")
    }
    var response = "ResponseCoding<Void>.none"
    if operation.status != 204, let schema = operation.response {
        carried.append((schema, requirement.result ?? "Void"))
        response = "ResponseCoding.json(\(try wire(schema)))"
    }
    let input = requirement.parameters.filter { $0.name != "user" }.map(\.type)
    let inputType = input.isEmpty ? "Void" : input.count == 1 ? input[0] : "(" + input.joined(separator: ", ") + ")"
    return ("""
            public static let \(operation.id) = Call<\(inputType), \(requirement.result ?? "Void")>(
                "\(operation.id)", .\(operation.method), "\(operation.path)"\(status),
                request: \(request),
                response: \(response), problems: problems
            )
        """, carried)
}

/// The `Wire` value of a schema no Remote module declares by hand, written from the schema when
/// it is one of the shapes a value is carried in as it stands: a list of one schema under one
/// key (`FriendList`: `{"friends": [Friend]}`, from `Wire.friend`); or one required text (no
/// longer than its `maxLength`), whole number or yes/no, or one value of a schema with a `Wire`
/// value of its own (`{"after": Day}`, from `Wire.day`).
func wireValue(of name: String, as value: String, schemas: [String: ContractSchema], declared names: Set<String>, for use: String) throws -> String {
    let unknown = "\(use): `\(try wire(name))` for the contract's \(name) is declared nowhere, and \(name) is not a shape this tool writes one for"
        + " (one required property: a list of one schema, a text, a whole number, yes/no, or a schema with a `Wire` value): declare it in the area's API file"
    guard let schema = schemas[name], schema.type == "object", schema.properties.count == 1, let property = schema.properties.first,
        schema.required == [property.name], property.name.allSatisfy({ $0.isLetter || $0.isNumber })
    else { throw Failure(description: unknown) }
    let key = property.name
    let field = "\"\\(field)/\(key)\""
    let type = "WireValue<\(value), Components.Schemas.\(name)>"
    func declared(_ schema: String) throws -> String? {
        names.contains(try wireMember(schema)) ? try wire(schema) : nil
    }
    var body: String
    if property.type == "array", let items = property.itemsReference, let element = try declared(items) {
        body = "\(element).list().wrapped(\"\(key)\", in: { .init(\(key): $0) }, { $0.\(key) })"
    } else if value == "String", property.type == "string" || property.reference.map({ schemas[$0]?.type == "string" }) == true {
        let limit = property.maxLength ?? property.reference.flatMap { schemas[$0]?.maxLength }
        let read = limit.map { "try text(atMost: \($0)).read(wire.\(key), \(field))" } ?? "wire.\(key)"
        body = "WireValue(read: { wire, field throws(APIProblem) in \(read) }, write: { .init(\(key): $0) })"
    } else if value == "Int", property.type == "integer" {
        body = "WireValue(read: { wire, _ in Int(clamping: wire.\(key)) }, write: { .init(\(key): .init(clamping: $0)) })"
    } else if value == "Bool", property.type == "boolean" {
        body = "WireValue(read: { wire, _ in wire.\(key) }, write: { .init(\(key): $0) })"
    } else if let reference = property.reference, let inner = try declared(reference) {
        body = "WireValue(read: { wire, field throws(APIProblem) in try \(inner).read(wire.\(key), \(field)) }, write: { .init(\(key): \(inner).write($0)) })"
    } else {
        throw Failure(description: unknown)
    }
    return "    /// The contract's `\(name)`, `{\"\(key)\": …}`.\n    static var \(try wireMember(name)): \(type) {\n        \(body)\n    }"
}

/// The names of the `Wire` values the Remote modules declare by hand (`Wire.friend`).
func declaredWires(in repository: URL) throws -> Set<String> {
    let files = FileManager.default
    let remote = repository.appendingPathComponent("Packages/Remote")
    var names: Set<String> = []
    for package in try files.contentsOfDirectory(atPath: remote.path) {
        let sources = remote.appendingPathComponent("\(package)/Sources/\(package)")
        guard let contents = try? files.contentsOfDirectory(atPath: sources.path) else { continue }
        for file in contents where file.hasSuffix(".swift") && !file.hasSuffix("+Contract.swift") {
            let source = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in source.components(separatedBy: "\n") {
                let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").drop { ["public", "private", "fileprivate"].contains($0) }
                guard words.first == "static", words.dropFirst().first == "var" || words.dropFirst().first == "func", let named = words.dropFirst(2).first else { continue }
                names.insert(String(named.prefix { $0.isLetter || $0.isNumber }))
            }
        }
    }
    return names
}

func endpoints(
    _ service: ServiceProtocol, contract: [String: ContractOperation], schemas: [String: ContractSchema], declared: Set<String>
) throws -> String {
    var declarations: [String] = []
    var wires: [String: String] = [:]
    for (requirement, id) in service.contracted {
        let use = "\(service.name).\(requirement.selector) (`- Contract: \(id)`)"
        guard let operation = contract[id] else { throw Failure(description: "\(use): the contract has no operation \(id)") }
        let (declaration, carried) = try endpoint(requirement, operation, in: service)
        declarations.append(declaration)
        for (schema, value) in carried where !declared.contains(try wireMember(schema)) && wires[schema] == nil {
            wires[schema] = try wireValue(of: schema, as: value, schemas: schemas, declared: declared, for: use)
        }
    }
    let values = wires.isEmpty ? "" : "\n// The values these endpoints carry that no hand-written `Wire` value declares.\nextension Wire {\n"
        + wires.sorted { $0.key < $1.key }.map(\.value).joined(separator: "\n\n") + "\n}\n"
    return generated(from: "\(service.name)'s `- Contract:` tags and docs/api/openapi.yaml", imports: Set(service.imports + [service.module, "FlowsWire", "PrimitivesRemote"] + (wires.isEmpty ? [] : ["FlowsAPI"])))
        + "extension \(service.area)API {\n" + declarations.joined(separator: "\n\n") + "\n}\n" + values
}

/// The replicated service's reads of the requirements tagged `- Replica: read`: each asks the
/// user's replica, or the server when the user has none (``reads(_:)`` of the replicated service).
func replicatedReads(_ service: ServiceProtocol) -> String {
    let methods = service.requirements.filter(\.readsReplica).map { requirement in
        let attributes = requirement.attributes.map { "    \($0)\n" }.joined()
        let arguments = requirement.parameters.map { parameter in parameter.label.map { "\($0): \(parameter.name)" } ?? parameter.name }
        return "\(attributes)    public \(requirement.declaration) {\n        try await reads(user).\(requirement.name)(\(arguments.joined(separator: ", ")))\n    }"
    }
    return generated(from: "\(service.name)'s `- Replica: read` tags", imports: Set(service.imports + [service.module]))
        + "extension Replicated\(service.area) {\n" + methods.joined(separator: "\n\n") + "\n}\n"
}

/// A data area's reads inside a transaction (`public protocol <Area>Reading` in
/// Packages/Data/<Area>Data/Sources/<Area>Data/), which its noting writer
/// (`Noting<Area>Writing`) passes to the transaction it wraps.
struct ReadingProtocol {
    let area: String
    let folder: String
    let imports: [String]
    let requirements: [Requirement]
}

func readingProtocols(in repository: URL) throws -> [ReadingProtocol] {
    let files = FileManager.default
    let data = repository.appendingPathComponent("Packages/Data")
    var found: [ReadingProtocol] = []
    for package in try files.contentsOfDirectory(atPath: data.path).sorted() where package.hasSuffix("Data") {
        let area = String(package.dropLast("Data".count))
        let folder = "Packages/Data/\(package)/Sources/\(package)"
        guard files.fileExists(atPath: repository.appendingPathComponent("\(folder)/Noting\(area)Writing.swift").path) else { continue }
        for file in try files.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path).sorted() where file.hasSuffix(".swift") {
            let source = try String(contentsOf: repository.appendingPathComponent("\(folder)/\(file)"), encoding: .utf8)
            guard source.contains("\npublic protocol \(area)Reading {") else { continue }
            let imports = source.components(separatedBy: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst("import ".count)) }
            found.append(ReadingProtocol(area: area, folder: folder, imports: imports, requirements: try requirements(of: "\(area)Reading", in: source)))
        }
    }
    return found
}

/// The noting writer's reads: each is the wrapped transaction's, as it is.
func notingReads(_ reading: ReadingProtocol) throws -> String {
    let methods = try reading.requirements.map { requirement throws -> String in
        guard !requirement.isAsync, requirement.failure == nil else {
            throw Failure(description: "\(reading.area)Reading's \(requirement.selector) is not a plain throwing read")
        }
        let arguments = requirement.parameters.map { parameter in parameter.label.map { "\($0): \(parameter.name)" } ?? parameter.name }
        let call = "base.\(requirement.name)(\(arguments.joined(separator: ", ")))"
        return "    public \(requirement.declaration) {\n        \(requirement.throwsAny ? "try " : "")\(call)\n    }"
    }
    return generated(from: "\(reading.area)Reading", imports: Set(reading.imports))
        + "extension Noting\(reading.area)Writing {\n" + methods.joined(separator: "\n\n") + "\n}\n"
}

func routes(_ services: [ServiceProtocol]) -> String {
    var body: [String] = []
    var imports: Set<String> = []
    for service in services where !service.contracted.isEmpty {
        imports.formUnion([service.module, "\(service.area)Remote"])
        body.append("        let \(service.serverName) = services.\(service.serverName)")
        for (requirement, operation) in service.contracted {
            let (names, _) = input(requirement)
            // One value is named as the parameter is, unless that is the service's own name.
            let value = names.count == 1 && names[0] != service.serverName ? names[0] : "input"
            let arguments = requirement.parameters.map { parameter in
                let position = names.firstIndex(of: parameter.name).map { "input.\($0)" } ?? "user"
                let argument = parameter.name == "user" ? "user" : names.count == 1 ? value : position
                return parameter.label.map { "\($0): \(argument)" } ?? argument
            }.joined(separator: ", ")
            let taken = names.isEmpty ? "_" : value
            let user = requirement.parameters.contains { $0.name == "user" } ? "user" : "_"
            body.append(
                "        try serve(\(service.area)API.\(operation)) { \(taken), \(user) in try await \(service.serverName).\(requirement.name)(\(arguments)) }"
            )
        }
    }
    return generated(from: "the service protocols' `- Contract:` tags", imports: imports) + """
        extension EndpointRoutes {
            /// The operations that are one call of their service as the request's user, each taking the
            /// call's arguments but the user's, in their order, as its endpoint's input.
            func contract(_ services: ServerServices) throws {
        \(body.joined(separator: "\n"))
            }
        }

        """
}

func run(_ arguments: [String]) throws -> [String] {
    guard (1...2).contains(arguments.count) else { throw Failure(description: "usage: generate-services REPOSITORY [OUTPUT]") }
    let repository = URL(fileURLWithPath: arguments[0])
    let output = URL(fileURLWithPath: arguments.count == 2 ? arguments[1] : arguments[0])
    let services = try serviceProtocols(in: repository)
    let document = try String(contentsOf: repository.appendingPathComponent("docs/api/openapi.yaml"), encoding: .utf8)
    let contract = try contractOperations(document)
    let schemas = contractSchemas(document)
    let declared = try declaredWires(in: repository)
    var files: [(path: String, text: String)] = []

    let modules = Set(services.flatMap { $0.imports + [$0.module] } + ["Foundation", "Primitives"])
    let header = """
        // Generated by Scripts/generate-services from the service protocols: do not edit. Each fake
        // gives an operation the test's closure for it, and fails loudly (``Fake``) on any other.

        """
    let fakes = try services.map { try fake(of: $0.name, $0.requirements) }
    files.append(("Tests/FlowsTests/Support/ServiceFakes.swift", header + modules.sorted().map { "import \($0)\n" }.joined() + "\n" + fakes.joined(separator: "\n")))

    for service in services where !service.contracted.isEmpty {
        let folder = "Packages/Remote/\(service.area)Remote/Sources/\(service.area)Remote"
        guard FileManager.default.fileExists(atPath: repository.appendingPathComponent(folder).path) else {
            throw Failure(description: "\(service.name) has `- Contract:` tags but no Remote module in \(folder)")
        }
        files.append(("\(folder)/Remote\(service.name)+Contract.swift", remoteClient(service)))
        files.append(("\(folder)/\(service.area)API+Contract.swift", try endpoints(service, contract: contract, schemas: schemas, declared: declared)))
    }
    files.append(("Apps/flows-server/Sources/FlowsServer/Routes+Contract.swift", routes(services)))
    for reading in try readingProtocols(in: repository) {
        files.append(("\(reading.folder)/Noting\(reading.area)Writing+Reading.swift", try notingReads(reading)))
    }
    for service in services where service.requirements.contains(where: \.readsReplica) {
        guard service.requirements.filter(\.readsReplica).allSatisfy({ $0.parameters.contains { $0.name == "user" } }) else {
            throw Failure(description: "\(service.name): a `- Replica: read` requirement takes the acting user, whose replica it reads")
        }
        files.append(("Packages/Domain/Sync/Sources/SyncReplica/Replicated\(service.area)+Reads.swift", replicatedReads(service)))
    }

    let list = try areas(in: String(contentsOf: repository.appendingPathComponent("Packages/Services/areas.txt"), encoding: .utf8))
    for area in list {
        let packages = ["Domain/\(area.name)", "Data/\(area.name)Data"] + (area.byHand ? [] : ["Data/Postgres/\(area.name)DataPostgres", "Remote/\(area.name)Remote"])
        for package in packages where !FileManager.default.fileExists(atPath: repository.appendingPathComponent("Packages/\(package)/Package.swift").path) {
            throw Failure(description: "areas.txt lists \(area.name), but Packages/\(package) has no package")
        }
    }
    files.append(("Packages/Services/Package.swift", servicesManifest(list)))
    files.append(("Packages/Services/Sources/FlowsServices/LocalServices+Areas.swift", localAreas(list)))
    files.append(("Apps/flows/Sources/FlowsApp/AppContainer+Areas.swift", appAreas(list)))
    files.append(("Apps/flows-server/Sources/FlowsServer/ServerServices+Areas.swift", serverAreas(list)))
    files.append(("Tests/FlowsTests/Support/Fixture+Areas.swift", fixtureAreas(list)))

    for file in files {
        let url = output.appendingPathComponent(file.path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try file.text.write(to: url, atomically: true, encoding: .utf8)
    }
    return files.map(\.path)
}

do {
    for path in try run(Array(CommandLine.arguments.dropFirst())) { print(path) }
} catch {
    FileHandle.standardError.write(Data("generate-services: \(error)\n".utf8))
    exit(1)
}
