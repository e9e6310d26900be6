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
    func signUpAndSignIn() throws {
        defer { flows.removeHome() }
        let signUp = try PseudoTerminal(arguments: ["run", "SignUp"], environment: environment)
        try signUp.waitFor("Create an account")
        #expect(signUp.isInLineMode == false)
        signUp.type("ada@examplx")
        signUp.type("\u{7F}e.com\r")                 // a typo, Backspace, the rest, Enter
        signUp.type("short\r")
        try signUp.waitFor("Use at least 8 characters.")
        signUp.type("\u{15}correct horse\r")          // Ctrl-U clears the field
        signUp.type("Ada Lovelace\r")                 // Enter on the last field submits
        #expect(signUp.exitStatus() == 0)
        #expect(signUp.isInLineMode)

        let signIn = try PseudoTerminal(arguments: ["run", "SignIn", "--json"], environment: environment)
        try signIn.waitFor("Sign in with your email and password.")
        signIn.type("ada@example.com\r")
        signIn.type("wrong horse\r")
        try signIn.waitFor("wrong email or password")
        signIn.type("correct horse\r")               // the focus is back on the cleared password
        try signIn.waitFor(#""result":"signed-in""#)
        #expect(signIn.exitStatus() == 0)
        #expect(signIn.isInLineMode)
        #expect(!signIn.output.contains("correct horse"))
    }

    @Test("Ctrl-C exits 130 and puts the terminal back")
    func interrupt() throws {
        defer { flows.removeHome() }
        let session = try PseudoTerminal(arguments: [], environment: environment)
        try session.waitFor("Welcome to Flows")
        session.type("\r")                            // Sign in
        try session.waitFor("Sign in with your email and password.")
        session.type("ada@")
        session.type("\u{3}")                         // Ctrl-C
        #expect(session.exitStatus() == 130)
        #expect(session.isInLineMode)
        try session.waitFor("\u{1B}[?2004l", seconds: 5)  // bracketed paste turned off again
    }

    @Test("SIGTERM exits 143 and puts the terminal back")
    func terminate() throws {
        defer { flows.removeHome() }
        let session = try PseudoTerminal(arguments: ["run", "SignUp"], environment: environment)
        try session.waitFor("Create an account")
        #expect(!session.isInLineMode)
        kill(session.pid, SIGTERM)
        #expect(session.exitStatus() == 143)
        #expect(session.isInLineMode)
    }
}
