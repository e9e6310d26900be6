/// Colours and emphasis for the TTY renderer: a theme's palette, or none.
///
/// With `--color auto` (the default), colour is off when NO_COLOR is present and not empty (as
/// no-color.org says; an empty NO_COLOR is ignored), when TERM is `dumb`, or when the output is not
/// a terminal. `--color never` turns it off and `--color always` on, whatever the environment.
public struct TerminalStyle: Sendable, Equatable {
    public enum Choice: String, Sendable, CaseIterable {
        case auto, always, never
    }

    /// The palettes people can pick.
    public enum Theme: String, Sendable, CaseIterable {
        case dark
        case light
        case highContrast = "high-contrast"
        case noColour = "no-colour"
    }

    public let theme: Theme

    public init(theme: Theme) {
        self.theme = theme
    }

    public init(colors: Bool) {
        theme = colors ? .dark : .noColour
    }

    /// Whether any colour or emphasis is written.
    public var colors: Bool { theme != .noColour }

    /// The style for this environment, choice and theme.
    public static func resolve(_ choice: Choice, environment: [String: String], outputIsTerminal: Bool, theme: Theme = .dark) -> TerminalStyle {
        switch choice {
        case .always: return TerminalStyle(theme: theme == .noColour ? .dark : theme)
        case .never: return TerminalStyle(theme: .noColour)
        case .auto:
            let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            let on = outputIsTerminal && !noColor && environment["TERM"] != "dumb"
            return TerminalStyle(theme: on ? theme : .noColour)
        }
    }

    /// The SGR codes of a theme, one per role.
    private struct Palette {
        var dim: String
        var error: String
        var accent: String
        var selected: String
        /// Money coming to the user, and going from them.
        var positive: String
        var negative: String
    }

    private var palette: Palette {
        switch theme {
        case .dark: Palette(dim: "2", error: "91", accent: "96", selected: "7", positive: "92", negative: "93")
        case .light: Palette(dim: "90", error: "31", accent: "34", selected: "7", positive: "32", negative: "35")
        case .highContrast: Palette(dim: "1", error: "1;97;41", accent: "1;93", selected: "1;30;103", positive: "1;92", negative: "1;4;95")
        case .noColour: Palette(dim: "", error: "", accent: "", selected: "", positive: "", negative: "")
        }
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, palette.dim) }
    func error(_ text: String) -> String { wrap(text, palette.error) }
    func accent(_ text: String) -> String { wrap(text, palette.accent) }
    func selected(_ text: String) -> String { wrap(text, palette.selected) }
    func positive(_ text: String) -> String { wrap(text, palette.positive) }
    func negative(_ text: String) -> String { wrap(text, palette.negative) }
    /// A figure that must be dark on light to be read (a QR code): black on bright white in
    /// every theme; as it is without colour.
    func figure(_ text: String) -> String { wrap(text, "30;107") }
    /// An avatar badge: bold white on its colour's background.
    func badge(_ text: String, background: String) -> String { wrap(text, "1;97;" + background) }

    private func wrap(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
