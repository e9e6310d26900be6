import FlowKit
import FlowTerminal
import Testing

/// Narrow, short and resized terminals: everything stays visible and reachable, and repaints
/// never leave copies of the drawing behind.
@Suite("TTYRenderer in narrow, short and resized terminals")
struct TTYLayoutTests {
    let form = Screen(
        id: "sign-up",
        title: "Create an account",
        text: ["Your email and password sign you in on this device."],
        fields: [
            Field(id: "email", label: "Email", input: .text("ada.lovelace@analytical-engine.example"), error: "This address is already taken by someone."),
            Field(id: "password", label: "Password", input: .secret(isSet: false), hint: "at least 8 characters"),
            Field(id: "display-name", label: "Display name", input: .text("Augusta Ada King, Countess of Lovelace")),
            Field(id: "currency", label: "Currency", input: .choice([Choice(id: "eur", label: "Euro"), Choice(id: "gbp", label: "Pound sterling")], selected: "gbp")),
        ],
        actions: [
            Action(id: "create", label: "Create account", role: .primary),
            Action(id: "sign-in", label: "Sign in instead"),
            Action(id: "cancel", label: "Cancel", role: .cancel),
        ],
        status: .notice("Your data stays on this computer."),
        breadcrumb: ["Welcome"]
    )

    private func renderer(_ keys: [Key], width: Int, height: Int = 1_000) -> (TTYRenderer, TerminalGrid) {
        let grid = TerminalGrid(width: width, height: height)
        let renderer = TTYRenderer(
            keys: ScriptedKeys(keys), output: grid, style: TerminalStyle(colors: false),
            height: { grid.height }, width: { grid.width }
        )
        return (renderer, grid)
    }

    /// Text without its spaces, so what wraps onto several rows can be found whole.
    private func squashed(_ text: String) -> String { String(text.filter { !$0.isWhitespace }) }

    @Test("every label, value, error and action is drawn, and every row fits, at widths 20 to 80", arguments: [20, 21, 24, 27, 30, 36, 40, 50, 60, 80])
    func everythingVisible(width: Int) async {
        // Tab to each action in turn: each is drawn focused, so each can be reached.
        let (renderer, grid) = renderer([], width: width)
        await renderer.present(form)
        let drawn = squashed(grid.history.joined())
        var expected = form.fields.map(\.label) + form.actions.map(\.label) + ["ada.lovelace@analytical-engine.example", "Augusta Ada King, Countess of Lovelace", "Pound sterling", "This address is already taken by someone.", "Your data stays on this computer.", "at least 8 characters"]
        expected += [form.title, form.text[0], "ctrl-d cancel"]
        for text in expected {
            #expect(drawn.contains(squashed(text)), "\(text.debugDescription) is missing at \(width) columns:\n\(grid.lines.joined(separator: "\n"))")
        }
        #expect(grid.history.allSatisfy { DisplayWidth.of($0) < width }, "a row reaches the last column at \(width) columns")

        for (offset, action) in form.actions.enumerated() {
            let tabs = form.fields.count + offset  // the focus starts on the email, whose error is first
            let (focused, focusedGrid) = self.renderer(Array(repeating: .tab, count: tabs), width: width)
            await focused.present(form)
            _ = await focused.nextEvent(on: form)
            let shown = squashed(focusedGrid.history.joined())
            #expect(shown.contains("[" + squashed(action.label) + "]"), "\(action.label) cannot be focused at \(width) columns:\n\(focusedGrid.lines.joined(separator: "\n"))")
        }
    }

