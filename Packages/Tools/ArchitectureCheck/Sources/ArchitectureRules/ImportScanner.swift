/// Finds the `import` statements of Swift source text.
///
/// Reads every form that makes a module visible: `import X`, `@testable import X`,
/// `@_exported import X`, access-level imports (`public import X`) and scoped imports
/// (`import struct X.Y`). Lines inside block comments are skipped.
public enum ImportScanner {
    private static let modifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private"]
    private static let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor"]

    public static func imports(in source: String, file: String) -> [ImportStatement] {
        var result: [ImportStatement] = []
        var inBlockComment = false
        for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if inBlockComment {
                guard let end = line.range(of: "*/") else { continue }
                line = line[end.upperBound...]
                inBlockComment = false
            }
            if let start = line.range(of: "/*"), line.range(of: "*/", range: start.upperBound..<line.endIndex) == nil {
                inBlockComment = true
                line = line[..<start.lowerBound]
            }
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            if let module = importedModule(in: line) {
                result.append(ImportStatement(module: module, file: file, line: index + 1))
            }
        }
        return result
    }

    private static func importedModule(in line: Substring) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)[...]
        while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) {
            words = words.dropFirst()
        }
        guard words.first == "import" else { return nil }
        words = words.dropFirst()
        if let kind = words.first, kinds.contains(kind) { words = words.dropFirst() }
        guard let path = words.first else { return nil }
        let module = path.split(separator: ".").first.map(String.init) ?? path
        guard let first = module.first, first.isLetter || first == "_" else { return nil }
        return module
    }
}
