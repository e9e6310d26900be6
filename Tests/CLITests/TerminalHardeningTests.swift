import FlowTerminal
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The interactive renderer in a real pseudo-terminal, on the ways people leave, stop and resize
/// it. What the terminal showed is read back through TerminalGrid, the in-memory terminal.
@Suite("flows in a real terminal: leaving, suspending, short terminals", .enabled(if: PseudoTerminal.available, "this machine has no pseudo-terminals"))
struct TerminalHardeningTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    private var environment: [String: String] {
        ["FLOWS_HOME": flows.home.path, "TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "HOME": flows.home.path]
    }

    /// The terminal's output read into an in-memory terminal of the same size.
    private func screen(of session: PseudoTerminal, columns: Int = 100, rows: Int = 40) -> TerminalGrid {
        let grid = TerminalGrid(width: columns, height: rows)
        grid.write(session.output)
        return grid
    }

    @Test("Ctrl-C and SIGTERM in the middle of a form leave the cursor below the drawing", arguments: [SIGINT, SIGTERM])
    func leavingMidScreen(signal: Int32) async throws {
        defer { flows.removeHome() }
        let session = try PseudoTerminal(arguments: ["run", "SignUp"], environment: environment)
        try await session.waitFor("Create an account")
        session.type("ada@")                           // the cursor is in the first field, rows above the end
        try await session.waitFor("ada@")
        if signal == SIGINT { session.type("\u{3}") } else { kill(session.pid, SIGTERM) }
        #expect(try await session.exitStatus() == (signal == SIGINT ? 130 : 143))
        try await session.drain(seconds: 0.2)
        let grid = screen(of: session)
        let lastDrawn = grid.lines.lastIndex { !$0.isEmpty } ?? 0
        #expect(grid.cursor.row > lastDrawn, "the cursor is on row \(grid.cursor.row), inside the drawing, which ends on row \(lastDrawn):\n\(grid.lines.joined(separator: "\n"))")
        #expect(grid.cursor.column == 0)
    }

    @Test("NO_COLOR set and not empty draws without colour; empty, or with --color always, in colour", arguments: [
        ("1", [String](), false), ("", [], true), ("1", ["--color", "always"], true), ("1", ["--theme", "high-contrast"], false),
    ])
    func noColor(value: String, options: [String], coloured: Bool) async throws {
        defer { flows.removeHome() }
        var environment = environment
        environment["NO_COLOR"] = value
        let session = try PseudoTerminal(arguments: ["run", "SignUp"] + options, environment: environment)
        try await session.waitFor("Create an account")
        try await session.drain(seconds: 0.2)
        // Every coloured or emphasised piece ends with a reset.
        #expect(session.output.contains("\u{1B}[0m") == coloured)
        kill(session.pid, SIGTERM)
        _ = try await session.exitStatus()
    }

    @Test("in a terminal 8 rows tall, repaints never pile copies of the screen into the scrollback")
    func shortTerminal() async throws {
        defer { flows.removeHome() }
        let session = try PseudoTerminal(arguments: ["run", "SignUp"], environment: environment, columns: 40, rows: 8)
        try await session.waitFor("Create an account")
        for character in "ada@example.com" {
            session.type(String(character))
            try await session.drain(seconds: 0.02)
        }
        try await session.waitFor(".com")
        session.type("\u{4}")                          // Ctrl-D cancels
        #expect(try await session.exitStatus() == 1)
        try await session.drain(seconds: 0.2)
        let grid = screen(of: session, columns: 40, rows: 8)
        #expect(grid.history.filter { $0.contains("Create an account") }.count == 1, "copies of the screen:\n\(grid.history.joined(separator: "\n"))")
        #expect(grid.history.contains { $0.contains("ada@example.com") })
    }
}

