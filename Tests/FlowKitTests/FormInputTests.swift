import FlowKit
import FlowTerminal
import FlowTesting
import Testing

/// The inputs of an expense form: money, day, a table of per-person values, and filtered
/// choices, in both renderers and in transcripts.
@Suite("Form inputs: money, day, table, filtered choices")
struct FormInputTests {
    static let form = Screen(
        id: "add-expense",
        title: "Add an expense",
        fields: [
            Field(id: "amount", label: "Amount", input: .money("", currency: "EUR", decimals: 2)),
            Field(id: "day", label: "Day", input: .day("today", resolved: "Monday 2026-11-23")),
            Field(id: "parts", label: "Parts", input: .table([
                TableRow(id: "you", label: "You", value: "1", note: "→ 10.00 EUR"),
                TableRow(id: "bob-stone", label: "Bob Stone", value: "", note: nil),
            ], unit: "shares", decimals: 0)),
        ],
        actions: [Action(id: "save", label: "Save", role: .primary), Action(id: "cancel", label: "Cancel", role: .cancel)],
        footer: ["You pay 10.00 EUR."]
    )

    private func tty(_ keys: [Key], width: Int = 60) -> (TTYRenderer, TerminalGrid) {
        let grid = TerminalGrid(width: width)
        return (TTYRenderer(keys: ScriptedKeys(keys), output: grid, style: TerminalStyle(colors: false), width: { width }), grid)
    }

    private func typed(_ text: String) -> [Key] { text.map { Key.character($0) } }

    @Test("money: every accepted key is reported as typed, a key no amount could take is refused with why, enter confirms")
    func moneyAsTyped() async {
        let (renderer, grid) = tty(typed("12.5") + [.character("x")] + typed("05") + [.enter])
        await renderer.present(Self.form)
        var events: [UserEvent] = []
        for _ in 0..<5 { events.append(await renderer.nextEvent(on: Self.form)) }
        #expect(events == [.edit("amount", "1"), .edit("amount", "12"), .edit("amount", "12."), .edit("amount", "12.5"), .edit("amount", "12.50")])
        #expect(grid.lines.contains { $0.contains("EUR: digits and one decimal point, 2 decimals at most") })
        #expect(await renderer.nextEvent(on: Self.form) == .fill("amount", "12.50"))
    }

    @Test("money: the currency is drawn beside the amount; a day beside what it reads as; the footer under the fields")
    func drawing() async {
        var screen = Self.form
        screen.fields[0].input = .money("42", currency: "EUR", decimals: 2)
        let (renderer, grid) = tty([.escape])
        await renderer.present(screen)
        _ = await renderer.nextEvent(on: screen)
        #expect(grid.lines.contains("  Amount  42 EUR"))
        #expect(grid.lines.contains("  Day     today  → Monday 2026-11-23"))
        #expect(grid.lines.contains("› Parts   › You        1 shares  → 10.00 EUR"))
        #expect(grid.lines.contains("            Bob Stone  … shares"))
        #expect(grid.lines.contains("          ↑/↓ to move between rows, enter to confirm"))
        #expect(grid.lines.contains("You pay 10.00 EUR."))
    }

    @Test("text that no longer fits (after a change of currency) can still be edited down; typing keeps the focus while another field shows a message")
    func editingAfterErrors() async {
        var screen = Self.form
        screen.fields[0].input = .money("12.50", currency: "JPY", decimals: 0)
        screen.fields[0].error = "JPY has no decimals: enter a whole amount."
        let (renderer, _) = tty([.end, .backspace, .backspace, .backspace, .character("1")])
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .edit("amount", "12.5"))
        #expect(await renderer.nextEvent(on: screen) == .edit("amount", "12."))
        #expect(await renderer.nextEvent(on: screen) == .edit("amount", "12"))
        #expect(await renderer.nextEvent(on: screen) == .edit("amount", "121"))

