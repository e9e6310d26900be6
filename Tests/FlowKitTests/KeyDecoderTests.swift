import FlowTerminal
import Testing

@Suite("KeyDecoder")
struct KeyDecoderTests {
    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    @Test("printable text, multi-byte characters included")
    func printable() {
        #expect(keys("aé€😀") == [.character("a"), .character("é"), .character("€"), .character("😀")])
    }

    @Test("editing and navigation keys", arguments: [
        ("\r", Key.enter), ("\n", .enter), ("\u{7F}", .backspace), ("\u{8}", .backspace), ("\u{1B}[3~", .delete),
        ("\t", .tab), ("\u{1B}[Z", .shiftTab), ("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}[C", .right),
        ("\u{1B}[D", .left), ("\u{1B}OA", .up), ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home),
        ("\u{1B}[4~", .end), ("\u{1B}OH", .home), ("\u{1B}", .escape), ("\u{3}", .control("c")),
        ("\u{4}", .control("d")), ("\u{15}", .control("u")), ("\u{17}", .control("w")),
    ])
    func special(text: String, key: Key) {
        #expect(keys(text) == [key])
    }

    @Test("sequences and characters split across reads are put back together")
    func split() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed(Array("[".utf8)) == [])
        #expect(decoder.feed(Array("A".utf8)) == [.up])
        let euro = Array("€".utf8)
        #expect(decoder.feed(euro.prefix(2)) == [])
        #expect(decoder.feed(euro.suffix(1)) == [.character("€")])
        #expect(decoder.flush() == [])
    }

    @Test("a bracketed paste arrives as one event, line endings normalised, even in pieces")
    func paste() {
        var decoder = KeyDecoder()
        var got = decoder.feed(Array("x\u{1B}[200~hello\r\nwor".utf8))
        got += decoder.feed(Array("ld\u{1B}[20".utf8))
        got += decoder.feed(Array("1~y".utf8))
        #expect(got == [.character("x"), .paste("hello\nworld"), .character("y")])
    }

    @Test("unknown sequences and NUL are dropped; bytes that are not UTF-8 are one invalidUTF8 key, never text")
    func unknown() {
        var decoder = KeyDecoder()
        let bytes: [UInt8] = Array("\u{1B}[99xa".utf8) + [0x00, 0xFF, 0x80] + Array("b".utf8)
        #expect(decoder.feed(bytes) == [.character("a"), .invalidUTF8, .character("b")])
    }

    @Test("a secret typed with a byte that is not UTF-8 never loses it silently", arguments: [
        [0xFF], [0xFE], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF8, 0x88, 0x80, 0x80, 0x80],
    ] as [[UInt8]])
    func invalidBytes(bad: [UInt8]) {
        var decoder = KeyDecoder()
        let keys = decoder.feed(Array("pa".utf8) + bad + Array("ss".utf8)) + decoder.flush()
        #expect(keys == [.character("p"), .character("a"), .invalidUTF8, .character("s"), .character("s")])
    }

    @Test("a paste with a byte that is not UTF-8 is refused whole")
    func invalidPaste() {
        var decoder = KeyDecoder()
        let keys = decoder.feed(Array("\u{1B}[200~pa".utf8) + [0xFF] + Array("ss\u{1B}[201~".utf8))
        #expect(keys == [.invalidUTF8])
    }

    @Test("Alt and a key (Escape and the key in one read) is a key of its own, not Escape", arguments: [
        ("\u{1B}b", Key.alt("b")), ("\u{1B}f", .alt("f")), ("\u{1B}x", .alt("x")), ("\u{1B}B", .alt("B")),
        ("\u{1B}é", .alt("é")), ("\u{1B}\u{7F}", .alt("\u{7F}")), ("\u{1B}\r", .alt("\r")), ("\u{1B}.", .alt(".")),
    ])
    func alt(text: String, key: Key) {
        #expect(keys(text) == [key])
    }

    @Test("Escape alone, or Escape after Escape, is still Escape; Alt keys follow one another")
    func escapeStill() {
        #expect(keys("\u{1B}\u{1B}") == [.escape, .escape])
        #expect(keys("\u{1B}b\u{1B}f") == [.alt("b"), .alt("f")])
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flush() == [.escape])
    }
}
