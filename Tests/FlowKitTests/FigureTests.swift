import FlowKit
import FlowTerminal
import QRCode
import Testing

@Suite("Figures on screens")
struct FigureTests {
    private let screen = Screen(id: "qr", title: "Your friend code", text: ["Scan it."], figures: [.qrCode("K7QX-M3RD-9")])
    private var expected: [String] {
        (try? QRCode.encode("K7QX-M3RD-9", correction: .medium).halfBlockLines(quietZone: 4)) ?? []
    }

    @Test("the TTY renderer draws a QR code's half blocks whole, black on white in every theme, under the text")
    func tty() async {
        for theme in TerminalStyle.Theme.allCases where theme != .noColour {
            let output = TextBuffer()
            let renderer = TTYRenderer(keys: ScriptedKeys([]), output: output, style: TerminalStyle(theme: theme), width: { 60 })
            await renderer.present(screen)
            for line in expected { #expect(output.text.contains("\u{1B}[30;107m\(line)\u{1B}[0m")) }
        }
        let grid = TerminalGrid(width: 60)
        let renderer = TTYRenderer(keys: ScriptedKeys([]), output: grid, style: TerminalStyle(colors: false), width: { 60 })
        await renderer.present(screen)
        // The grid keeps no trailing spaces: the quiet zone's light rows are empty there.
        let drawn = expected.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
        let lines = grid.lines
        guard let text = lines.firstIndex(of: "Scan it."), lines.count >= text + 2 + drawn.count else {
            Issue.record("the QR code is not on the terminal")
            return
        }
        #expect(Array(lines[(text + 2)..<(text + 2 + drawn.count)]) == drawn)
    }

    @Test("a terminal too narrow for the code says how wide it must be instead of cutting it")
    func narrow() async {
        let width = (expected.first?.count ?? 0)
        let grid = TerminalGrid(width: width)
        let renderer = TTYRenderer(keys: ScriptedKeys([]), output: grid, style: TerminalStyle(colors: false), width: { width })
        await renderer.present(screen)
        #expect(!grid.lines.contains(expected.first ?? "-"))
        #expect(grid.lines.joined(separator: " ").contains("(Widen the terminal to \(width + 1) columns to see the QR code.)"))
    }

    @Test("the plain renderer writes the code's lines whole")
    func plain() async {
        let output = TextBuffer()
        let renderer = PlainRenderer(input: LinesInput([]), output: output, answers: [:], prompts: false)
        await renderer.present(screen)
        for line in expected { #expect(output.text.contains(line)) }
    }

    @Test("initials are a badge on their colour, or in brackets without colour, in both renderers")
    func initials() async {
        let badge = Screen(id: "account", title: "Account", figures: [.initials("AL", colour: "teal")])
        let coloured = TextBuffer()
        await TTYRenderer(keys: ScriptedKeys([]), output: coloured, style: TerminalStyle(theme: .dark), width: { 40 }).present(badge)
        #expect(coloured.text.contains("\u{1B}[1;97;48;5;30m AL \u{1B}[0m"))
        let grid = TerminalGrid(width: 40)
        await TTYRenderer(keys: ScriptedKeys([]), output: grid, style: TerminalStyle(colors: false), width: { 40 }).present(badge)
        #expect(grid.lines.contains("[AL]"))
        let plain = TextBuffer()
        await PlainRenderer(input: LinesInput([]), output: plain, answers: [:], prompts: false).present(badge)
        #expect(plain.text.contains("[AL]"))
    }
}
