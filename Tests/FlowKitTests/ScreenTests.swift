import FlowKit
import Foundation
import Testing

@Suite("Screen")
struct ScreenTests {
    let screen = Screen(
        id: "form",
        title: "Form",
        fields: [
            Field(id: "name", label: "Name", input: .text("")),
            Field(id: "secret", label: "Secret", input: .secret(isSet: true)),
            Field(id: "colour", label: "Colour", input: .choice([Choice(id: "red", label: "Red")], selected: nil)),
            Field(id: "tags", label: "Tags", input: .multiChoice([Choice(id: "a", label: "A")], selected: ["a"])),
            Field(id: "sure", label: "Sure", input: .confirm(nil)),
        ],
        actions: [Action(id: "save", label: "Save", role: .primary), Action(id: "quit", label: "Quit", role: .cancel)],
        status: .notice("Hello")
    )

    @Test("identifiers, the primary action and field values")
    func lookups() {
        #expect(screen.elementIDs == ["name", "secret", "colour", "tags", "sure", "save", "quit"])
        #expect(screen.primaryAction?.id == "save")
        #expect(screen.fields.map(\.hasValue) == [false, true, false, true, false])
        #expect(screen.field("colour")?.input.options.map(\.id) == ["red"])
        #expect(screen.fields.map(\.input.kindName) == ["text", "secret", "choice", "multi-choice", "confirm"])
    }

    @Test("readable identifiers for options: words in lower case joined by dashes, numbered when alike, never empty")
    func readableIdentifiers() {
        let labels = ["Sam Park", "sam  park!", "Zoë O'Neill", "李雷", "!!!", "", "Sam Park 2", "Sam Park"]
        #expect(ElementID.readable(for: labels) == [
            "sam-park", "sam-park-2", "zoë-o-neill", "李雷", "option", "option-2", "sam-park-2-2", "sam-park-3",
        ])
        let many = ElementID.readable(for: Array(repeating: "Ann", count: 50))
        #expect(Set(many).count == 50)
    }

    @Test("a screen survives a JSON round trip")
    func codable() throws {
        let data = try JSONEncoder().encode(screen)
        #expect(try JSONDecoder().decode(Screen.self, from: data) == screen)
        #expect(String(decoding: data, as: UTF8.self).contains(#""name""#))
    }
}
