import FlowKit

/// Reads the script format of docs/scripts.md.
public enum ScriptParser {
    /// A line that is not a step, with where it is and what would be right.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var message: String

        public var description: String { "\(file):\(line): \(message)" }
    }

    public static func parse(_ text: String, file: String) throws(Problem) -> Script {
        var script = Script(file: file, steps: [])
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do throws(ParseError) {
                if let flow = try flowDirective(String(trimmed)) {
                    guard script.flow == nil, script.steps.isEmpty else {
                        throw ParseError("'flow NAME' goes once, before every step")
                    }
                    script.flow = flow
                    continue
                }
                script.steps.append(Script.Step(line: number, try parseStep(String(trimmed))))
            } catch {
                throw Problem(file: file, line: number, message: error.message)
            }
        }
        return script
    }

    private static func flowDirective(_ line: String) throws(ParseError) -> String? {
        var words = Words(line)
        guard try words.next() == "flow" else { return nil }
        guard let name = try words.next(), try words.next() == nil else { throw ParseError("write the flow as: flow NAME") }
        return name
    }

    private static let usage = """
        steps are: fill ID VALUE, choose ID OPTION..., tap ID, back, cancel, refresh, expect screen ID, \
        expect text "...", expect error [ID] "...", expect result NAME, expect store unchanged, given ...
        """

    private static func parseStep(_ line: String) throws(ParseError) -> Script.Verb {
        var words = Words(line)
        guard let verb = try words.next() else { throw ParseError(usage) }
        switch verb {
        case "given":
            let setup = try words.rest()
            guard !setup.isEmpty else {
                throw ParseError("given needs what to set up, as in: given account ada@example.com \"correct horse\" Ada")
            }
            return .given(setup)
        case "fill":
            guard let id = try words.next() else { throw ParseError("fill needs a field and a value: fill ID VALUE") }
            return .fill(ElementID(id), try words.value())
        case "choose":
            guard let id = try words.next() else { throw ParseError("choose needs a field and options: choose ID OPTION...") }
            // With no option, a multi-choice is left with none picked.
            return .choose(ElementID(id), try words.rest())
        case "tap":
            return .tap(ElementID(try words.single(after: "tap", what: "an action: tap ID")))
        case "back":
            try words.end(after: "back")
            return .back
        case "cancel":
            try words.end(after: "cancel")
            return .cancel
        case "refresh":
            try words.end(after: "refresh")
            return .refresh
        case "expect":
            return try parseExpectation(&words)
        default:
            throw ParseError("unknown step '\(verb)'; \(usage)")
        }
    }

    private static func parseExpectation(_ words: inout Words) throws(ParseError) -> Script.Verb {
        guard let kind = try words.next() else { throw ParseError("expect what? screen, text, error, result or store") }
        switch kind {
        case "screen":
            return .expectScreen(ScreenID(try words.single(after: "expect screen", what: "a screen identifier")))
        case "text":
            return .expectText(try words.single(after: "expect text", what: "the text, in quotes"))
        case "result":
            return .expectResult(try words.single(after: "expect result", what: "a result name"))
        case "store":
            guard try words.single(after: "expect store", what: "unchanged") == "unchanged" else {
                throw ParseError("write it as: expect store unchanged")
            }
            return .expectStoreUnchanged
        case "error":
            let rest = try words.rest()
            switch rest.count {
            case 1: return .expectError(nil, rest[0])
            case 2: return .expectError(ElementID(rest[0]), rest[1])
            default: throw ParseError("write it as: expect error ID \"message\" (or without ID for the screen's error)")
            }
        default:
            throw ParseError("expect \(kind)? expect screen, text, error, result or store")
        }
    }
}

/// The words of a line: bare words split by spaces, quoted values as one word.
private struct Words {
    private var remaining: Substring

    init(_ line: String) {
        remaining = Substring(line)
    }

    private mutating func skipSpaces() {
        remaining = remaining.drop(while: { $0 == " " || $0 == "\t" })
    }

    mutating func next() throws(ParseError) -> String? {
        skipSpaces()
        guard let first = remaining.first else { return nil }
        if first == "\"" { return try quoted() }
        let word = remaining.prefix { $0 != " " && $0 != "\t" }
        remaining = remaining.dropFirst(word.count)
        return String(word)
    }

    /// A `fill` value: a quoted value, or the remaining of the line as it stands.
    mutating func value() throws(ParseError) -> String {
        skipSpaces()
        if remaining.first == "\"" {
            let value = try quoted()
            try end(after: "the quoted value")
            return value
        }
        guard !remaining.isEmpty else { throw ParseError("fill needs a value; write \"\" for an empty one") }
        let value = String(remaining).trimmingTrailingSpaces()
        remaining = ""
        return value
    }

    mutating func rest() throws(ParseError) -> [String] {
        var words: [String] = []
        while let word = try next() { words.append(word) }
        return words
    }

    mutating func single(after verb: String, what: String) throws(ParseError) -> String {
        guard let word = try next() else { throw ParseError("\(verb) needs \(what)") }
        try end(after: "\(verb) \(word)")
        return word
    }

    mutating func end(after verb: String) throws(ParseError) {
        skipSpaces()
        guard remaining.isEmpty else { throw ParseError("unexpected '\(remaining)' after \(verb); quote values that hold spaces") }
    }

    private mutating func quoted() throws(ParseError) -> String {
        remaining = remaining.dropFirst()
        var result = String.UnicodeScalarView()
        var scalars = remaining.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\"":
                remaining = Substring(String(String.UnicodeScalarView(scalars)))
                return String(result)
            case "\\":
                guard let escaped = scalars.popFirst() else { throw ParseError("a quoted value ends in the middle of an escape") }
                switch escaped {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "e": result.append("\u{1B}")
                case "0": result.append("\0")
                case "u":
                    guard scalars.popFirst() == "{", let close = scalars.firstIndex(of: "}") else {
                        throw ParseError("write a code point as \\u{1F600}")
                    }
                    let hex = String(String.UnicodeScalarView(scalars[..<close]))
                    scalars = scalars[scalars.index(after: close)...]
                    guard let value = UInt32(hex, radix: 16), let code = Unicode.Scalar(value) else {
                        throw ParseError("\\u{\(hex)} is not a code point")
                    }
                    result.append(code)
                default:
                    throw ParseError("unknown escape \\\(escaped); escapes are \\\" \\\\ \\n \\t \\e \\0 \\u{HEX}")
                }
            default:
                result.append(scalar)
            }
        }
        throw ParseError("a quoted value has no closing quote")
    }
}

private typealias ParseError = ScriptParserError

/// Internal to the parser; surfaces as ``ScriptParser/Problem``.
struct ScriptParserError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " || copy.last == "\t" { copy.removeLast() }
        return copy
    }
}
