import Foundation

/// One operation of the contract (docs/api/openapi.yaml), as much of it as an endpoint's
/// declaration needs.
struct ContractOperation {
    var id: String
    /// `get`, `post`, … as the document writes them.
    let method: String
    let path: String
    /// The documented success: its status, and the schema of its JSON body (nil for none).
    var status = 0
    var response: String?
    /// The schema of the JSON request body; nil for none.
    var body: String?
    /// The names of its parameters by where they travel: the path's placeholders in order, and the
    /// query and header parameters in the order the operation lists them.
    var pathParameters: [String] = []
    var queryParameters: [String] = []
    var headerParameters: [String] = []
}

/// The operations under `paths:` of an OpenAPI document written as this repository writes it:
/// two spaces an indent, a path at two, its methods at four, each operation's fields at six,
/// parameters either `- $ref: '#/components/parameters/Name'` or inline `- name:` with `in:`.
/// It reads no more of YAML than that; a block scalar (`description: |`) is skipped whole.
func contractOperations(_ document: String) throws -> [String: ContractOperation] {
    let lines = document.components(separatedBy: "\n")
    func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
    func value(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return "" }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
    }
    /// The name a `$ref:` line (or list item) points to among the components of `kind`.
    func reference(_ line: String, to kind: String) -> String? {
        let prefix = "#/components/\(kind)/"
        guard (line.hasPrefix("- ") ? line.dropFirst(2) : Substring(line)).hasPrefix("$ref:") else { return nil }
        let target = value(line)
        return target.hasPrefix(prefix) ? String(target.dropFirst(prefix.count)) : nil
    }
    // The lines that are not inside a block scalar, with their indents.
    var kept: [(indent: Int, text: String)] = []
    var scalarIndent: Int?
    for line in lines {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if let scalar = scalarIndent {
            if trimmed.isEmpty || indent(line) > scalar { continue }
            scalarIndent = nil
        }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
        kept.append((indent(line), trimmed))
        if trimmed.hasSuffix(": |") || trimmed.hasSuffix(": >") || trimmed.hasSuffix(": |-") || trimmed.hasSuffix(": >-") { scalarIndent = indent(line) }
    }

    // components/parameters: each one's name and where it travels.
    var components: [String: (name: String, location: String)] = [:]
    var section = ""
    var subsection = ""
    var current: String?
    for (depth, text) in kept {
        if depth == 0 { section = text }
        if section == "components:" {
            if depth == 2 { subsection = text }
            if subsection == "parameters:", depth == 4 { current = String(text.dropLast()) }
            if subsection == "parameters:", depth == 6, let name = current {
                if text.hasPrefix("name:") { components[name, default: ("", "")].name = value(text) }
                if text.hasPrefix("in:") { components[name, default: ("", "")].location = value(text) }
            }
        }
    }

    var operations: [String: ContractOperation] = [:]
    var path = ""
    var operation: ContractOperation?
    var field = ""
    var status: Int?
    var inline: (name: String, location: String)?
    func add(parameter: (name: String, location: String)) {
        switch parameter.location {
        case "query": operation?.queryParameters.append(parameter.name)
        case "header": operation?.headerParameters.append(parameter.name)
        default: break
        }
    }
    func finishInline() {
        if let parameter = inline { add(parameter: parameter) }
        inline = nil
    }
    func finish() throws {
        finishInline()
        if let done = operation {
            guard !done.id.isEmpty else { throw Failure(description: "the contract has an operation without an operationId: \(done.method) \(done.path)") }
            operations[done.id] = done
        }
        operation = nil
    }
    section = ""
    for (depth, text) in kept {
        if depth == 0 {
            section = text
            continue
        }
        guard section == "paths:" else { continue }
        switch depth {
        case 2:
            try finish()
            path = String(text.dropLast())
            field = ""
        case 4 where ["get:", "put:", "post:", "delete:", "patch:"].contains(text):
            try finish()
            operation = ContractOperation(id: "", method: String(text.dropLast()), path: path)
            // The path's parameters are its placeholders, in order (declared for the path or the operation).
            operation?.pathParameters = path.split(separator: "{").dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) }
            field = ""
        case 4:
            field = ""
        case 6:
            finishInline()
            if text.hasPrefix("operationId:") {
                operation?.id = value(text)
                field = ""
            } else {
                field = String(text.prefix { $0 != ":" })
                status = nil
            }
        default:
            guard operation != nil else { continue }
            switch field {
            case "parameters" where depth == 8:
                finishInline()
                if let name = reference(text, to: "parameters") {
                    guard let parameter = components[name] else { throw Failure(description: "the contract names no parameter \(name)") }
                    add(parameter: parameter)
                } else if text.hasPrefix("- name:") {
                    inline = (value(text), "")
                }
            case "parameters" where depth == 10 && text.hasPrefix("in:"):
                inline?.location = value(text)
            case "requestBody":
                if operation?.body == nil, let schema = reference(text, to: "schemas") { operation?.body = schema }
            case "responses" where depth == 8:
                let code = Int(text.dropLast().trimmingCharacters(in: CharacterSet(charactersIn: "'\""))) ?? 0
                status = (200..<300).contains(code) && operation?.status == 0 ? code : nil
                if let status { operation?.status = status }
            case "responses" where status != nil:
                if operation?.response == nil, let schema = reference(text, to: "schemas") { operation?.response = schema }
            default: break
            }
        }
    }
    try finish()
    return operations
}

