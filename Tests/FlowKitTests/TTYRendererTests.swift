import FlowKit
import FlowTerminal
import Testing

@Suite("TTYRenderer over an in-memory terminal")
struct TTYRendererTests {
    let form = Screen(
        id: "sign-up",
        title: "Create an account",
        text: ["Your email and password sign you in."],
        fields: [
            Field(id: "email", label: "Email", input: .text("")),
            Field(id: "password", label: "Password", input: .secret(isSet: false), hint: "at least 8 characters"),
        ],
        actions: [Action(id: "create", label: "Create account", role: .primary), Action(id: "cancel", label: "Cancel", role: .cancel)],
        breadcrumb: ["Welcome"]
    )

    private func renderer(_ keys: [Key], width: Int = 60) -> (TTYRenderer, TerminalGrid) {
        let grid = TerminalGrid(width: width)
        let renderer = TTYRenderer(keys: ScriptedKeys(keys), output: grid, style: TerminalStyle(colors: false), width: { width })
        return (renderer, grid)
    }

    private func typed(_ text: String) -> [Key] { text.map { Key.character($0) } }

    @Test("draws the whole screen, focus on the first empty field, cursor after its text")
    func firstDraw() async {
        let (renderer, grid) = renderer(typed("ada"))
        await renderer.present(form)
        #expect(grid.cursor.row == 3)
        #expect(grid.cursor.column == 12)
        _ = await renderer.nextEvent(on: form)
        #expect(grid.lines == [
            "Welcome › Create an account",
            "Your email and password sign you in.",
            "",
            "› Email     ada",
            "  Password  at least 8 characters",
            "",
            "  Create account     Cancel",
            "tab next · shift-tab back · enter confirm · esc back",
            "ctrl-d cancel",
        ])
    }

    @Test("editing in place: backspace, arrows, home, delete, ctrl-w, then enter fills the field")
    func editing() async {
        let keys = typed("ada lovelace") + [.control("w"), .backspace] + typed("@x.io") + [.home, .delete, .character("A"), .end, .enter]
        let (renderer, _) = renderer(keys)
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .fill("email", "Ada@x.io"))
    }

    @Test("a secret shows as dots; enter on the last field fills it, then submits once it is valid")
    func secretAndSubmit() async {
        let (renderer, grid) = renderer(typed("correct horse") + [.enter])
        var screen = form
        screen.fields[0].input = .text("ada@x.io")
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .fill("password", "correct horse"))
        #expect(grid.lines.contains("› Password  •••••••••••••"))
        screen.fields[1].input = .secret(isSet: true)
        await renderer.update(screen)
        #expect(await renderer.nextEvent(on: screen) == .tap("create"))
        #expect(!grid.lines.joined().contains("correct horse"))
    }

    @Test("an error shows under its field and the focus goes back to it")
    func inlineError() async {
        let (renderer, grid) = renderer(typed("nope") + [.enter, .character("x")])
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .fill("email", "nope"))
        var screen = form
        screen.fields[0].input = .text("nope")
        screen.fields[0].error = "Enter an email address like name@example.com."
        await renderer.update(screen)
        _ = await renderer.nextEvent(on: screen)
        #expect(grid.lines.contains("› Email     nopex"))
        #expect(grid.lines.contains("            ✗ Enter an email address like name@example.com."))
    }

    @Test("tab moves through fields and actions; enter takes the focused action; esc is back")
    func actions() async {
        let (renderer, _) = renderer([.tab, .tab, .tab, .enter, .escape])
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .tap("cancel"))
        #expect(await renderer.nextEvent(on: form) == .back)
    }

    @Test("another step of the same screen (other fields and other actions) starts its focus as a new screen would")
    func anotherStep() async {
        let preview = Screen(
            id: "user-preview", title: "Sammy", text: ["A contact."],
            actions: [Action(id: "add-expense", label: "Add", role: .primary), Action(id: "rename", label: "Rename"), Action(id: "back", label: "Back")]
        )
        let rename = Screen(
            id: "user-preview", title: "Sammy", fields: [Field(id: "name", label: "Name", input: .text(""))],
            actions: [Action(id: "save-name", label: "Save", role: .primary), Action(id: "back", label: "Back")]
        )
        // Tab to Rename on the preview; on the form, typing goes into the name (index 0), not
        // to whatever held the focus's old place (Save).
        let (renderer, _) = renderer([.tab, .enter] + typed("Sam") + [.enter])
        await renderer.present(preview)
        #expect(await renderer.nextEvent(on: preview) == .tap("rename"))
        #expect(await renderer.nextEvent(on: rename) == .fill("name", "Sam"))
    }

    @Test("a choice moves with arrows and j/k, filters after /, picks with enter")
    func choice() async {
        let screen = Screen(id: "pick", title: "Pick", fields: [
            Field(id: "currency", label: "Currency", input: .choice([Choice(id: "eur", label: "Euro"), Choice(id: "jpy", label: "Yen"), Choice(id: "usd", label: "US dollar")], selected: nil)),
        ], actions: [Action(id: "save", label: "Save", role: .primary)])
        let (renderer, grid) = renderer([.down, .character("j"), .character("k"), .character("/"), .character("D"), .character("o")])
        await renderer.present(screen)
        _ = await renderer.nextEvent(on: screen)
        #expect(grid.lines.contains("› Currency  /Do  type to filter, enter to pick, esc to stop"))
        #expect(grid.lines.contains("            › US dollar"))
        #expect(!grid.lines.contains("              Euro"))
        let (second, _) = self.renderer([.down, .enter])
        await second.present(screen)
        #expect(await second.nextEvent(on: screen) == .choose("currency", ["jpy"]))
        let (third, _) = self.renderer([.character("/"), .character("y"), .enter])
        await third.present(screen)
        #expect(await third.nextEvent(on: screen) == .choose("currency", ["jpy"]))
    }

    @Test("multi-choice toggles with space; confirm answers with y or n")
    func multiAndConfirm() async {
        let screen = Screen(id: "who", title: "Who", fields: [
            Field(id: "with", label: "With", input: .multiChoice([Choice(id: "bob", label: "Bob"), Choice(id: "cy", label: "Cy")], selected: [])),
            Field(id: "sure", label: "Sure", input: .confirm(nil)),
        ])
        let (renderer, _) = renderer([.character(" "), .down, .character(" "), .character(" "), .character(" "), .enter, .character("y")])
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .choose("with", ["bob", "cy"]))
        #expect(await renderer.nextEvent(on: screen) == .choose("sure", [.yes]))
    }

    @Test("a paste goes into the field as one line, without control characters")
    func paste() async {
        let (renderer, _) = renderer([.paste("ada@\nx.io\u{1B}[31m"), .enter])
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .fill("email", "ada@ x.io[31m"))
    }

    @Test("repaints its own region in place; long text wraps by display width")
    func repaintAndWrap() async {
        var screen = form
        screen.text = [String(repeating: "界", count: 40)]
        let (renderer, grid) = renderer(typed("a") + [.backspace] + typed("b"), width: 30)
        await renderer.present(screen)
        _ = await renderer.nextEvent(on: screen)
        #expect(grid.lines.filter { $0.hasPrefix("Welcome") }.count == 1)
        #expect(grid.lines[1] == String(repeating: "界", count: 14))
        #expect(grid.lines[3] == String(repeating: "界", count: 12))
        #expect(grid.lines.contains("› Email     b"))
    }

    @Test("end of input stops the run naming the question; ctrl-d cancels")
    func ending() async {
        let (renderer, _) = renderer([])
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .cancel)
        #expect(await renderer.stop == .endOfInput(question: "Email"))
        let (second, _) = self.renderer([.control("d")])
        await second.present(form)
        #expect(await second.nextEvent(on: form) == .cancel)
        #expect(await second.stop == nil)
    }

    @Test("ctrl-r asks the screen to read again, in a field as anywhere, and keeps what is typed")
    func refresh() async {
        let (renderer, grid) = renderer(typed("ad") + [.control("r")])
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .refresh)
        #expect(grid.lines.contains("› Email     ad"))
    }

    @Test("themes choose the palette; no-colour writes no escape at all")
    func themes() async {
        var outputs: [TerminalStyle.Theme: String] = [:]
        for theme in TerminalStyle.Theme.allCases {
            let output = TextBuffer()
            let renderer = TTYRenderer(keys: ScriptedKeys([]), output: output, style: TerminalStyle(theme: theme), width: { 60 })
            var screen = form
            screen.fields[0].error = "Enter your email address."
            await renderer.present(screen)
            let grid = TerminalGrid(width: 60)
            grid.write(output.text)
            #expect(grid.lines.contains("            ✗ Enter your email address."))
            // Every styled piece ends with a reset; without colour there is none.
            #expect(output.text.contains("\u{1B}[0m") == (theme != .noColour))
            outputs[theme] = output.text
        }
        #expect(outputs[.dark] != outputs[.light])
        #expect(outputs[.light] != outputs[.highContrast])
        #expect(outputs[.highContrast]?.contains("\u{1B}[1;97;41m✗ Enter your email address.") == true)
    }

    @Test("a list's details (balances) line up in a column after the widest label, in their tones; a very long label pushes only its own")
    func columns() async {
        let long = String(repeating: "Ω", count: 40)
        let screen = Screen(
            id: "friends", title: "Friends",
            fields: [
                Field(id: "back-first", label: "Filter", input: .text("")),
                Field(id: "friend", label: "Open", input: .choice([
                    Choice(id: "bob", label: "Bob Stone", detail: "owes you 5.00 EUR"), Choice(id: "sam", label: "Sam Park (contact)", detail: "you owe 3.00 EUR"),
                    Choice(id: "cy", label: "Cy", detail: "settled up"), Choice(id: "long", label: long, detail: "settled up"),
                ], selected: nil)),
            ],
            actions: [.back],
            tones: [TonedPhrase("owes you 5.00 EUR", .positive), TonedPhrase("you owe 3.00 EUR", .negative)]
        )
        let plain = TextBuffer()
        await TTYRenderer(keys: ScriptedKeys([]), output: plain, style: TerminalStyle(theme: .noColour), width: { 100 }).present(screen)
        let grid = TerminalGrid(width: 100)
        grid.write(plain.text)
        let rows = ["Bob Stone", "Sam Park (contact)", "Cy"].compactMap { name in grid.lines.first { $0.contains(name) } }
        let columns = rows.map { row in row.range(of: row.contains("owes") ? "owes" : row.contains("you owe") ? "you owe" : "settled").map { row.distance(from: row.startIndex, to: $0.lowerBound) } }
        #expect(rows.count == 3 && Set(columns).count == 1, "\(rows)")
        // Past the widest column a label keeps its detail two spaces after it.
        #expect(grid.lines.contains { $0.contains(long + "  settled up") })
        let dark = TextBuffer()
        await TTYRenderer(keys: ScriptedKeys([]), output: dark, style: TerminalStyle(theme: .dark), width: { 100 }).present(screen)
        #expect(dark.text.contains("\u{1B}[92mowes you 5.00 EUR\u{1B}[0m") && dark.text.contains("\u{1B}[93myou owe 3.00 EUR\u{1B}[0m"))
    }

    @Test("money owed to the user and by them is drawn in two tones, in the text and in a list, wherever the phrase stands; without colour, as it is")
    func tones() async {
        let screen = Screen(
            id: "friends", title: "Friends",
            text: ["In all, you are owed 2.00 EUR.", "Bob Stone owes you 5.00 EUR; you owe Cy Young 3.00 EUR."],
            fields: [
                Field(id: "back-first", label: "Filter", input: .text("")),
                Field(id: "friend", label: "Open", input: .choice([Choice(id: "bob", label: "Bob Stone: owes you 5.00 EUR"), Choice(id: "cy", label: "Cy Young: you owe 3.00 EUR")], selected: nil)),
            ],
            actions: [.back],
            tones: [
                TonedPhrase("In all, you are owed 2.00 EUR.", .positive), TonedPhrase("owes you 5.00 EUR", .positive),
                TonedPhrase("you owe 3.00 EUR", .negative), TonedPhrase("you owe Cy Young 3.00 EUR", .negative),
            ]
        )
        let dark = TextBuffer()
        await TTYRenderer(keys: ScriptedKeys([]), output: dark, style: TerminalStyle(theme: .dark), width: { 80 }).present(screen)
        for (phrase, code) in [
            ("In all, you are owed 2.00 EUR.", "92"), ("owes you 5.00 EUR", "92"), ("you owe Cy Young 3.00 EUR", "93"), ("you owe 3.00 EUR", "93"),
        ] {
            #expect(dark.text.contains("\u{1B}[\(code)m\(phrase)\u{1B}[0m"), "\(phrase) is not drawn in \(code):\n\(dark.text.debugDescription)")
        }
        // The words around a phrase stay plain.
        #expect(dark.text.contains("Bob Stone \u{1B}[92mowes you 5.00 EUR\u{1B}[0m; "))
        let plain = TextBuffer()
        await TTYRenderer(keys: ScriptedKeys([]), output: plain, style: TerminalStyle(theme: .noColour), width: { 80 }).present(screen)
        let grid = TerminalGrid(width: 80)
        grid.write(plain.text)
        #expect(grid.lines.contains("Bob Stone owes you 5.00 EUR; you owe Cy Young 3.00 EUR."))
        #expect(grid.lines.contains("            Cy Young: you owe 3.00 EUR"))
    }

    @Test("restyling repaints the screen shown in the new palette at once, in place, and later drawings keep it")
    func restyle() async {
        let output = TextBuffer()
        let renderer = TTYRenderer(keys: ScriptedKeys([]), output: output, style: TerminalStyle(theme: .dark), width: { 60 })
        var screen = form
        screen.fields[0].error = "Enter your email address."
        await renderer.present(screen)
        let dark = output.text
        #expect(dark.contains("\u{1B}[91m✗ Enter your email address."))
        await renderer.restyle(TerminalStyle(theme: .highContrast))
        let repaint = String(output.text.dropFirst(dark.count))
        #expect(repaint.contains("\u{1B}[1;97;41m✗ Enter your email address."))
        #expect(!repaint.contains("\u{1B}[91m"))
        // In place: one copy of the form on the terminal, not two.
        let grid = TerminalGrid(width: 60)
        grid.write(output.text)
        #expect(grid.lines.filter { $0.contains("✗ Enter your email address.") }.count == 1)
        // The same style again draws nothing; a later update keeps the new palette.
        await renderer.restyle(TerminalStyle(theme: .highContrast))
        #expect(output.text.count == dark.count + repaint.count)
        screen.fields[0].error = "Enter a valid address."
        await renderer.update(screen)
        #expect(output.text.contains("\u{1B}[1;97;41m✗ Enter a valid address."))
    }

    @Test("a busy screen shows its label with a spinner mark; a resize repaints in place")
    func busyAndResize() async {
        var screen = form
        screen.status = .busy("Creating your account")
        let (renderer, grid) = renderer([.resize])
        await renderer.present(screen)
        _ = await renderer.nextEvent(on: screen)
        #expect(grid.lines.contains("⠿ Creating your account…"))
        #expect(grid.lines.filter { $0.hasPrefix("Welcome") }.count == 1)
    }

    @Test("colour only when wanted: NO_COLOR, TERM=dumb and a non-terminal turn it off; always forces it")
    func colour() {
        #expect(TerminalStyle.resolve(.auto, environment: ["TERM": "xterm"], outputIsTerminal: true).colors)
        #expect(!TerminalStyle.resolve(.auto, environment: ["TERM": "xterm", "NO_COLOR": "1"], outputIsTerminal: true).colors)
        #expect(!TerminalStyle.resolve(.auto, environment: ["TERM": "dumb"], outputIsTerminal: true).colors)
        #expect(!TerminalStyle.resolve(.auto, environment: [:], outputIsTerminal: false).colors)
        #expect(TerminalStyle.resolve(.always, environment: ["NO_COLOR": "1"], outputIsTerminal: false).colors)
        #expect(!TerminalStyle.resolve(.never, environment: [:], outputIsTerminal: true).colors)
    }

    @Test("NO_COLOR as no-color.org says: present and not empty turns colour off, whatever the theme; empty does not; --color always still wins")
    func noColor() {
        for theme in TerminalStyle.Theme.allCases where theme != .noColour {
            #expect(TerminalStyle.resolve(.auto, environment: ["TERM": "xterm", "NO_COLOR": ""], outputIsTerminal: true, theme: theme).theme == theme)
            #expect(TerminalStyle.resolve(.auto, environment: ["TERM": "xterm", "NO_COLOR": "0"], outputIsTerminal: true, theme: theme).theme == .noColour)
            #expect(TerminalStyle.resolve(.always, environment: ["TERM": "dumb", "NO_COLOR": "yes"], outputIsTerminal: true, theme: theme).theme == theme)
            #expect(TerminalStyle.resolve(.never, environment: ["TERM": "xterm"], outputIsTerminal: true, theme: theme).theme == .noColour)
        }
    }

    @Test("display width: wide characters take two columns, combining marks none")
    func widths() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("界界") == 4)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("👩‍👩‍👧") == 2)
    }

    @Test("the tab bar of a tabbed screen: drawn under the title, Left / Right choose a tab")
    func tabBar() async {
        let screen = Screen(
            id: "home", title: "Flows",
            actions: [Action(id: "quit", label: "Quit", role: .cancel)],
            tabs: [Tab(id: "account", label: "Account"), Tab(id: "friends", label: "Friends", isSelected: true), Tab(id: "expenses", label: "Expenses")]
        )
        let (renderer, grid) = renderer([.shiftTab, .right, .left])
        await renderer.present(screen)
        #expect(grid.lines[1] == "  Account    Friends    Expenses")
        #expect(await renderer.nextEvent(on: screen) == .tap("expenses"))
        #expect(await renderer.nextEvent(on: screen) == .tap("account"))
        #expect(screen.elementIDs == ["account", "friends", "expenses", "quit"])
    }

    @Test("Alt and a letter does not leave the screen: Alt-x is ignored, what was typed is kept")
    func altDoesNotGoBack() async {
        var decoder = KeyDecoder()
        let keys = decoder.feed(Array("ada\u{1B}x\r".utf8)) + decoder.flush()
        let (renderer, _) = renderer(keys)
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .fill("email", "ada"))
    }

    @Test("Alt-B and Alt-F move the cursor a word back and forward; Alt-Backspace deletes a word")
    func wordMotion() async {
        let keys = typed("ada lovelace") + [.alt("b"), .character("X"), .alt("f"), .character("Y"), .home, .alt("f"), .character("Z"), .end, .alt("\u{7F}"), .enter]
        let (renderer, _) = renderer(keys)
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .fill("email", "adaZ "))
    }

    @Test("input that is not UTF-8 is dropped from a secret and the screen says so")
    func invalidInput() async {
        var screen = form
        screen.fields[0].input = .text("ada@x.io")
        let grid = TerminalGrid(width: 60)
        let keys = WatchedKeys([.character("p"), .character("a"), .invalidUTF8, .character("s"), .character("s")], grid: grid)
        let renderer = TTYRenderer(keys: keys, output: grid, style: TerminalStyle(colors: false), width: { 60 })
        await renderer.present(screen)
        _ = await renderer.nextEvent(on: screen)
        // Drawn after the bad input (the fourth time a key is asked for): the notice, the secret unchanged.
        let sights = keys.sights
        #expect(sights.count == 6)
        if sights.count == 6 {
            #expect(sights[3].lines.contains("✗ input that is not valid UTF-8 was ignored"), "\(sights[3].lines.joined(separator: "\n"))")
            #expect(sights[3].lines.contains("› Password  ••"))
            #expect(!sights[4].lines.contains("✗ input that is not valid UTF-8 was ignored"))
            #expect(sights[5].lines.contains("› Password  ••••"))
        }
        let (second, _) = self.renderer([.character("p"), .invalidUTF8, .enter])
        await second.present(screen)
        #expect(await second.nextEvent(on: screen) == .fill("password", "p"))
    }
}
