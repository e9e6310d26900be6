/// Text made safe to write to a terminal.
enum TerminalText {
    /// Replaces control characters (escape sequences included) with visible stand-ins, so text
    /// that came from a user or a file can never move the cursor or change the terminal.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                result.append(scalar)
            } else if isControl(scalar) {
                result.append(contentsOf: "\u{FFFD}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