/// A schema of the contract, as much of it as a `Wire` value written from it needs: its type,
/// its required properties, and each property's type, `$ref`, list items and `maxLength`.
struct ContractSchema {
    struct Property {
        let name: String
        var type: String?
        var format: String?
        /// The schema it is (`$ref`), or, for a list, the schema of its items.
        var reference: String?
        var itemsReference: String?
        var maxLength: Int?
    }

    var type: String?
    var maxLength: Int?
    var required: [String] = []
    var properties: [Property] = []
}

/// The schemas under `components: schemas:` of an OpenAPI document written as this repository
/// writes it (``contractOperations(_:)``): a schema at four spaces, its fields at six, its
/// properties at eight and theirs at ten (a list's `items` at twelve); `required` as a flow list.
func contractSchemas(_ document: String) -> [String: ContractSchema] {
    var schemas: [String: ContractSchema] = [:]
    var section = ""
    var subsection = ""
    var name: String?
    var field = ""
    var property: Int?
    var inItems = false
    var scalarIndent: Int?
    for line in document.components(separatedBy: "\n") {
        let depth = line.prefix { $0 == " " }.count
        let text = line.trimmingCharacters(in: .whitespaces)
        if let scalar = scalarIndent {
            if text.isEmpty || depth > scalar { continue }
            scalarIndent = nil
        }
        if text.isEmpty || text.hasPrefix("#") { continue }
        if text.hasSuffix(": |") || text.hasSuffix(": >") || text.hasSuffix(": |-") || text.hasSuffix(": >-") { scalarIndent = depth }
        let key = String(text.prefix { $0 != ":" })
        let value = text.firstIndex(of: ":").map {
            text[text.index(after: $0)...].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
        } ?? ""
        let reference = value.hasPrefix("#/components/schemas/") ? String(value.dropFirst("#/components/schemas/".count)) : nil
        switch depth {
        case 0:
            section = text
        case 2:
            subsection = text
        case 4 where section == "components:" && subsection == "schemas:":
            name = key
            schemas[key] = ContractSchema()
            field = ""
        case 6 where name != nil:
            field = key
            property = nil
            guard let name else { continue }
            switch key {
            case "type": schemas[name]?.type = value
            case "maxLength": schemas[name]?.maxLength = Int(value)
            case "required" where value.hasPrefix("[") && value.hasSuffix("]"):
                schemas[name]?.required = value.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            default: break
            }
        case 8 where name != nil && field == "properties":
            guard let name else { continue }
            schemas[name]?.properties.append(ContractSchema.Property(name: key))
            property = (schemas[name]?.properties.count ?? 1) - 1
            inItems = false
        case 10, 12:
            guard let name, field == "properties", let index = property else { continue }
            if depth == 10 { inItems = key == "items" }
            switch (depth, key) {
            case (10, "type"): schemas[name]?.properties[index].type = value
            case (10, "format"): schemas[name]?.properties[index].format = value
            case (10, "maxLength"): schemas[name]?.properties[index].maxLength = Int(value)
            case (10, "$ref"): schemas[name]?.properties[index].reference = reference
            case (12, "$ref") where inItems: schemas[name]?.properties[index].itemsReference = reference
            default: break
            }
        default:
            if depth < 4 { name = nil }
        }
        if depth <= 2 { name = nil }
    }
    return schemas
}
