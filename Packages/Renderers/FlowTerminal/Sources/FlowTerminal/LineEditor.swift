/// The text of a field being typed, with a cursor: insert, delete, move, kill.
struct LineEditor: Equatable, Sendable {
    private(set) var characters: [Character]
    /// Index in `characters` the next character goes before.
    private(set) var cursor: Int

    init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }

    /// Applies an editing key; false when the key is not an editing key.
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .paste(let text):
            // A field is one line: pasted line breaks become spaces.
            let pasted = text.map { $0.isNewline ? " " : $0 }.filter { !$0.isControlCharacter }
            characters.insert(contentsOf: pasted, at: cursor)
            cursor += pasted.count
        case .backspace:
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .control("w"), .alt("\u{7F}"):
            let start = wordStart(before: cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .alt("b"), .alt("B"): cursor = wordStart(before: cursor)
        case .alt("f"), .alt("F"): cursor = wordEnd(after: cursor)
        default:
            return false
        }
        return true
    }

    /// Where the word before `index` starts (spaces before `index` skipped).
    private func wordStart(before index: Int) -> Int {
        var start = index
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        return start
    }

    /// Where the word after `index` ends (spaces after `index` skipped).
    private func wordEnd(after index: Int) -> Int {
        var end = index
        while end < characters.count, characters[end] == " " { end += 1 }
        while end < characters.count, characters[end] != " " { end += 1 }
        return end
    }

    /// Display columns before the cursor.
    var cursorColumn: Int { DisplayWidth.of(String(characters[..<cursor])) }
}

extension Character {
    var isControlCharacter: Bool {
        unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