/// Job control as a person uses it: an interactive shell in the pseudo-terminal runs `flows`,
/// Ctrl-Z stops it, `fg` brings it back. (`flows` spawned on its own would lead an orphaned
/// process group, for which the kernel discards Ctrl-Z.) The shell is dash where there is one,
/// since it leaves the terminal's mode alone when a job stops (bash puts its own back), else bash
/// without line editing.
@Suite("flows stopped with Ctrl-Z and resumed with fg", .enabled(if: PseudoTerminal.available && JobControlShell.command != nil, "needs pseudo-terminals and dash or bash"))
struct SuspendTests {
    let flows: FlowsProcess
    static let prompt = "flows-test$ "

    init() throws {
        flows = try FlowsProcess()
    }

    private func shell() async throws -> PseudoTerminal {
        let environment = [
            "FLOWS_HOME": flows.home.path, "HOME": flows.home.path, "TERM": "xterm-256color", "NO_COLOR": "1",
            "PATH": "/usr/bin:/bin", "PS1": Self.prompt, "ENV": "",
        ]
        guard let command = JobControlShell.command else { throw PseudoTerminal.Failure("no shell") }
        let shell = try PseudoTerminal(executable: command.executable, arguments: command.arguments, environment: environment)
        try await shell.waitFor(Self.prompt)
        return shell
    }

