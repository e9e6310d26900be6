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

    @Test("in a terminal 8 rows tall, repaints never pile copies of the screen into the scrollback")
    func shortTerminal() throws {
        defer { flows.removeHome() }
        let session = try PseudoTerminal(arguments: ["run", "SignUp"], environment: environment, columns: 40, rows: 8)
        try session.waitFor("Create an account")
        for character in "ada@example.com" {
            session.type(String(character))
            session.drain(seconds: 0.02)
        }
        try session.waitFor(".com")
        session.type("\u{4}")                          // Ctrl-D cancels
        #expect(session.exitStatus() == 1)
        session.drain(seconds: 0.2)
        let grid = screen(of: session, columns: 40, rows: 8)
        #expect(grid.history.filter { $0.contains("Create an account") }.count == 1, "copies of the screen:\n\(grid.history.joined(separator: "\n"))")
        #expect(grid.history.contains { $0.contains("ada@example.com") })
    }
}
