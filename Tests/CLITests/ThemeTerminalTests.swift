import FlowsServices
import Foundation
import LocalStore
import Preferences
import Testing

/// The stored theme colouring a running `flows`, through a real pseudo-terminal.
@Suite("The theme in a real terminal", .enabled(if: PseudoTerminal.available, "this machine has no pseudo-terminals"))
struct ThemeTerminalTests {
    let flows: FlowsProcess

    init() throws {
        flows = try FlowsProcess()
    }

    private var environment: [String: String] {
        ["FLOWS_HOME": flows.home.path, "TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "HOME": flows.home.path]
    }

    /// The renderer's last repaint (each clears below its first row) once it satisfies
    /// `done`, or the last one after 10 seconds.
    private func frame(of session: PseudoTerminal, since mark: Int, until done: (String) -> Bool) async throws -> String {
        var last = ""
        for _ in 0..<100 {
            try await session.drain(seconds: 0.1)
            last = session.output(since: mark).components(separatedBy: "\u{1B}[J").last ?? ""
            if done(last) { break }
        }
        return last
    }

    @Test("a theme chosen on the Account screen draws the notice in its palette from the first frame; one stored by another process recolours the running screen")
    func followsTheStoredTheme() async throws {
        defer { flows.removeHome() }
        let signUp = try await flows.run(
            ["run", "SignUp", "--no-input", "--set", "email=ada@example.com", "--set", "password=correct horse", "--set", "display-name=Ada"],
            environment: ["FLOWS_HOME": flows.home.path]
        )
        #expect(signUp.status == 0)

        let session = try PseudoTerminal(arguments: ["run", "Authenticated"], environment: environment)
        try await session.waitFor("No activity yet")           // the home opens on the Expenses tab
        session.type("\u{1B}")                          // Esc: back to the home's tabs
        try await session.waitFor("Signed in as Ada")
        session.type("\u{1B}[Z\r")                      // Shift-Tab from Sign out to the Account tab, Enter
        try await session.waitFor("Friend code:")
        var mark = session.output.utf8.count
        session.type("\u{1B}[Z\u{1B}[Z")                 // Shift-Tab twice: to the theme
        session.type("\u{1B}[A\r")                       // Up to Light, Enter
        _ = try await session.waitFor("Theme changed to light.", since: mark)
        try await session.drain(seconds: 0.3)
        // Every frame with the notice is in the light palette, the first one too (the flow has
        // the ThemeManager recolour before it draws the notice): the light accent (34) marks
        // the notice, and the dark one's (96) is nowhere.
        let frames = session.output(since: mark).components(separatedBy: "\u{1B}[J").filter { $0.contains("Theme changed to light.") }
        #expect(!frames.isEmpty)
        for chosen in frames {
            #expect(chosen.contains("\u{1B}[34m"))
            #expect(!chosen.contains("\u{1B}[96m"))
        }

        // Another process changes Ada's stored theme: the running screen follows.
        mark = session.output.utf8.count
        let services = LocalServices.open(StoreLocation(directory: flows.home))
        guard let ada = try await services.accounts.currentUser() else {
            Issue.record("nobody is signed in")
            return
        }
        try await services.preferences.update(Preferences(theme: .highContrast, defaultCurrency: .eur), of: ada.id)
        // High contrast's accent.
        let followed = try await frame(of: session, since: mark) { $0.contains("\u{1B}[1;93m") }
        #expect(followed.contains("Theme changed to light."))
        #expect(!followed.contains("\u{1B}[34m"))
        session.type("\u{3}")                            // Ctrl-C leaves the app
        #expect(try await session.exitStatus() == 130)
    }
}
