import FlowKit
import FlowTerminal
import Testing

@Suite("Pictures on terminals that draw them")
struct TerminalImagesTests {
    /// Writes to a grid, which reads the sequences as a terminal would, and keeps the raw text.
    private final class Tee: TextOutput {
        let grid: TerminalGrid
        let raw = TextBuffer()
        init(_ grid: TerminalGrid) { self.grid = grid }
        func write(_ text: String) {
            grid.write(text)
            raw.write(text)
        }
    }

    /// Bytes enough for several kitty chunks (4,096 base64 characters each); the terminal gets
    /// them as they are, so they need not decode as a PNG here.
    private static let bytes: [UInt8] = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    private static func picture(_ format: Picture.Format = .png, width: Int = 64, height: Int = 64) -> Picture {
        Picture(bytes: bytes, format: format, width: width, height: height, initials: "AL", colour: "teal")
    }
    private static func screen(_ picture: Picture) -> Screen {
        Screen(
            id: "account", title: "Account", text: ["Name: Ada"], figures: [.picture(picture)],
            fields: [Field(id: "note", label: "Note", input: .text(""))], actions: [Action(id: "back", label: "Back", role: .cancel)]
        )
    }

    private func run(_ images: TerminalImages?, picture: Picture = picture(), keys: [Key] = [], width: Int = 60) async -> Tee {
        let tee = Tee(TerminalGrid(width: width))
        let renderer = TTYRenderer(keys: ScriptedKeys(keys), output: tee, style: TerminalStyle(colors: false), images: images, width: { width })
        _ = await renderer.nextEvent(on: Self.screen(picture))
        return tee
    }

