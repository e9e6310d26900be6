/// Colours and emphasis for the TTY renderer, or none.
///
/// Colour is off when NO_COLOR is set, TERM is `dumb`, the output is not a terminal, or the user
/// asked for `--color never`; `--color always` forces it on.
public struct TerminalStyle: Sendable, Equatable {
    public enum Choice: String, Sendable, CaseIterable {
        case auto, always, never
    }

    public let colors: Bool

    public init(colors: Bool) {
        self.colors = colors
    }

    /// The style for this environment and choice.
    public static func resolve(_ choice: Choice, environment: [String: String], outputIsTerminal: Bool) -> TerminalStyle {
        switch choice {
        case .always: return TerminalStyle(colors: true)
        case .never: return TerminalStyle(colors: false)
        case .auto:
            let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return TerminalStyle(colors: outputIsTerminal && !noColor && environment["TERM"] != "dumb")
        }
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func error(_ text: String) -> String { wrap(text, "31") }
    func accent(_ text: String) -> String { wrap(text, "36") }
    func selected(_ text: String) -> String { wrap(text, "7") }

    private func wrap(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