        // The focus on Parts (below a day with a message) stays there at every key.
        var parts = Self.form
        parts.fields[0].input = .money("20", currency: "EUR", decimals: 2)
        parts.fields[1].error = "That day does not exist."
        let (second, grid) = tty([.tab, .character("5"), .character("6")])
        await second.present(parts)
        #expect(await second.nextEvent(on: parts) == .edit("parts.you", "15"))
        await second.update(parts)
        #expect(await second.nextEvent(on: parts) == .edit("parts.you", "156"))
        #expect(grid.lines.contains("› Parts   › You        15 shares  → 10.00 EUR"))
    }

    @Test("enter on a table's last row confirms it even unchanged, and moves on")
    func tableLastRow() async {
        var screen = Self.form
        screen.fields[0].input = .money("20", currency: "EUR", decimals: 2)
        let (renderer, _) = tty([.down, .enter])
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .fill("parts.bob-stone", ""))
    }

    @Test("a table: typing edits the focused row's cell, down confirms it and moves on; a whole-number table refuses a point")
    func table() async {
        var screen = Self.form
        screen.fields[0].input = .money("20", currency: "EUR", decimals: 2)
        let (renderer, grid) = tty([.backspace, .character("2"), .character("."), .down, .character("3"), .enter])
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .edit("parts.you", ""))
        #expect(await renderer.nextEvent(on: screen) == .edit("parts.you", "2"))
        #expect(await renderer.nextEvent(on: screen) == .fill("parts.you", "2"))
        #expect(grid.lines.contains { $0.contains("shares: whole numbers only") })
        #expect(await renderer.nextEvent(on: screen) == .edit("parts.bob-stone", "3"))
        #expect(await renderer.nextEvent(on: screen) == .fill("parts.bob-stone", "3"))
    }

    @Test("a multi-choice filters as the user types; enter picks the match and the list stays for the next")
    func multiChoiceFilter() async {
        let screen = Screen(id: "pick", title: "Who", fields: [
            Field(id: "with", label: "With", input: .multiChoice([
                Choice(id: "ann", label: "Ann Lee"), Choice(id: "bob-stone", label: "Bob Stone", detail: "bob@example.com"),
                Choice(id: "cy", label: "Cy"),
            ], selected: [])),
        ], actions: [Action(id: "done", label: "Done", role: .primary)])
        let (renderer, grid) = tty(typed("bob@") + [.enter] + typed("cy") + [.enter, .enter])
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .choose("with", ["bob-stone", "cy"]))
        #expect(grid.lines.contains { $0.contains("[x] Bob Stone  bob@example.com") })
    }

    @Test("a choice filters as soon as the user types a letter (j and k still move); enter picks the first match")
    func choiceTyping() async {
        let screen = Screen(id: "pick", title: "Pick", fields: [
            Field(id: "currency", label: "Currency", input: .choice([Choice(id: "EUR", label: "EUR"), Choice(id: "JPY", label: "JPY"), Choice(id: "USD", label: "USD")], selected: "EUR")),
        ], actions: [Action(id: "save", label: "Save", role: .primary)])
        let (renderer, grid) = tty([.shiftTab, .character("u"), .character("s")])
        await renderer.present(screen)
        _ = await renderer.nextEvent(on: screen)
        #expect(grid.lines.contains("› Currency  /us  type to filter, enter to pick, esc to stop"))
        #expect(grid.lines.contains("            › USD"))
        #expect(!grid.lines.contains { $0.contains("EUR") })
        let (second, _) = tty([.shiftTab] + typed("us") + [.enter])
        await second.present(screen)
        #expect(await second.nextEvent(on: screen) == .choose("currency", ["USD"]))
    }

    @Test("plain: each row of a table is asked on its own, with its unit; a money prompt names the currency")
    func plainTable() async {
        let output = TextBuffer()
        let renderer = PlainRenderer(input: LinesInput(["12", "", "", "2"]), output: output)
        await renderer.present(Self.form)
        #expect(await renderer.nextEvent(on: Self.form) == .fill("amount", "12"))
        var screen = Self.form
        screen.fields[0].input = .money("12", currency: "EUR", decimals: 2)
        // Enter keeps a row's value and asks the next.
        #expect(await renderer.nextEvent(on: screen) == .fill("parts.bob-stone", "2"))
        #expect(output.text.contains("Amount in EUR: 12\n"))
        #expect(output.text.contains("Day [today: Monday 2026-11-23]: \n"))
        #expect(output.text.contains("Parts, You (shares) [1]: \n"))
        #expect(output.text.contains("Parts, Bob Stone (shares): 2\n"))
    }

    @Test("plain without prompting: a cell is answered by --set parts.ROW, a missing one names that flag; an option by its detail")
    func plainSet() async {
        let renderer = PlainRenderer(input: LinesInput([]), output: TextBuffer(), answers: ["amount": "9", "parts.bob-stone": "3"], prompts: false)
        var screen = Self.form
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .fill("amount", "9"))
        screen.fields[0].input = .money("9", currency: "EUR", decimals: 2)
        #expect(await renderer.nextEvent(on: screen) == .fill("parts.bob-stone", "3"))
        let missing = PlainRenderer(input: LinesInput([]), output: TextBuffer(), answers: [:], prompts: false)
        await missing.present(screen)
        #expect(await missing.nextEvent(on: screen) == .cancel)
        #expect(await missing.stop?.message == "no answer for Parts, Bob Stone (parts.bob-stone); pass --set parts.bob-stone=VALUE")

        let people = Screen(id: "pick", title: "Who", fields: [
            Field(id: "with", label: "With", input: .multiChoice([Choice(id: "bob-stone", label: "Bob Stone", detail: "bob@example.com")], selected: [])),
        ], actions: [Action(id: "done", label: "Done", role: .primary)])
        let byEmail = PlainRenderer(input: LinesInput([]), output: TextBuffer(), answers: ["with": "BOB@example.com"], prompts: false)
        await byEmail.present(people)
        #expect(await byEmail.nextEvent(on: people) == .choose("with", ["bob-stone"]))
    }

    @Test("transcripts show the currency, the day read, each cell's identifier, and the footer")
    func snapshot() {
        #expect(ScreenSnapshot.text(of: Self.form) == """
            == Add an expense == [add-expense]
              Amount (amount, money): (empty) EUR
              Day (day, day): today → Monday 2026-11-23
              Parts (parts, table in shares):
                You (parts.you): 1 → 10.00 EUR
                Bob Stone (parts.bob-stone): (empty)
            You pay 10.00 EUR.
              Actions: Save (save, primary) | Cancel (cancel, cancel)
            """)
    }

    @Test("a cell identifier names its table and row; scripts fill cells, not the table")
    func cells() {
        #expect(ElementID.cell("bob-stone", of: "parts") == "parts.bob-stone")
        #expect(ElementID("parts.bob-stone").row(in: "parts") == "bob-stone")
        #expect(ElementID("parts.").row(in: "parts") == nil)
        #expect(ElementID("paid.bob").row(in: "parts") == nil)
        #expect(Self.form.cell("parts.bob-stone")?.row.label == "Bob Stone")
        #expect(Self.form.cell("parts.nobody") == nil)
    }
}