    @Test("found from the environment, never assumed; inside tmux only when it passes sequences on; never in GNU screen")
    func detection() {
        let cases: [([String: String], Bool, TerminalImages?)] = [
            (["TERM": "xterm-kitty"], false, TerminalImages(kind: .kitty)),
            (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"], false, TerminalImages(kind: .kitty)),
            (["TERM": "xterm-ghostty"], false, TerminalImages(kind: .kitty)),
            (["TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"], false, TerminalImages(kind: .iTerm2)),
            (["LC_TERMINAL": "iTerm2"], false, TerminalImages(kind: .iTerm2)),
            (["TERM_PROGRAM": "WezTerm"], false, TerminalImages(kind: .iTerm2)),
            (["TERM": "xterm-256color"], true, nil),
            (["TERM": "xterm-256color", "KITTY_WINDOW_ID": ""], true, nil),
            (["TERM": "dumb", "KITTY_WINDOW_ID": "3"], true, nil),
            (["TERM": "screen", "STY": "1.pts", "KITTY_WINDOW_ID": "3"], true, nil),
            (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "3"], false, nil),
            (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "3"], true, TerminalImages(kind: .kitty, throughTmux: true)),
            (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "LC_TERMINAL": "iTerm2"], true, TerminalImages(kind: .iTerm2, throughTmux: true)),
        ]
        for (environment, passthrough, expected) in cases {
            var asked = false
            let found = TerminalImages.detect(environment: environment) {
                asked = true
                return passthrough
            }
            #expect(found == expected, "\(environment)")
            // tmux is asked only inside tmux, and only when a protocol was found.
            #expect(asked == (environment["TMUX"] != nil && expected != nil || environment["TMUX"] != nil && !passthrough), "\(environment)")
        }
    }

    @Test("kitty: the PNG is sent once in 4,096-character chunks, placed on four blank rows, and a repaint moves the placement rather than adding one")
    func kitty() async {
        let tee = await run(TerminalImages(kind: .kitty), keys: Array("abc").map(Key.character))
        let raw = tee.raw.text
        func count(_ part: String) -> Int { raw.components(separatedBy: part).count - 1 }
        #expect(count("\u{1B}_Ga=t,f=100,t=d,") == 1)
        // 10,000 bytes are 13,336 base64 characters: three more chunks, the last one saying m=0.
        #expect(count("\u{1B}_Gm=1;") == 2 && count("\u{1B}_Gm=0;") == 1)
        // Every paint places it, and every paint after the first takes the last placement away.
        #expect(count("\u{1B}_Ga=p,") >= 4)
        #expect(count("\u{1B}_Ga=d,d=i,") == count("\u{1B}_Ga=p,") - 1)
        let pictures = tee.grid.pictures
        #expect(pictures.count == 1)
        guard let shown = pictures.first else { return }
        #expect(shown.bytes == Self.bytes)
        #expect(shown.columns == 8 && shown.rows == 4)
        let lines = tee.grid.lines
        #expect(lines[shown.row] == "")
        #expect(lines[shown.row - 2] == "Name: Ada")
        #expect(lines[shown.row + 1..<shown.row + 4].allSatisfy { $0.isEmpty })
        #expect(lines[shown.row + 5].contains("Note") && lines[shown.row + 5].contains("abc"))
        // Drawn in place each time, the cursor left on a fresh line below at the end.
        #expect(lines.filter { $0 == "Name: Ada" }.count == 1)
        #expect(tee.grid.cursor.row == lines.count)
    }

    @Test("iTerm2 draws PNG and JPEG alike, inline, with the cursor put back; a repaint erases the old one with the text")
    func iTerm2() async {
        for format in [Picture.Format.png, .jpeg] {
            let tee = await run(TerminalImages(kind: .iTerm2), picture: Self.picture(format, width: 128, height: 64), keys: Array("ab").map(Key.character))
            let pictures = tee.grid.pictures
            #expect(pictures.count == 1)
            #expect(pictures.first?.bytes == Self.bytes)
            #expect(pictures.first?.columns == 16 && pictures.first?.rows == 4)
            #expect(tee.raw.text.contains("\u{1B}]1337;File=inline=1;size=10000;width=16;height=4;preserveAspectRatio=1:"))
            let lines = tee.grid.lines
            #expect(lines.contains { $0.contains("Note") && $0.contains("ab") })
            // Each repaint found its first row again (the cursor was put back after each
            // picture), and the end left the cursor on a fresh line below.
            #expect(lines.filter { $0 == "Name: Ada" }.count == 1)
            #expect(tee.grid.cursor.row == lines.count)
        }
    }

    @Test("inside tmux with passthrough, every sequence is wrapped with its ESCs doubled, and the terminal outside still gets the picture")
    func tmux() async {
        let tee = await run(TerminalImages(kind: .kitty, throughTmux: true))
        #expect(tee.raw.text.contains("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,f=100"))
        #expect(tee.grid.pictures.first?.bytes == Self.bytes)
    }

    @Test("where the picture cannot be drawn, its initials are: a JPEG on kitty, no protocol, a terminal narrower than the picture, the plain renderer")
    func fallbacks() async {
        for (images, format, width) in [(TerminalImages(kind: .kitty), Picture.Format.jpeg, 60), (nil, .png, 60), (TerminalImages(kind: .iTerm2), .png, 8)] {
            let tee = await run(images, picture: Self.picture(format), width: width)
            #expect(tee.grid.pictures.isEmpty)
            #expect(tee.grid.lines.contains("[AL]"))
            #expect(!tee.raw.text.contains("\u{1B}_G") && !tee.raw.text.contains("1337;File"))
        }
        let plain = TextBuffer()
        await PlainRenderer(input: LinesInput([]), output: plain, answers: [:], prompts: false).present(Self.screen(Self.picture()))
        #expect(plain.text.contains("[AL]"))
    }

    @Test("a picture cut by a short terminal's window is not drawn over other rows")
    func shortTerminal() async {
        let tee = Tee(TerminalGrid(width: 60, height: 6))
        let renderer = TTYRenderer(
            keys: ScriptedKeys([]), output: tee, style: TerminalStyle(colors: false), images: TerminalImages(kind: .kitty),
            height: { 6 }, width: { 60 }
        )
        _ = await renderer.nextEvent(on: Self.screen(Self.picture()))
        for picture in tee.grid.pictures {
            let lines = tee.grid.lines
            #expect(picture.row >= 0 && picture.row + picture.rows <= lines.count)
            #expect((picture.row..<min(lines.count, picture.row + picture.rows)).allSatisfy { lines[$0].isEmpty })
        }
    }
}