    @Test("a list with nothing chosen shows its first options while another element has the focus, and how many more")
    func listShownUnfocused() async {
        let friends = (1...10).map { Choice(id: ElementID("f\($0)"), label: "Friend \($0)") }
        let screen = Screen(
            id: "friends", title: "Friends",
            fields: [
                Field(id: "filter", label: "Filter", input: .text("")),
                Field(id: "friend", label: "Open", input: .choice(friends, selected: nil)),
                Field(id: "currency", label: "Currency", input: .choice([Choice(id: "EUR", label: "EUR"), Choice(id: "JPY", label: "JPY")], selected: "JPY")),
            ],
            actions: [.back]
        )
        let (renderer, grid) = renderer([], width: 60)
        await renderer.present(screen)
        let drawn = grid.lines.joined(separator: "\n")
        for index in 1...8 { #expect(drawn.contains("Friend \(index)\n"), "Friend \(index) is not listed:\n\(drawn)") }
        #expect(!drawn.contains("Friend 9"), "\(drawn)")
        #expect(drawn.contains("and 2 more"), "\(drawn)")
        // A choice made shows the choice alone.
        #expect(drawn.contains("Currency  JPY") && !drawn.contains("EUR"), "\(drawn)")
    }

    @Test("prose wraps at spaces: no word of the title, text, errors, notice or help line is split", arguments: [20, 23, 31, 45])
    func proseWrapsAtSpaces(width: Int) async {
        let (renderer, grid) = renderer([], width: width)
        await renderer.present(form)
        let prose = [
            form.text[0], "This address is already taken by someone.", "Your data stays on this computer.",
            "tab next · shift-tab back · enter confirm · esc back · ctrl-d cancel", "Welcome › Create an account",
        ]
        let words = Set(prose.flatMap { $0.split(separator: " ") }).subtracting(["·"])
        let rowWords = Set(grid.history.flatMap { $0.split(separator: " ") })
        for word in words {
            #expect(rowWords.contains(word), "\(word) is split at \(width) columns:\n\(grid.history.joined(separator: "\n"))")
        }
    }

    @Test("a long value wraps by characters and the cursor follows it onto the right row")
    func wrappedValueCursor() async {
        var screen = form
        screen.fields[0].input = .text("")
        screen.fields[0].error = nil
        let typed = "abcdefghijklmnopqrstuvwxyz0123456789"
        let grid = TerminalGrid(width: 20)
        let keys = WatchedKeys(typed.map { Key.character($0) } + Array(repeating: .left, count: 7), grid: grid)
        let renderer = TTYRenderer(keys: keys, output: grid, style: TerminalStyle(colors: false), width: { 20 })
        await renderer.present(screen)
        _ = await renderer.nextEvent(on: screen)
        guard let sight = keys.sights.last else { return }
        #expect(squashed(sight.lines.joined()).contains(typed))
        guard let last = sight.lines.lastIndex(where: { $0.hasSuffix("456789") }) else {
            Issue.record("the end of the value is not drawn:\n\(sight.lines.joined(separator: "\n"))")
            return
        }
        // Seven to the left of the end is just before the "3", the last character of the row above.
        let row = sight.lines[last - 1]
        #expect(row.hasSuffix("3"))
        #expect(sight.cursor.row == last - 1, "cursor on row \(sight.cursor.row), the value's rows end on \(last)")
        #expect(sight.cursor.column == DisplayWidth.of(row) - 1, "cursor at column \(sight.cursor.column) of \(row.debugDescription)")
        // Typing on goes in before the "3" and the cursor follows.
    }

    /// Runs the screen until input ends, filling in what the renderer sends back.
    private func run(_ screen: Screen, on renderer: TTYRenderer) async {
        var screen = screen
        await renderer.present(screen)
        while case .fill(let id, let text) = await renderer.nextEvent(on: screen) {
            guard let index = screen.fields.firstIndex(where: { $0.id == id }) else { return }
            if case .secret = screen.fields[index].input { screen.fields[index].input = .secret(isSet: true) } else { screen.fields[index].input = .text(text) }
            await renderer.update(screen)
        }
    }

    @Test("at 20x8 the drawing never grows taller than the terminal and the title is in the scrollback and screen once")
    func shortTerminal() async {
        let screen = Screen(
            id: "sign-in", title: "Sign in",
            fields: [Field(id: "email", label: "Email", input: .text("")), Field(id: "password", label: "Password", input: .secret(isSet: false))],
            actions: [Action(id: "sign-in", label: "Sign in", role: .primary), Action(id: "create", label: "Create an account"), Action(id: "cancel", label: "Cancel", role: .cancel)],
            status: .error("wrong email or password")
        )
        var keys = "ada@example.com".map { Key.character($0) } + [.tab] + "correct horse".map { Key.character($0) }
        keys += Array(repeating: .tab, count: 4) + Array(repeating: .shiftTab, count: 5) + [.character("x")]
        let grid = TerminalGrid(width: 20, height: 8)
        let watched = WatchedKeys(keys, grid: grid)
        let renderer = TTYRenderer(keys: watched, output: grid, style: TerminalStyle(colors: false), height: { grid.height }, width: { grid.width })
        await run(screen, on: renderer)
        for sight in watched.sights {
            #expect(sight.history.filter { $0 == "Sign in" }.count <= 1, "copies of the title:\n\(sight.history.joined(separator: "\n"))")
            #expect(sight.lines.contains { $0.contains("✗ wrong email") }, "the error is not kept in view:\n\(sight.lines.joined(separator: "\n"))")
        }
        // Back on the first field, at the top: the title is in view, once, and more is below.
        guard let last = watched.sights.last else { return }
        #expect(last.history.filter { $0 == "Sign in" }.count == 1, "the title is drawn more than once or not at all:\n\(last.history.joined(separator: "\n"))")
        #expect(last.lines.first == "Sign in")
        #expect(last.lines.count == 8)
        #expect(last.lines.contains { $0.contains("↓") }, "no mark says there is more below:\n\(last.lines.joined(separator: "\n"))")
        #expect(squashed(last.lines.joined()).contains("ada@example.comx"))
    }

    @Test("a focused element further down is scrolled into view, with a mark that more is above")
    func windowFollowsFocus() async {
        let grid = TerminalGrid(width: 20, height: 8)
        let watched = WatchedKeys([.shiftTab], grid: grid)  // from the first field round to Cancel
        let renderer = TTYRenderer(keys: watched, output: grid, style: TerminalStyle(colors: false), height: { grid.height }, width: { grid.width })
        await run(form, on: renderer)
        guard let last = watched.sights.last else { return }
        #expect(squashed(last.lines.joined()).contains("[Cancel]"), "\(last.lines.joined(separator: "\n"))")
        #expect(last.lines.contains { $0.contains("↑") })
        #expect(last.lines.contains { $0.contains("Your data stays") }, "the notice is not kept in view")
        #expect(last.history.filter { $0.contains("Welcome") }.count <= 1)
    }

    @Test("after resizes from wide to narrow and back, the title is in the scrollback and screen exactly once", arguments: [(80, 20), (60, 24), (100, 33), (40, 20)])
    func resize(from wide: Int, to narrow: Int) async {
        let grid = TerminalGrid(width: wide, height: 40)
        let keys = WatchedKeys(resizing: [((narrow, 40), .resize), (nil, .character("x")), ((wide, 40), .resize), ((narrow, 40), .resize)], grid: grid)
        let renderer = TTYRenderer(keys: keys, output: grid, style: TerminalStyle(colors: false), height: { grid.height }, width: { grid.width })
        var screen = form
        screen.fields[0].input = .text("ada@example.com")
        screen.fields[0].error = nil
        await renderer.present(screen)
        _ = await renderer.nextEvent(on: screen)
        let history = grid.history
        #expect(history.filter { $0.contains("Welcome") }.count == 1, "copies of the drawing are left behind:\n\(history.joined(separator: "\n"))")
        #expect(squashed(history.joined()).contains("Createaccount"))
    }

    @Test("the terminal's own size is read for both sides")
    func terminalSize() {
        // Not a terminal in tests: the usual fallbacks.
        #expect(TerminalModes.width() > 0)
        #expect(TerminalModes.height() > 0)
    }
}

