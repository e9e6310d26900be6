import FlowKit
import FlowTesting
import PropertyBased
import Testing

@Suite("The script format")
struct ScriptParserTests {
    @Test("every verb, with comments, blank lines and quoting")
    func verbs() throws {
        let text = """
            # A comment, then a blank line

            flow SignUp
            given account ada@example.com "correct horse" "Ada Lovelace"
            fill display-name Ada Lovelace
            fill password "  spaced \\"quoted\\" \\e[31m \\u{1F600}  "
            fill email ""
            choose currency eur
            choose with bob "Cy Young"
            tap create-account
            back
            cancel
            expect screen sign-up
            expect text "== Create an account =="
            expect error email "Enter your email address."
            expect error "wrong email or password"
            expect result signed-up
            """
        let script = try ScriptParser.parse(text, file: "s.flows")
        #expect(script.flow == "SignUp")
        #expect(script.steps.map(\.action) == [
            .given(["account", "ada@example.com", "correct horse", "Ada Lovelace"]),
            .fill("display-name", "Ada Lovelace"),
            .fill("password", "  spaced \"quoted\" \u{1B}[31m 😀  "),
            .fill("email", ""),
            .choose("currency", ["eur"]),
            .choose("with", ["bob", "Cy Young"]),
            .tap("create-account"),
            .back,
            .cancel,
            .expectScreen("sign-up"),
            .expectText("== Create an account =="),
            .expectError("email", "Enter your email address."),
            .expectError(nil, "wrong email or password"),
            .expectResult("signed-up"),
        ])
        #expect(script.steps.map(\.line) == [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
    }

    @Test("a line that is not a step names its file and line, and what would be right", arguments: [
        ("tap", "s.flows:3: tap needs an action: tap ID"),
        ("poke sign-in", "s.flows:3: unknown step 'poke'; steps are:"),
        ("fill email \"open", "s.flows:3: a quoted value has no closing quote"),
        ("fill email \"a\\qb\"", "s.flows:3: unknown escape \\q"),
        ("tap sign in", "s.flows:3: unexpected 'in' after tap sign; quote values that hold spaces"),
        ("expect colour red", "s.flows:3: expect colour? expect screen, text, error, result or store"),
        ("flow SignIn", "s.flows:3: 'flow NAME' goes once, before every step"),
        ("fill email", "s.flows:3: fill needs a value; write \"\" for an empty one"),
        ("given", "s.flows:3: given needs what to set up"),
    ])
    func problems(line: String, message: String) {
        #expect {
            try ScriptParser.parse("flow SignUp\ntap create-account\n\(line)\n", file: "s.flows")
        } throws: { error in
            (error as? ScriptParser.Problem)?.description.hasPrefix(message) == true
        }
    }

    @Test("any value written by the transcript's quoting reads back as the same value")
    func quotingRoundTrip() async {
        await propertyCheck(count: 500, input: Gen.character(in: "\u{0}"..."\u{2FF}").string(of: 0...30)) { value in
            let step = Script.Verb.fill("field", value)
            let parsed = try? ScriptParser.parse(step.scriptLine, file: "p.flows")
            #expect(parsed?.steps.first?.action == step)
        }
    }
}
