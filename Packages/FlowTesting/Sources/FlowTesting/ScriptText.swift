/// Quoting and unquoting of script values.
///
/// A quoted value is in double quotes with the escapes `\"`, `\\`, `\n`, `\t`, `\e` (escape),
/// `\0` and `\u{HEX}`; a value without spaces, quotes or control characters can stand bare.
public enum ScriptText {
    /// The value in double quotes, escaped.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\u{1B}": result += "\\e"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The value bare when it can stand bare, else quoted.
    public static func quotedIfNeeded(_ text: String) -> String {
        needsQuotes(text) ? quoted(text) : text
    }

    /// A `fill` value: the rest of the line when it reads the same, else quoted.
    static func valueText(_ text: String) -> String {
        let bareSafe = !text.isEmpty && !text.hasPrefix("\"") && text.first?.isWhitespace == false
            && text.last?.isWhitespace == false && !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        return bareSafe ? text : quoted(text)
    }

    static func needsQuotes(_ text: String) -> Bool {
        text.isEmpty || text.contains { $0.isWhitespace || $0 == "\"" || $0 == "#" }
            || text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
