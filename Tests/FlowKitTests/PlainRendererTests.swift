import FlowKit
import FlowTerminal
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("PlainRenderer")
struct PlainRendererTests {
    let signIn = Screen(
        id: "sign-in",
        title: "Sign in",
        text: ["Sign in with your email and password."],
        fields: [
            Field(id: "email", label: "Email", input: .text("")),
            Field(id: "password", label: "Password", input: .secret(isSet: false)),
        ],
        actions: [
            Action(id: "sign-in", label: "Sign in", role: .primary),
            Action(id: "create-account", label: "Create an account"),
            Action(id: "cancel", label: "Cancel", role: .cancel),
        ]
    )

    private func renderer(_ lines: [String], answers: [ElementID: String] = [:], prompts: Bool = true) -> (PlainRenderer, TextBuffer) {
        let output = TextBuffer()
        return (PlainRenderer(input: LinesInput(lines), output: output, answers: answers, prompts: prompts), output)
    }

    @Test("asks one field at a time, then takes the primary action")
    func fieldsThenPrimary() async {
        let (renderer, output) = renderer(["ada@example.com", "correct horse"])
        await renderer.present(signIn)
        #expect(await renderer.nextEvent(on: signIn) == .fill("email", "ada@example.com"))
        var filled = signIn
        filled.fields[0].input = .text("ada@example.com")
        #expect(await renderer.nextEvent(on: filled) == .fill("password", "correct horse"))
        filled.fields[1].input = .secret(isSet: true)
        #expect(await renderer.nextEvent(on: filled) == .tap("sign-in"))
        #expect(output.text == """

            == Sign in ==
            Sign in with your email and password.
            (Type ? at a prompt for other options.)
            Email: ada@example.com
            Password: ********

            """)
        #expect(await renderer.stop == nil)
    }

    @Test("a field with an error is asked again under its message")
    func reask() async {
        let (renderer, output) = renderer(["nope", "ada@example.com"])
        await renderer.present(signIn)
        #expect(await renderer.nextEvent(on: signIn) == .fill("email", "nope"))
        var invalid = signIn
        invalid.fields[0].input = .text("nope")
        invalid.fields[0].error = "Enter an email address like name@example.com."
        #expect(await renderer.nextEvent(on: invalid) == .fill("email", "ada@example.com"))
        #expect(output.text.hasSuffix("""
            Email: nope
            Error: Enter an email address like name@example.com.
            Email: ada@example.com

            """))
    }

    @Test("end of input stops the run, names the question, and cancels every later ask")
    func endOfInput() async {
        let (renderer, _) = renderer([])
        await renderer.present(signIn)
        #expect(await renderer.nextEvent(on: signIn) == .cancel)
        #expect(await renderer.stop == .endOfInput(question: "Email"))
        #expect(await renderer.stop?.message == "end of input while asking for Email")
        #expect(await renderer.nextEvent(on: signIn) == .cancel)
    }

    @Test("? lists the other actions; Enter goes back to the field")
    func questionMark() async {
        let (renderer, output) = renderer(["?", "", "?", "2"])
        await renderer.present(signIn)
        #expect(await renderer.nextEvent(on: signIn) == .tap("create-account"))
        #expect(output.text.contains("""
              1) Sign in
              2) Create an account
              3) Cancel
            Choose [1-3] (Enter to go back to Email):
            """))
    }

    @Test("a literal ? is typed as \\?")
    func escapedQuestionMark() async {
        let (renderer, _) = renderer(["\\?"])
        await renderer.present(signIn)
        #expect(await renderer.nextEvent(on: signIn) == .fill("email", "?"))
    }

    @Test("a screen of actions is a numbered menu; Enter takes the primary; a wrong number is asked again")
    func menu() async {
        let welcome = Screen(id: "welcome", title: "Welcome", actions: [
            Action(id: "sign-in", label: "Sign in", role: .primary),
            Action(id: "quit", label: "Quit", role: .cancel),
        ])
        let (renderer, output) = renderer(["7", "zero", ""])
        await renderer.present(welcome)
        #expect(await renderer.nextEvent(on: welcome) == .tap("sign-in"))
        #expect(output.text.components(separatedBy: "Error: enter a number from 1 to 2").count == 3)
        let (byName, _) = self.renderer(["quit"])
        await byName.present(welcome)
        #expect(await byName.nextEvent(on: welcome) == .tap("quit"))
    }

    @Test("choices by number, identifier or label; confirm by y or n; multi-choice by a list")
    func choices() async {
        let form = Screen(id: "form", title: "Form", fields: [
            Field(id: "currency", label: "Currency", input: .choice([Choice(id: "eur", label: "Euro"), Choice(id: "jpy", label: "Yen")], selected: nil)),
            Field(id: "with", label: "With", input: .multiChoice([Choice(id: "bob", label: "Bob"), Choice(id: "cy", label: "Cy")], selected: [])),
            Field(id: "sure", label: "Sure", input: .confirm(nil)),
        ], actions: [Action(id: "save", label: "Save", role: .primary)])
        let (renderer, output) = renderer(["3", "Yen", "1, cy", "maybe", "y"])
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .choose("currency", ["jpy"]))
        #expect(await renderer.nextEvent(on: form) == .choose("with", ["bob", "cy"]))
        #expect(await renderer.nextEvent(on: form) == .choose("sure", [.yes]))
        #expect(output.text.contains("Error: enter a number from 1 to 2, or an option as written"))
        #expect(output.text.contains("Error: answer y or n"))
    }

    @Test("a long list is named by its ends until an answer is not one of it; a prompt says what Enter keeps")
    func longListAndKept() async {
        let codes = (0..<30).map { "C\($0 < 10 ? "0" : "")\($0)" }
        let form = Screen(id: "form", title: "Form", fields: [
            Field(id: "currency", label: "Currency", input: .choice(codes.map { Choice(id: ElementID($0), label: $0) }, selected: "C07")),
            Field(id: "sure", label: "Sure", input: .confirm(true)),
        ], actions: [Action(id: "save", label: "Save", role: .primary)])
        let (renderer, output) = renderer(["C99", "c12", ""])
        await renderer.present(form)
        #expect(await renderer.nextEvent(on: form) == .choose("currency", ["C12"]))
        #expect(await renderer.nextEvent(on: form) == .tap("save"))
        #expect(output.text.contains("  30 options, from C00 to C29: type one, or its number\nCurrency [1-30] (Enter keeps C07): C99\n"))
        #expect(output.text.contains("Error: enter a number from 1 to 30, or an option as written\n  1) C00\n"))
        #expect(output.text.contains("  30) C29\nCurrency [1-30] (Enter keeps C07): c12\n"))
        #expect(output.text.contains("Sure [y/n] (Enter keeps yes): \n"))
    }

    @Test("after a failed submit every field is asked again, keeping values on Enter")
    func newRound() async {
        let (renderer, output) = renderer(["ada@example.com", "wrong", "", "right horse"])
        await renderer.present(signIn)
        _ = await renderer.nextEvent(on: signIn)
        var screen = signIn
        screen.fields[0].input = .text("ada@example.com")
        _ = await renderer.nextEvent(on: screen)
        screen.fields[1].input = .secret(isSet: true)
        #expect(await renderer.nextEvent(on: screen) == .tap("sign-in"))
        screen.fields[1].input = .secret(isSet: false)
        screen.status = .error("wrong email or password")
        await renderer.update(screen)
        #expect(await renderer.nextEvent(on: screen) == .fill("password", "right horse"))
        #expect(output.text.contains("Error: wrong email or password\nEmail [ada@example.com]: \nPassword: ********\n"))
    }

    @Test("without prompting, answers come from --set; a missing one names its flag")
    func noInput() async {
        let (renderer, _) = renderer(["never read"], answers: ["email": "ada@example.com"], prompts: false)
        await renderer.present(signIn)
        #expect(await renderer.nextEvent(on: signIn) == .fill("email", "ada@example.com"))
        var screen = signIn
        screen.fields[0].input = .text("ada@example.com")
        #expect(await renderer.nextEvent(on: screen) == .cancel)
        #expect(await renderer.stop == .missingAnswer(field: "password", label: "Password"))
        #expect(await renderer.stop?.message == "no answer for Password (password); pass --set password=VALUE")
    }

    @Test("without prompting, a screen that browses asks only what was given, then is left (back), once; a form is not")
    func noInputBrowsing() async {
        let list = Screen(
            id: "friends", title: "Friends",
            fields: [Field(id: "friend", label: "Open", input: .choice([Choice(id: "bob", label: "Bob"), Choice(id: "cy", label: "Cy")], selected: nil))],
            actions: [Action(id: "add", label: "Add a friend", role: .primary), .back],
            browses: true
        )
        let (renderer, _) = renderer([], answers: ["friend": "cy"], prompts: false)
        await renderer.present(list)
        #expect(await renderer.nextEvent(on: list) == .choose("friend", ["cy"]))
        #expect(await renderer.leftBrowsing == false)
        // Nothing left to answer: not the primary action, but back.
        #expect(await renderer.nextEvent(on: list) == .back)
        #expect(await renderer.leftBrowsing)
        // The same screen again (a back it took otherwise) is not left twice: it stops, saying so.
        #expect(await renderer.nextEvent(on: list) == .cancel)
        #expect(await renderer.stop == .missingAnswer(field: "action", label: "the action to take on Friends"))

        var form = list
        form.browses = false
        let (second, _) = self.renderer([], prompts: false)
        await second.present(form)
        #expect(await second.nextEvent(on: form) == .cancel)
        #expect(await second.stop == .missingAnswer(field: "friend", label: "Open"))
        #expect(await second.leftBrowsing == false)
    }

    @Test("without prompting, a screen to look at prints its lists whole, each option with its detail, before it is left")
    func noInputBrowsingPrintsLists() async {
        let list = Screen(
            id: "groups", title: "Groups", text: ["In all, you are owed 40.00 EUR."],
            fields: [Field(id: "group", label: "Open", input: .choice([
                Choice(id: "flat", label: "Flat", detail: "settled up"), Choice(id: "trip", label: "Kyoto trip", detail: "you are owed 40.00 EUR"),
            ], selected: nil))],
            actions: [Action(id: "new", label: "New group", role: .primary), .back],
            browses: true
        )
        let (renderer, output) = renderer([], prompts: false)
        await renderer.present(list)
        #expect(await renderer.nextEvent(on: list) == .back)
        #expect(output.text == """

            == Groups ==
            In all, you are owed 40.00 EUR.
            (Type ? at a prompt for other options.)
            Open:
              Flat: settled up
              Kyoto trip: you are owed 40.00 EUR

            """)
    }

    @Test("a flow's one screen that moves to another step (its title changes, its identifier does not) is drawn again")
    func sameScreenNewStep() async {
        let chooser = Screen(
            id: "group-detail", title: "Choose a group",
            fields: [Field(id: "group", label: "Group", input: .choice([Choice(id: "trip", label: "Kyoto trip")], selected: nil))],
            actions: [.back]
        )
        let detail = Screen(id: "group-detail", title: "Kyoto trip", text: ["Members: you and Bob Stone."], actions: [Action(id: "add", label: "Add an expense", role: .primary), .back])
        let (renderer, output) = renderer(["trip", "1"])
        await renderer.present(chooser)
        #expect(await renderer.nextEvent(on: chooser) == .choose("group", ["trip"]))
        await renderer.update(detail)
        #expect(await renderer.nextEvent(on: detail) == .tap("add"))
        #expect(output.text.contains("== Kyoto trip ==\nMembers: you and Bob Stone."))
    }

    @Test("without prompting, a refused answer or a failed submit stops with its message")
    func noInputFailures() async {
        let (renderer, _) = renderer([], answers: ["email": "nope"], prompts: false)
        await renderer.present(signIn)
        _ = await renderer.nextEvent(on: signIn)
        var screen = signIn
        screen.fields[0].error = "Enter an email address like name@example.com."
        #expect(await renderer.nextEvent(on: screen) == .cancel)
        #expect(await renderer.stop == .refusedAnswer(field: "email", message: "Enter an email address like name@example.com."))

        let (second, _) = self.renderer([], answers: ["email": "a@b.co", "password": "x"], prompts: false)
        await second.present(signIn)
        _ = await second.nextEvent(on: signIn)
        _ = await second.nextEvent(on: signIn)
        screen = signIn
        screen.fields[0].input = .text("a@b.co")
        screen.fields[1].input = .secret(isSet: true)
        #expect(await second.nextEvent(on: screen) == .tap("sign-in"))
        screen.status = .error("wrong email or password")
        #expect(await second.nextEvent(on: screen) == .cancel)
        #expect(await second.stop == .failed("wrong email or password"))
    }

    @Test("control characters never reach the terminal; very long answers are shortened in the log")
    func hostileText() async {
        let (renderer, output) = renderer(["\u{1B}[2J" + String(repeating: "x", count: 10_000)])
        var screen = signIn
        screen.title = "Evil \u{1B}]0;title\u{7}"
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .fill("email", "\u{1B}[2J" + String(repeating: "x", count: 10_000)))
        #expect(!output.text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" })
        #expect(output.text.contains("... (10004 characters)"))
        #expect(output.text.count < 1_000)
    }

    @Test("a screen on top again is drawn only when it asks for something, with its breadcrumb")
    func reveal() async {
        let welcome = Screen(id: "welcome", title: "Welcome", actions: [Action(id: "sign-in", label: "Sign in", role: .primary)])
        var child = signIn
        child.breadcrumb = ["Welcome"]
        let (renderer, output) = renderer(["1"])
        await renderer.present(welcome)
        await renderer.present(child)
        await renderer.dismiss("sign-in")
        await renderer.update(welcome)
        #expect(output.text.components(separatedBy: "== Welcome ==").count == 2)
        #expect(output.text.contains("== Welcome > Sign in =="))
        #expect(await renderer.nextEvent(on: welcome) == .tap("sign-in"))
        #expect(output.text.components(separatedBy: "== Welcome ==").count == 3)
    }

    @Test("tabs are listed under the title and offered as actions")
    func tabs() async {
        let screen = Screen(id: "home", title: "Flows", actions: [Action(id: "quit", label: "Quit", role: .cancel)],
                            tabs: [Tab(id: "account", label: "Account", isSelected: true), Tab(id: "friends", label: "Friends")])
        let (renderer, output) = renderer(["2"])
        await renderer.present(screen)
        #expect(await renderer.nextEvent(on: screen) == .tap("friends"))
        #expect(output.text.contains("Tabs: [Account] | Friends"))
        #expect(output.text.contains("  2) Go to Friends"))
    }

    /// Standard input read from a pipe holding `bytes`, as when answers are piped in.
    private func piped(_ bytes: [UInt8]) -> StandardInput? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        return StandardInput(descriptor: fds[0])
    }

    @Test("piped answers are read as bytes: a line that is not valid UTF-8 stops the run naming the field, never becomes U+FFFD")
    func invalidUTF8FromAPipe() async throws {
        let input = try #require(piped(Array("ada@example.com\npa".utf8) + [0xFF, 0xFE] + Array("ss\nnever read\n".utf8)))
        let output = TextBuffer()
        let renderer = PlainRenderer(input: input, output: output)
        await renderer.present(signIn)
        #expect(await renderer.nextEvent(on: signIn) == .fill("email", "ada@example.com"))
        var filled = signIn
        filled.fields[0].input = .text("ada@example.com")
        #expect(await renderer.nextEvent(on: filled) == .cancel)
        #expect(await renderer.stop == .refusedAnswer(field: "password", message: "that line is not valid UTF-8"))
        #expect(await renderer.stop?.message == "the answer for password was refused: that line is not valid UTF-8")
        #expect(!output.text.contains("\u{FFFD}"))
    }

    @Test("piped answers: line endings are dropped, a last line without one is read, then the input ends")
    func pipedLines() async throws {
        let input = try #require(piped(Array("ada@example.com\r\ncorrect horse".utf8)))
        #expect(await input.readLine(secret: false) == .line("ada@example.com"))
        #expect(await input.readLine(secret: true) == .line("correct horse"))
        #expect(await input.readLine(secret: false) == .end)
    }

    @Test("at a terminal, a line that is not valid UTF-8 is refused like a bad answer and asked again")
    func invalidUTF8AtATerminal() async {
        let output = TextBuffer()
        let renderer = PlainRenderer(input: TypedLines([.notUTF8, .line("ada@example.com")]), output: output)
        await renderer.present(signIn)
        #expect(await renderer.nextEvent(on: signIn) == .fill("email", "ada@example.com"))
        #expect(output.text.contains("Error: that line is not valid UTF-8; type it again\nEmail: "))
        #expect(await renderer.stop == nil)
    }
}

/// Lines as a person types them at a terminal (which echoes them).
final class TypedLines: LineInput {
    private let reads: Mutex<[LineRead]>

    init(_ reads: [LineRead]) {
        self.reads = Mutex(reads)
    }

    var echoes: Bool { true }

    func readLine(secret: Bool) async -> LineRead {
        reads.withLock { $0.isEmpty ? .end : $0.removeFirst() }
    }
}
