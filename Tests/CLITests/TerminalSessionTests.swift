import Foundation
import Testing

/// The interactive renderer end to end, through a real pseudo-terminal. (A machine without
/// pseudo-terminals cannot run these; everywhere else they run.)
@Suite("flows in a real terminal", .enabled(if: PseudoTerminal.available, "this machine has no pseudo-terminals"))
struct TerminalSessionTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    private var environment: [String: String] {
        ["FLOWS_HOME": flows.home.path, "TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "HOME": flows.home.path]
    }

    @Test("sign up and sign in with the keyboard; the terminal is back in line mode afterwards")
    func signUpAndSignIn() async throws {
        defer { flows.removeHome() }
        let signUp = try PseudoTerminal(arguments: ["run", "SignUp"], environment: environment)
        try await signUp.waitFor("Create an account")
        #expect(signUp.isInLineMode == false)
        signUp.type("ada@examplx")
        signUp.type("\u{7F}e.com\r")                 // a typo, Backspace, the rest, Enter
        signUp.type("short\r")
        try await signUp.waitFor("Use at least 8 characters.")
        signUp.type("\u{15}correct horse\r")          // Ctrl-U clears the field
        signUp.type("Ada Lovelace\r")                 // Enter on the last field submits
        #expect(try await signUp.exitStatus() == 0)
        #expect(signUp.isInLineMode)

        let signIn = try PseudoTerminal(arguments: ["run", "SignIn", "--json"], environment: environment)
        try await signIn.waitFor("Sign in with your email and password.")
        signIn.type("ada@example.com\r")
        signIn.type("wrong horse\r")
        try await signIn.waitFor("wrong email or password")
        signIn.type("correct horse\r")               // the focus is back on the cleared password
        try await signIn.waitFor(#""result":"signed-in""#)
        #expect(try await signIn.exitStatus() == 0)
        #expect(signIn.isInLineMode)
        #expect(!signIn.output.contains("correct horse"))
    }

    @Test("the home opens on the Expenses tab; Esc shows the tabs, and each tab opens and comes back")
    func tabs() async throws {
        defer { flows.removeHome() }
        let setUp = [
            ["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "display-name=Ada Lovelace", "--set", "password=correct horse"],
            ["run", "SignUp", "--no-input", "--set", "email=bob@example.com", "--set", "display-name=Bob Stone", "--set", "password=correct horse"],
            // Bob asks Ada; Ada, asking him in turn, accepts.
            ["run", "AddFriend", "--no-input", "--set", "how=email", "--set", "value=ada@example.com"],
            ["run", "SignIn", "--no-input", "--set", "email=ada@example.com", "--set", "password=correct horse"],
            ["run", "AddFriend", "--no-input", "--set", "how=email", "--set", "value=bob@example.com"],
            ["run", "AddExpense", "--no-input", "--set", "description=Dinner", "--set", "amount=42.00", "--set", "with=bob@example.com", "--set", "split=equal"],
        ]
        for arguments in setUp {
            let outcome = try await flows.run(arguments, environment: ["FLOWS_HOME": flows.home.path])
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
        }

        let session = try PseudoTerminal(arguments: [], environment: environment)
        try await session.waitFor("Bob Stone owes you 21.00 EUR.")      // the Expenses tab, first
        try await session.waitFor("You added Dinner, 42.00 EUR.")
        var mark = session.output.utf8.count
        session.type("\u{1B}")                                 // Esc: the home and its tabs
        try await session.waitFor("Signed in as Ada Lovelace <ada@example.com>.", since: mark)
        mark = session.output.utf8.count
        session.type("\u{1B}[Z\u{1B}[Z\r")                     // Shift-Tab twice from Add an expense: Friends, Enter
        try await session.waitFor("Add a friend", since: mark)
        session.type("\t")                                     // Tab from the filter to the list
        try await session.waitFor("Bob Stone", since: mark)
        try await session.waitFor("owes you 21.00 EUR", since: mark)              // the balance, in its column and tone
        mark = session.output.utf8.count
        session.type("\u{1B}")                                 // back to the home
        try await session.waitFor("Signed in as Ada Lovelace <ada@example.com>.", since: mark)
        mark = session.output.utf8.count
        session.type("\u{1B}[Z\u{1B}[Z\u{1B}[Z\u{1B}[Z\r")     // four times (Account, Friends, Groups): Expenses, Enter
        try await session.waitFor("Payments that would settle you up:", since: mark)
        try await session.waitFor("Bob Stone pays you 21.00 EUR.", since: mark)
        mark = session.output.utf8.count
        session.type("\r")                                     // Enter on the newest expense: its details
        try await session.waitFor("Split equally: You 21.00 EUR, Bob Stone 21.00 EUR.", since: mark)
        mark = session.output.utf8.count
        session.type("\u{1B}")                                 // back to the tab
        try await session.waitFor("Payments that would settle you up:", since: mark)
        mark = session.output.utf8.count
        session.type("\u{1B}")
        try await session.waitFor("Signed in as Ada Lovelace <ada@example.com>.", since: mark)
        session.type("\u{3}")                                  // Ctrl-C
        #expect(try await session.exitStatus() == 130)
        #expect(session.isInLineMode)
    }

    @Test("Ctrl-C exits 130 and puts the terminal back")
    func interrupt() async throws {
        defer { flows.removeHome() }
        let session = try PseudoTerminal(arguments: [], environment: environment)
        try await session.waitFor("Welcome to Flows")
        session.type("\r")                            // Sign in
        try await session.waitFor("Sign in with your email and password.")
        session.type("ada@")
        session.type("\u{3}")                         // Ctrl-C
        #expect(try await session.exitStatus() == 130)
        #expect(session.isInLineMode)
        try await session.waitFor("\u{1B}[?2004l", seconds: 5)  // bracketed paste turned off again
    }

    @Test("SIGTERM exits 143 and puts the terminal back")
    func terminate() async throws {
        defer { flows.removeHome() }
        let session = try PseudoTerminal(arguments: ["run", "SignUp"], environment: environment)
        try await session.waitFor("Create an account")
        #expect(!session.isInLineMode)
        kill(session.pid, SIGTERM)
        #expect(try await session.exitStatus() == 143)
        #expect(session.isInLineMode)
    }
}
