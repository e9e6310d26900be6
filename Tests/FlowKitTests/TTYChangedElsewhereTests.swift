import FlowKit
import FlowTerminal
import Testing

/// A change made elsewhere (a sync in the background brought it) has the screen read again, as
/// Ctrl-R does, but never at the cost of a password being typed.
@Suite("TTYRenderer told of a change made elsewhere")
struct TTYChangedElsewhereTests {
    private func renderer(_ keys: [Key]) -> TTYRenderer {
        let grid = TerminalGrid(width: 80, height: 40)
        return TTYRenderer(keys: ScriptedKeys(keys), output: grid, style: TerminalStyle(colors: false), height: { grid.height }, width: { grid.width })
    }

    @Test("on a list, the screen is asked to read again")
    func list() async {
        let screen = Screen(
            id: "friends", title: "Friends", fields: [Field(id: "friend", label: "Friend", input: .choice([Choice(id: "bob", label: "Bob")], selected: nil))],
            actions: [.back], browses: true
        )
        #expect(await renderer([.changedElsewhere]).nextEvent(on: screen) == .refresh)
    }

    @Test("while a password is typed, nothing is asked: what is typed stays")
    func password() async {
        let form = Screen(
            id: "sign-in", title: "Sign in",
            fields: [Field(id: "password", label: "Password", input: .secret(isSet: false))],
            actions: [Action(id: "sign-in", label: "Sign in", role: .primary), .cancel]
        )
        let typing = renderer([.character("s"), .character("e"), .changedElsewhere, .character("c"), .enter])
        #expect(await typing.nextEvent(on: form) == .fill("password", "sec"))
        // Before anything is typed, it reads again.
        #expect(await renderer([.changedElsewhere]).nextEvent(on: form) == .refresh)
    }
}