    /// Whether `condition` holds within `seconds` (terminal modes change just after a prompt shows).
    private func eventually(_ seconds: Double = 15, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard deadline.timeIntervalSinceNow > 0 else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Waits without failing, so every expectation after it is still checked.
    private func sees(_ shell: PseudoTerminal, _ text: String, since mark: Int, seconds: Double = 30) async -> Bool {
        (try? await shell.waitFor(text, since: mark, seconds: seconds)) != nil
    }

    @Test("after Ctrl-Z and fg the screen is drawn again below the shell's lines, keys arrive one by one and a secret is not echoed")
    func interactive() async throws {
        defer { flows.removeHome() }
        let shell = try await shell()
        shell.type("'\(FlowsProcess.executable.path)' run SignIn\r")
        try await shell.waitFor("Sign in with your email and password.")
        shell.type("ada@example.com\r")
        try await shell.waitFor("› Password")
        #expect(await eventually { shell.isRaw })

        shell.type("\u{1A}")                                     // Ctrl-Z
        try await shell.waitFor("Stopped")
        #expect(await eventually(1) { shell.isInLineMode }, "the terminal is left raw while flows is stopped")

        let resumed = shell.mark
        shell.type("fg\r")
        #expect(await sees(shell, "Sign in with your email and password.", since: resumed), "the screen is not drawn again after fg")
        #expect(await eventually { shell.isRaw }, "the terminal is not raw again after fg")
        shell.type("correct horse")                              // no Enter: raw input shows each key at once
        #expect(await sees(shell, "•••••••••••••", since: resumed), "typed keys do not arrive before Enter")
        #expect(!shell.output.contains("correct horse"), "the secret was echoed")

        // The fresh drawing is below the shell's lines about the stopped job.
        let grid = TerminalGrid(width: 100, height: 40)
        grid.write(shell.output)
        let stopped = grid.history.lastIndex { $0.contains("Stopped") } ?? Int.max
        let drawn = grid.history.lastIndex { $0.contains("Sign in with your email and password.") } ?? -1
        #expect(drawn > stopped, "no drawing below the shell's lines:\n\(grid.history.joined(separator: "\n"))\n\(shell.output.debugDescription)")

        let ending = shell.mark
        shell.type("\u{4}")                                      // Ctrl-D cancels the flow
        #expect(await sees(shell, Self.prompt, since: ending))
        #expect(await eventually { shell.isInLineMode })
    }

    @Test("the plain renderer asks its question again after fg, and a password prompt turns echo off again")
    func plainSecret() async throws {
        defer { flows.removeHome() }
        let shell = try await shell()
        shell.type("'\(FlowsProcess.executable.path)' run SignIn --plain\r")
        try await shell.waitFor("Email: ")
        shell.type("\u{1A}")
        try await shell.waitFor("Stopped")
        let back = shell.mark
        shell.type("fg\r")
        #expect(await sees(shell, "Email: ", since: back), "the question is not asked again after fg")
        shell.type("ada@example.com\r")
        try await shell.waitFor("Password: ")
        #expect(await eventually { !shell.echoes })

        // Since this mark: the first stop's line is already on the terminal.
        let suspended = shell.mark
        shell.type("\u{1A}")
        try await shell.waitFor("Stopped", since: suspended)
        #expect(await eventually(1) { shell.echoes }, "echo is left off while flows is stopped")

        let resumed = shell.mark
        shell.type("fg\r")
        #expect(await sees(shell, "Password: ", since: resumed), "the prompt is not shown again after fg:\n\(shell.output)")
        #expect(await eventually { !shell.echoes }, "echo is not off again after fg")
        shell.type("correct horse\r")
        #expect(await sees(shell, "wrong email or password", since: resumed))
        #expect(!shell.output.contains("correct horse"), "the secret was echoed")
    }
}

/// The interactive shell the suspend tests type into.
enum JobControlShell {
    static let command: (executable: String, arguments: [String])? = {
        let files = FileManager.default
        if files.isExecutableFile(atPath: "/usr/bin/dash") { return ("/usr/bin/dash", ["-i"]) }
        if files.isExecutableFile(atPath: "/bin/bash") { return ("/bin/bash", ["--norc", "--noprofile", "--noediting", "-i"]) }
        return nil
    }()
}

/// Standard input that is not UTF-8 is refused, never turned into U+FFFD (two different
/// passwords would then be the same).
@Suite("flows with piped input that is not UTF-8")
struct InvalidInputTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    @Test("bytes that are not UTF-8 stop flows run SignIn with status 2, naming the field")
    func invalidPassword() async throws {
        defer { flows.removeHome() }
        let signUp = try await flows.run(["run", "SignUp"], input: "ada@example.com\ncorrect horse\nAda Lovelace\n")
        #expect(signUp.status == 0, "\(signUp.stderr)")

        let password = try await flows.run(["run", "SignIn", "--json"], bytes: Array("ada@example.com\n".utf8) + [0xFF, 0xFF] + Array("\n".utf8))
        #expect(password.status == 2, "\(password.stderr)")
        #expect(password.stderr.hasSuffix("flows: the answer for password was refused: that line is not valid UTF-8\n"), "\(password.stderr)")
        #expect(!password.stderr.contains("wrong email or password"))
        let result = try JSONSerialization.jsonObject(with: Data(password.stdout.utf8)) as? [String: String]
        #expect(result?["result"] == "failed")
        #expect(result?["stopped"] == "the answer for password was refused: that line is not valid UTF-8")

        let email = try await flows.run(["run", "SignIn"], bytes: [0x61, 0xFF, 0x0A] + Array("correct horse\n".utf8))
        #expect(email.status == 2, "\(email.stderr)")
        #expect(email.stderr.contains("flows: the answer for email was refused: that line is not valid UTF-8"), "\(email.stderr)")
    }
}

/// What flows says about a command line or a failure can quote what was typed: it is made safe
/// for the terminal like every screen.
@Suite("flows' own messages")
struct MessageTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    @Test("an unknown flow named with escape sequences and bidirectional controls is quoted safely", arguments: [
        ["run", "\u{1B}]0;pwned\u{7}"], ["run", "Sign\u{202E}nI"], ["run", "SignIn", "--set", "\u{1B}[2J"],
    ])
    func hostileArguments(arguments: [String]) async throws {
        defer { flows.removeHome() }
        let outcome = try await flows.run(arguments)
        #expect(outcome.status == 2)
        let unsafe = outcome.stderr.unicodeScalars.filter {
            $0 == "\u{1B}" || $0 == "\u{7}" || $0.properties.generalCategory == .format
        }
        #expect(unsafe.isEmpty, "written as they are: \(unsafe.map { "U+" + String($0.value, radix: 16, uppercase: true) })")
    }
}
