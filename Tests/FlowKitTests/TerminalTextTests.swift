import FlowKit
import FlowTerminal
import Testing

/// Invisible and format characters never reach the terminal as they are.
@Suite("Text made safe for the terminal")
struct TerminalTextTests {
    /// Scalars a terminal would not show, or that reorder or hide what is around them.
    static func invisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .format
    }

    @Test("invisible and format characters become a visible marker", arguments: [
        ("a\u{200B}b", "a<U+200B>b"), ("\u{202E}evil", "<U+202E>evil"), ("\u{2066}x\u{2069}", "<U+2066>x<U+2069>"),
        ("left\u{200E}", "left<U+200E>"), ("\u{200F}", "<U+200F>"), ("\u{061C}", "<U+061C>"), ("\u{FEFF}bom", "<U+FEFF>bom"),
        ("soft\u{00AD}hyphen", "soft<U+00AD>hyphen"), ("a\u{200D}b", "a<U+200D>b"), ("\u{3164}", "<U+3164>"),
        ("x\u{FE0F}", "x<U+FE0F>"), ("👩\u{200D}", "👩<U+200D>"), ("tag\u{E0041}", "tag<U+E0041>"),
    ])
    func markers(text: String, expected: String) {
        #expect(TerminalText.sanitized(text) == expected)
    }

    @Test("emoji keep their joiners, variation selectors and tags", arguments: ["👩‍👩‍👧", "❤️", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👍🏽", "🏳️‍🌈"])
    func emoji(text: String) {
        #expect(TerminalText.sanitized(text) == text)
    }

    @Test("control characters still become U+FFFD, line breaks stay")
    func controls() {
        #expect(TerminalText.sanitized("a\u{1B}[31mb\nc\u{7}") == "a\u{FFFD}[31mb\nc\u{FFFD}")
    }

    private let hostile = Screen(
        id: "hostile",
        title: "Pay \u{202E}rebmun\u{202C}",
        text: ["Text\u{200B}here"],
        fields: [
            Field(id: "name", label: "Na\u{200D}me", input: .text("Bob\u{2066}x"), hint: "hint\u{FEFF}", error: "bad\u{200F}"),
            Field(id: "who", label: "Who\u{00AD}", input: .choice([Choice(id: "a", label: "Al\u{2067}ice"), Choice(id: "b", label: "B\u{3164}ob")], selected: "b")),
            Field(id: "many", label: "Many", input: .multiChoice([Choice(id: "c", label: "C\u{061C}y")], selected: ["c"])),
        ],
        actions: [Action(id: "go", label: "G\u{200E}o", role: .primary), Action(id: "stop", label: "St\u{202A}op", role: .cancel)],
        status: .busy("Wor\u{2068}king"),
        breadcrumb: ["Ho\u{200C}me"],
        tabs: [Tab(id: "t", label: "Ta\u{2069}b", isSelected: true)]
    )

    @Test("the TTY renderer writes no invisible character from any part of a screen or from typing")
    func ttyRenderer() async {
        for focusKeys in [[Key](), [.tab], [.tab, .tab], [.tab, .tab, .tab]] {
            let output = TextBuffer()
            let renderer = TTYRenderer(
                keys: ScriptedKeys([.shiftTab, .tab] + focusKeys + [.character("\u{200B}"), .paste("x\u{202E}y")]),
                output: output, style: TerminalStyle(colors: false), width: { 80 }
            )
            await renderer.present(hostile)
            _ = await renderer.nextEvent(on: hostile)
            let shown = output.text.unicodeScalars.filter(Self.invisible)
            #expect(shown.isEmpty, "written as they are: \(shown.map { "U+" + String($0.value, radix: 16, uppercase: true) })")
            #expect(output.text.contains("<U+202E>"))
        }
    }

    @Test("the cursor of a value with an invisible character counts its marker")
    func cursorAfterMarker() async {
        let screen = Screen(id: "s", title: "T", fields: [Field(id: "name", label: "Name", input: .text(""))])
        let grid = TerminalGrid(width: 60)
        let keys = WatchedKeys([.character("a"), .character("\u{200B}"), .character("b"), .left], grid: grid)
        let renderer = TTYRenderer(keys: keys, output: grid, style: TerminalStyle(colors: false), width: { 60 })
        await renderer.present(screen)
        _ = await renderer.nextEvent(on: screen)
        guard let last = keys.sights.last else { return }
        #expect(last.lines.contains("› Name  a<U+200B>b"))
        #expect(last.cursor.column == DisplayWidth.of("› Name  a<U+200B>"))
    }

    @Test("the plain renderer writes no invisible character: labels, options, actions, tabs, echoed answers")
    func plainRenderer() async {
        let output = TextBuffer()
        let renderer = PlainRenderer(input: LinesInput(["?", "", "Eve\u{202E}", "1"]), output: output)
        var screen = hostile
        screen.status = .notice("No\u{2060}tice")
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .fill("name", "Eve\u{202E}"))
        screen.fields[0].error = nil
        screen.fields[0].input = .text("Eve\u{202E}")
        #expect(await renderer.nextEvent(on: screen) == .choose("who", ["a"]))
        let shown = output.text.unicodeScalars.filter(Self.invisible)
        #expect(shown.isEmpty, "written as they are: \(shown.map { "U+" + String($0.value, radix: 16, uppercase: true) })")
        #expect(output.text.contains("Eve<U+202E>"))
        #expect(output.text.contains("Al<U+2067>ice"))
    }
}
